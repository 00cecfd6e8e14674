"""Benchmark, run on demand (pytest does not collect it): what one key costs at crux's prompt, against a bare
prompt_toolkit PromptSession prompt, with each of crux's parts alone.

    python tests/bench/bench_repl_keys.py [--lines L] [--cpu] [--profile]

A whole session in process (`run_repl` with prompt-toolkit's pipe input and a 256-colour terminal of 40 x 80
writing to /dev/null, so the keys, the buffer, the lexer, the suggestion from history, the toolbar and the
renderer are the real ones). It types L different statements (tests/bench/batch_lines.py), each key by key and
then erased with Ctrl-U, all at one prompt (so no statement is answered: this is the cost of keys), and leaves
with Ctrl-D. Each key waits for the screen to be drawn after it (one draw a key, as a person types), and the
rule set, its grammars and the first-draw warm-up are built before the first key.

Variants, side by side in one run: the bare prompt (`PromptSession()`: no history, lexer, completer,
toolbar or style), crux with everything on (lexer, completer as configured: complete_while_typing off,
history suggestions from a history of HISTORY different statements, toolbar), crux with all four off, and
crux with each of the four alone.

The figure is instructions (valgrind's cachegrind): a run typing 3L lines less a run typing L, over the
keys between, so start-up falls out; CPU time on this machine varies by a third. `--cpu` adds the CPU time
of the same difference (median of 3). Goal (issue 38): everything on at most 1.5x the bare prompt's key.
`--profile` prints cProfile's top functions of crux's session with everything on instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import batch_lines
from benchkit import Ratio, compile_crux

GOAL = 1.5
HISTORY = 2_000  # entries of the history the suggestions come from
PARTS = ("lexer", "completer", "suggester", "toolbar")
VARIANTS = ("bare", "crux", "none", *PARTS)  # `none`: crux's prompt with the four parts off
ERASE, LEAVE = "\x15", "\x04"  # Ctrl-U, Ctrl-D
ROWS, COLUMNS = 40, 80


def typed_lines(count: int) -> list[str]:
    """`count` different statements, none of them in the history (which holds the first HISTORY)."""
    every = [line for line, _ in batch_lines.all_different(HISTORY + count)]
    return every[HISTORY:]


def script(count: int) -> str:
    return "".join(line + ERASE for line in typed_lines(count))


def history_file(path: Path) -> Path:
    with path.open("w") as out:
        for number, (line, _) in enumerate(batch_lines.all_different(HISTORY)):
            out.write(f"\n# 2026-11-28 10:00:{number % 60:02}.000000\n+{line}\n")
    return path


def feed_keys(app: Any, pipe: Any, keys: str) -> None:
    """Type `keys` into `app` once it is first drawn, one at a time, each after the draw the last one caused."""
    drawn: list[asyncio.Event] = []

    def on_render(_: Any) -> None:
        if not drawn:
            drawn.append(asyncio.Event())
            app.create_background_task(feed())
        drawn[0].set()

    async def feed() -> None:
        for key in keys:
            drawn[0].clear()
            pipe.send_text(key)
            await drawn[0].wait()
            while app.invalidated:  # a draw is still due (a suggestion came in after it): wait for it too
                drawn[0].clear()
                await drawn[0].wait()

    app.after_render += on_render


def terminal() -> Any:
    """A 256-colour terminal of 40 x 80 that writes its escape sequences to /dev/null (as a pty would take them)."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output

    sink = open(os.devnull, "w")  # noqa: SIM115  (open until the process ends)
    return Vt100_Output(sink, lambda: Size(rows=ROWS, columns=COLUMNS), term="xterm-256color",
                        default_color_depth=ColorDepth.DEPTH_8_BIT, enable_cpr=False)


def bare_session(keys: str) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input

    with create_pipe_input() as pipe:
        prompt: PromptSession[str] = PromptSession(input=pipe, output=terminal())
        feed_keys(prompt.app, pipe, keys)
        with contextlib.suppress(EOFError):  # Ctrl-D leaves
            prompt.prompt()


