"""The history file is read newest entry first, a chunk per turn of the event loop.

prompt-toolkit reads the history right after the first prompt is drawn; read whole in one
turn, a long one held up the first line typed. These tests pin that the chunked reading
gives exactly what reading the file whole gave, and that it lets the loop run between chunks.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from crux_cli.repl import history
from crux_cli.repl.history import KeptHistory, TailReader, whole_entries

PIECES = (b"\n# 2026-11-25 10:00:00\n+DEX\n", b"\n# t\n+atk d8\n+# two lines\n", b"junk\n", b"\n# +not a line\n",
          b"\n# \n", b"+x\n", b"\xff\xc3", b"\n# t\n+\xe9\xc3\n", b"\n#", b" ", b"\n", b"+")


def read_whole(data: bytes, complete: bool) -> list[str]:
    """What the history read before: every whole entry's `+` lines, newest entry first."""
    strings = []
    for entry in whole_entries(data, complete):
        lines = [line[1:] for line in entry.decode("utf-8", errors="replace").split("\n") if line[:1] == "+"]
        if lines:
            strings.append("\n".join(lines))
    return strings[::-1]


@pytest.mark.parametrize("chunk", [1, 2, 7, 1000])
def test_reading_in_chunks_gives_what_reading_whole_gave(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(history, "LOAD_CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(300):
        data = b"".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 40)))
        for complete in (True, False):
            reader, strings = TailReader(data, complete), []
            while not reader.done:
                strings += reader.next_chunk()
            assert strings == read_whole(data, complete), (data, complete)


def entries(tmp_path: Path, count: int) -> KeptHistory:
    path = tmp_path / "history"
    path.write_text("".join(f"\n# 2026-11-25\n+DEX # {number}\n" for number in range(count)))
    path.chmod(0o600)
    return KeptHistory(path)


def test_the_loop_runs_between_chunks_and_a_prompt_left_early_goes_on_where_it_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "LOAD_CHUNK", 2)
    kept = entries(tmp_path, 5)

    async def first_prompt() -> list[str]:  # left after the loop's first turn: its task is cancelled
        got: list[str] = []

        async def load() -> None:
            async for string in kept.load():
                got.append(string)

        task = asyncio.ensure_future(load())
        await asyncio.sleep(0)  # the loop's turn: one chunk is read, then the loop is free again
        assert not task.done()
        task.cancel()
        return got

    assert asyncio.run(first_prompt()) == ["DEX # 4", "DEX # 3"]
    assert kept.get_strings() == ["DEX # 3", "DEX # 4"]  # suggestions see what is read so far
    kept.append_string("init")  # a line entered before the rest is read: the newest
    assert kept.get_strings() == ["DEX # 3", "DEX # 4", "init"]

    async def next_prompt() -> list[str]:
        return [string async for string in kept.load()]

    every = ["init", "DEX # 4", "DEX # 3", "DEX # 2", "DEX # 1", "DEX # 0"]
    assert asyncio.run(next_prompt()) == every
    assert asyncio.run(next_prompt()) == every  # read once; then from memory, as prompt-toolkit's History
    assert list(KeptHistory(tmp_path / "missing").load_history_strings()) == []


def test_the_line_index_suggests_what_a_scan_of_the_whole_history_would() -> None:
    """The index the suggester searches (a key costs the same with 59,000 entries) finds the newest line
    starting with the text, as reading every entry newest first does, failed lines skipped."""
    import random

    from crux_cli.repl.history import LineIndex, last_line

    choose = random.Random(7)
    words = ["DEX", "DEX +1b", "atk", "atk 2d8", "d6", "d20", "save", "init", " ", "2d6\nDEX +2b", "DEX +1b grit"]
    for _ in range(30):
        entered: list[str] = []  # oldest first
        index = LineIndex()
        older = [choose.choice(words) + choose.choice(["", " x", "1", "+1"]) for _ in range(choose.randint(0, 300))]
        index.add_older(older)  # newest first, as the file is read
        entered = older[::-1]
        for _ in range(choose.randint(0, 40)):
            line = choose.choice(words) + choose.choice(["", " y", "2"])
            index.add_newest(line)
            entered.append(line)
        failed = {choose.choice(words)}
        for text in ["D", "DE", "DEX", "DEX +", "a", "atk 2", "d", "s", "x", "DEX +1b g", "2"]:
            expected = next((line for string in reversed(entered) if (line := last_line(string)) is not None
                             and line.startswith(text) and line.strip() not in failed), None)
            assert index.newest_starting_with(text, failed) == expected, (text, failed)
