"""Benchmark, run on demand (pytest does not collect it): the REPL's key and statement with a long history.

    python tests/bench/bench_repl_history.py [--entries 59000] [--runs R]

A whole session in process (`run_repl` with prompt-toolkit's pipe input and a dummy output, so the
keys, the suggestion from history, the prompt's buffer and the answers are all the real ones), on a
history file of ENTRIES different statements (about what the 2 MB cut lets one reach) against an
empty one, read whole before the session as it is a few seconds into a real one. Two scripts:
typing (21 statements of 30 keys: the cost of a key) and answering (120 short statements: the cost
of a statement), each typed key by key from a thread with pauses (3 ms between keys, 30 ms after
Enter: the session does what it does while a person types) and timed as the CPU of the whole
session over its keys or its statements, the median of the runs, alternating the two histories.
Goal (issue 27): with ENTRIES, at most 1.3x the empty history's figure, for a key and for a statement.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import batch_lines
from benchkit import compile_crux

GOAL = 1.3
KEY_PAUSE, LINE_PAUSE = 0.003, 0.03  # seconds between keys, and after Enter (the CPU time counts no waiting)
TYPING = ["DEX +1b help great hard risky", "atk 2d8+3 heavy rushed resist  ", "save WIL adv -2B bonus 1 xyz"] * 7
ANSWERING = ["d6", "init", "DEX"] * 40


def history_file(folder: Path, entries: int) -> Path:
    path = folder / f"history-{entries}"
    with path.open("w") as out:
        for number, (line, _) in enumerate(batch_lines.all_different(entries)):
            out.write(f"\n# 2026-11-26 10:00:{number % 60:02}.000000\n+{line}\n")
    return path


def session_cpu(path: Path, lines: list[str]) -> float:
    """CPU seconds of a session that types `lines`, each answered, then Ctrl-D."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from crux_cli.repl.app import run_repl
    from crux_cli.repl.history import KeptHistory
    from crux_cli.running.settings import Settings

    history = KeptHistory(path)

    async def read_whole() -> None:
        async for _ in history.load():
            pass

    asyncio.run(read_whole())
    with create_pipe_input() as keys:

        def type_lines() -> None:  # as a person types: the session is idle between keys, as it waits for them
            for line in lines:
                for key in line + "\r":
                    time.sleep(KEY_PAUSE if key != "\r" else LINE_PAUSE)
                    keys.send_text(key)
            time.sleep(LINE_PAUSE)
            keys.send_text("\x04")

        typist = threading.Thread(target=type_lines, daemon=True)
        started = time.process_time()
        typist.start()
        run_repl(Settings(seed=1), input=keys, output=DummyOutput(), history=history, write=lambda _: None)
        typist.join()
        return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=59_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    compile_crux()
    keys = sum(len(line) + 1 for line in TYPING)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        empty, long = history_file(folder, 0), history_file(folder, options.entries)
        written = {path: path.read_bytes() for path in (empty, long)}
        figures: dict[tuple[str, str], list[float]] = {}
        for _ in range(options.runs):
            for label, path in (("empty", empty), (f"{options.entries:,}", long)):
                for script, lines, count in (("key", TYPING, keys), ("statement", ANSWERING, len(ANSWERING))):
                    path.write_bytes(written[path])  # the session appends its lines: the same file each run
                    figures.setdefault((label, script), []).append(session_cpu(path, lines) / count)
    met = []
    for script in ("key", "statement"):
        base, long_ = (statistics.median(figures[(label, script)]) for label in ("empty", f"{options.entries:,}"))
        ratio = long_ / base
        met.append(ratio <= GOAL)
        print(f"a {script:9}: empty history {base * 1e3:6.2f} ms CPU, {options.entries:,} entries "
              f"{long_ * 1e3:6.2f} ms: {ratio:.2f}x, goal at most {GOAL}x: {'met' if met[-1] else 'NOT met'}")
    return 0 if all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