def crux_session(variant: str, keys: str, history_path: Path) -> None:
    """crux's own session typing `keys`; `variant` names the part left on alone ("crux": all, "none": none)."""
    from prompt_toolkit.input import create_pipe_input

    from crux_cli.repl import app
    from crux_cli.repl.history import KeptHistory
    from crux_cli.running.settings import Settings

    history = KeptHistory(history_path)

    async def read_whole() -> None:  # as it is a few seconds into a real session
        async for _ in history.load():
            pass

    asyncio.run(read_whole())
    create_prompt = app.create_prompt

    def prompt_with_parts(session: Any, *args: Any, **kwargs: Any) -> Any:
        prompt = create_prompt(session, *args, **kwargs)
        on = PARTS if variant == "crux" else (variant,)
        prompt.lexer = prompt.lexer if "lexer" in on else None
        prompt.completer = prompt.completer if "completer" in on else None
        prompt.auto_suggest = prompt.auto_suggest if "suggester" in on else None
        prompt.bottom_toolbar = prompt.bottom_toolbar if "toolbar" in on else None
        for step in app.first_answer_needs(prompt, session):  # built before the first key, not between keys
            step()
        session.warm_up()
        feed_keys(prompt.app, pipe, keys)
        return prompt

    warm_up = app.warm_up_after_first_draw
    app.create_prompt, app.warm_up_after_first_draw = prompt_with_parts, lambda prompt, session: None
    try:
        with create_pipe_input() as pipe:
            app.run_repl(Settings(seed=1), input=pipe, output=terminal(), history=history, write=lambda _: None)
    finally:
        app.create_prompt, app.warm_up_after_first_draw = create_prompt, warm_up


def child(variant: str, count: int, history_path: Path) -> None:
    keys = script(count) + LEAVE
    if variant == "bare":
        bare_session(keys)
    else:
        crux_session(variant, keys, history_path)


def child_command(variant: str, count: int, history_path: Path) -> list[str]:
    return [sys.executable, __file__, "--child", variant, "--lines", str(count), "--history", str(history_path)]


def instructions(command: list[str], env: dict[str, str]) -> int:
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None or done.returncode != 0:
        raise SystemExit(f"valgrind gave no count for {' '.join(command)}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def cpu(command: list[str], env: dict[str, str]) -> float:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return usage.ru_utime + usage.ru_stime


def keys_between(count: int) -> int:
    return len(script(3 * count)) - len(script(count))


def per_key(variants: tuple[str, ...], count: int, history_path: Path, measure: Any) -> dict[str, float]:
    """Each variant's cost of a key: a session of 3 x `count` lines less one of `count`, over the keys between."""
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONHASHSEED": "0"}  # the same sets and dicts each run
    keys = keys_between(count)
    return {variant: (measure(child_command(variant, 3 * count, history_path), env)
                      - measure(child_command(variant, count, history_path), env)) / keys for variant in variants}


def median_cpu(command: list[str], env: dict[str, str]) -> float:
    return statistics.median(cpu(command, env) for _ in range(3))


def fit(quick: bool) -> list[Ratio]:
    """Issue 38's figure: a key with everything on against a bare prompt_toolkit prompt's (instructions)."""
    compile_crux()
    with tempfile.TemporaryDirectory(prefix="crux-bench-") as folder:
        figures = per_key(("bare", "crux"), 4 if quick else 10, history_file(Path(folder) / "history"),
                          instructions)
    return [Ratio("crux repl, a key (lexer, completer, suggester, toolbar on)", figures["crux"] / 1e6,
                  "a bare prompt_toolkit PromptSession prompt's key", figures["bare"] / 1e6, "M instructions",
                  figures["crux"] / figures["bare"], GOAL, True)]


def profile(count: int, history_path: Path) -> None:
    import cProfile
    import pstats

    keys = script(count) + LEAVE
    profiler = cProfile.Profile()
    profiler.runcall(crux_session, "crux", keys, history_path)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(40)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--cpu", action="store_true", help="CPU time of the same difference beside the count")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--only", nargs="*", default=None, help="the variants to measure (default: all)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--history", default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child is not None:
        child(options.child, options.lines, Path(options.history))
        return 0
    compile_crux()
    with tempfile.TemporaryDirectory(prefix="crux-bench-") as folder:
        history_path = history_file(Path(folder) / "history")
        if options.profile:
            profile(options.lines, history_path)
            return 0
        if shutil.which("valgrind") is None:
            raise SystemExit("needs valgrind (cachegrind) on PATH")
        variants = tuple(options.only or VARIANTS)
        if "bare" not in variants:
            variants = ("bare", *variants)
        counted = per_key(variants, options.lines, history_path, instructions)
        timed = per_key(variants, options.lines, history_path, median_cpu) if options.cpu else {}
    bare = counted["bare"]
    print(f"a key, over {keys_between(options.lines)} keys ({3 * options.lines} lines typed less "
          f"{options.lines}); history of {HISTORY:,} entries:")
    for variant in variants:
        label = {"bare": "bare PromptSession()", "crux": "crux, everything on", "none": "crux, the four off"}.get(
            variant, f"crux, {variant} alone")
        extra = f"   {timed[variant] * 1e3:6.2f} ms CPU ({timed[variant] / timed['bare']:.2f}x)" if timed else ""
        print(f"  {label:24} {counted[variant] / 1e6:7.2f} M instructions  {counted[variant] / bare:5.2f}x{extra}")
    ratio = counted["crux"] / bare if "crux" in counted else 0.0
    met = ratio <= GOAL
    print(f"everything on: {ratio:.2f}x the bare prompt's key (goal at most {GOAL}x): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
