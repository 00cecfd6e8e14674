"""Seeded batch output does not change with the parse cache or the batch's buffered output.

tests/golden/ holds the output of main before the throughput work (issue 15; batch.err regenerated from
main at 476fc7e, whose hint names 'wound'; line 1386, `init ambush +1b`, refused since issue 23, as an
ambush rolls nothing for a Boon to change, with no other line changed): `crux --seed 2026 -` and
`crux --seed 2026 --json -` over batch_input.txt, 2,439 lines of tests, saves, initiative, attacks, dice,
repeats, comments and refused statements.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.running import modes, read
from crux_cli.running.modes import run_batch
from crux_cli.running.output import Output
from crux_cli.running.settings import Settings

GOLDEN = Path(__file__).parent / "golden"


def batch(json: bool) -> tuple[str, str, int]:
    settings = Settings(seed=2026, json=json)
    stdout, stderr = io.StringIO(), io.StringIO()
    with (GOLDEN / "batch_input.txt").open(encoding="utf-8", errors="replace") as lines:
        status = run_batch(settings, lines, Output(settings, stdout, stderr, environ={}))
    return stdout.getvalue(), stderr.getvalue(), status


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("cache_size", [0, read.CACHE_SIZE, 8], ids=["no cache", "cache", "tiny cache"])
def test_seeded_batch_output_is_what_main_printed(monkeypatch: pytest.MonkeyPatch, json: bool, cache_size: int):
    monkeypatch.setattr(read, "CACHE_SIZE", cache_size)
    monkeypatch.setattr(modes, "REMEMBERED_LINES", {0: 0, 8: 2}.get(cache_size, modes.REMEMBERED_LINES))
    read._cache.clear()
    stdout, stderr, status = batch(json)
    expected = gzip.decompress((GOLDEN / f"batch_{'json' if json else 'text'}.out.gz").read_bytes()).decode()
    assert stdout == expected
    assert stderr == (GOLDEN / "batch.err").read_text(encoding="utf-8")
    assert status == 2  # the input holds refused lines on purpose
    assert cache_size == 0 or 0 < len(read._cache) <= cache_size


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch):
    from crux_cli import rulesets

    monkeypatch.setattr(read, "CACHE_SIZE", 100)
    read._cache.clear()
    rules = rulesets.load("crux")
    for n in range(300):
        read.read(f"d20+{n}", rules)
    assert len(read._cache) == 100 and ("crux", "d20+299") in read._cache and ("crux", "d20+0") not in read._cache


def test_a_cached_statement_is_the_same_tree():
    from crux_cli import rulesets

    rules = rulesets.load("crux")
    first = read.read("atk 2d8+3 heavy", rules)
    assert read.read("atk 2d8+3 heavy", rules)[1] is first[1]
    assert read.read("atk 2d8+3 heavy", rules) == read.read_uncached("atk 2d8+3 heavy", rules)


def test_the_cache_keys_on_the_rule_set_a_callable_gives(monkeypatch: pytest.MonkeyPatch):
    """The runner passes `lambda: self.rules`: the key is the resolved rule set's name, and a statement with
    no word (generic dice in every rule set) is read without asking for the rule set at all."""
    from crux_cli import rulesets

    monkeypatch.setattr(read, "CACHE_SIZE", 100)
    read._cache.clear()
    crux, stepdice = rulesets.load("crux"), rulesets.load("stepdice")
    active = [crux]
    asked: list[str] = []

    def current() -> object:
        asked.append(active[0].name)
        return active[0]

    assert read.read("STR +1b", current)[0] is crux and ("crux", "STR +1b") in read._cache
    active[0] = stepdice  # where STR is no statement: crux's cached tree must not answer
    with pytest.raises(CruxError, match="not a statement or attribute of the stepdice rules"):
        read.read("STR +1b", current)
    assert read.read("d20", current)[0].name == "dice" and ("stepdice", "d20") in read._cache
    asked.clear()
    assert read.read("4d6kh3", current) == read.read("4d6kh3", current) and asked == []
    assert ("", "4d6kh3") in read._cache


@pytest.mark.slow
def test_a_pipe_reader_sees_each_answer_while_crux_waits_for_more_input():
    """Batch output is buffered when stdout is not a terminal, yet flushed while crux waits for input."""
    import select
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "crux_cli", "--seed", "1", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdin is not None and child.stdout is not None
        for statement in ("d20", "DEX +1b"):
            child.stdin.write(statement + "\n")
            child.stdin.flush()
            # a bound on waiting, not on speed: an answer held until the input ends never comes while crux waits
            assert select.select([child.stdout], [], [], 20)[0], f"no answer to {statement!r} while crux waits"
            assert child.stdout.readline().startswith(f"{statement}: ")
        child.stdin.close()
        assert child.wait(20) == 0 and child.stdout.read() == ""
    finally:
        child.kill()


@pytest.mark.slow
def test_memory_stays_flat_in_a_long_batch(tmp_path: Path):
    """Peak RSS stays under 40 MB (issue 15): lines stream through, and the parse cache is bounded,
    so by 30,000 different lines (several times the cache) memory is where a million lines leave it."""
    import subprocess
    import sys

    from bench.batch_lines import all_different

    lines = tmp_path / "lines.txt"
    lines.write_text("".join(f"{statement}\n" for statement, _ in all_different(30_000)))
    # A small Python starts crux and reports its peak: a child's peak RSS counts its parent's at the fork,
    # and pytest's own would swamp crux's.
    measure = ("import os, subprocess, sys\n"
               "child = subprocess.Popen(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL)\n"
               "_, status, usage = os.wait4(child.pid, 0)\n"
               "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n")
    with lines.open("rb") as source:
        result = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "crux_cli", "--seed", "1", "-"],
                                stdin=source, capture_output=True, text=True, check=True)
    status, peak = map(int, result.stdout.split())
    assert status == 0
    assert peak / 1024 <= 40, f"peak RSS {peak / 1024:.1f} MB"


class Reads(io.RawIOBase):
    """Raw input that returns the given pieces one read at a time, as a pipe hands over what was written."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = list(pieces)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        if not self.pieces:
            return 0
        piece = self.pieces.pop(0)
        buffer[:len(piece)] = piece
        return len(piece)


def lines_read(pieces: list[bytes]) -> list[list[str]]:
    from crux_cli.running.modes import blocks_of_lines

    stream = io.TextIOWrapper(io.BufferedReader(Reads(pieces)), encoding="utf-8")
    return list(blocks_of_lines(stream))


def test_batch_input_comes_a_read_at_a_time_with_lines_and_characters_split_across_reads():
    accented = "atk d8 # caf\u00e9\n".encode()  # the é is two bytes: the read ends between them
    pieces = [b"DEX +1b\ninit\nsave W", b"IL adv\n", accented[:-2], accented[-2:]]
    assert lines_read(pieces) == [["DEX +1b", "init"], ["save WIL adv"], ["atk d8 # caf\u00e9"]]


def test_batch_input_keeps_carriage_returns_for_the_caller_junk_bytes_visible_and_a_last_line_without_a_feed():
    assert lines_read([b"DEX\r\n\xff\xfe2d6\n", b"4d6kh3"]) == [["DEX\r", "\ufffd\ufffd2d6"], ["4d6kh3"]]
    assert lines_read([]) == []


def test_an_in_memory_batch_comes_in_chunks_of_lines():
    from crux_cli.running.modes import CHUNK, blocks_of_lines

    blocks = list(blocks_of_lines(io.StringIO("d6\n" * (CHUNK + 1))))
    assert [len(block) for block in blocks] == [CHUNK, 1] and blocks[0][0] == "d6"


def test_a_line_split_over_many_reads_is_joined_once() -> None:
    """Input without line feeds was joined again at every read (64 KB): quadratic, 6 s for 30 MB. Counted:
    twice the pieces make about twice the calls, where joining again at every read made four times the bytes."""
    from helpers import counting

    def calls_for(count: int) -> int:
        with counting() as work:
            lines_read([b"d6 " * 20_000] * count + [b"\nd8"])
        return work.calls

    assert calls_for(600) < 2.5 * calls_for(300)
    pieces = [b"d6 " * 20_000] * 300 + [b"\nd8;", b" d10"]  # 18 MB in one line, then one over two reads
    blocks = lines_read(pieces)
    assert [len(line) for block in blocks for line in block] == [18_000_000, 7]
    assert blocks[-1] == ["d8; d10"]


def test_megabytes_of_statements_on_one_line_are_refused_without_a_string_for_each() -> None:
    import resource
    import subprocess
    import sys

    from helpers import CRUX

    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([*command, "-"], input=b"d6;" * 10_000_000, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 2 and b"this line holds more than 100 statements (the limit)" in done.stderr
    assert after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime < 2.0
    one = subprocess.run([*command, "--seed", "2", "-"], input=b";" * 1_000_000 + b" d6 ;", capture_output=True,
                         check=False)
    assert one.returncode == 0 and one.stdout == b"d6: 2 \xc2\xb7 1d6 [2]\n"  # blank parts are no statements


@pytest.mark.parametrize("no_journal", [False, True], ids=["journal", "no journal"])
def test_remembered_lines_are_the_lines_rendered_afresh(monkeypatch: pytest.MonkeyPatch, no_journal: bool):
    """A text batch shows a statement rolled with the same faces as the line it showed before (PERFORMANCE.md,
    "A text batch remembers its answer lines"): with the memo, without it and with a memo of two lines, the
    output is the same, journal on or off; the memo keeps no more lines than it may."""
    lines = "".join(f"{line}\n" for line in ("DEX", "d20", "DEX +1b", "atk 2d6+1", "d20 # a comment", "2x d6",
                                           "init", "2d6", "d6; d6", "8d6", "odds d6")) * 40
    outputs = []
    for size in (0, modes.REMEMBERED_LINES, 2):
        monkeypatch.setattr(modes, "REMEMBERED_LINES", size)
        settings = Settings(seed=7, no_journal=no_journal)
        stdout, stderr = io.StringIO(), io.StringIO()
        assert run_batch(settings, io.StringIO(lines), Output(settings, stdout, stderr, environ={})) == 0
        outputs.append(stdout.getvalue())
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count("\n") > 400


@pytest.mark.parametrize("no_journal", [False, True], ids=["journal", "no journal"])
def test_remembered_lines_on_a_sheet_are_the_lines_rendered_afresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                  no_journal: bool):
    """On a sheet, a roll that left the hero as it was is remembered by its hero too (`AnswerLines.on_sheet`): with
    the memo, without it and with a memo of two lines, output, errors and sheet are the same, with Grit earned, spent
    and refused, comments, repetitions and `show`; and the memo did answer lines."""
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.state.sheet import new_sheet_text

    sheet = tmp_path / "hero.toml"
    lines = "".join(f"{line}\n" for line in ("DEX", "d20", "WIL +1b grit", "2d6+DEX", "d6", "save STR dis",
                                           "DEX +1b # a comment", "2x INT", "atk 2d8+3 heavy", "show", "init",
                                           "STR +2b; DEX")) * 30
    outputs, rendered = [], []
    for size in (0, modes.REMEMBERED_LINES, 2):
        monkeypatch.setattr(modes, "REMEMBERED_LINES", size)
        sheet.write_text(new_sheet_text(Hero(name="Wren", attributes={"STR": Attribute(1, 0), "DEX": Attribute(2, 1),
                                                                      "WIL": Attribute(0, -1)}, grit=2)))
        settings = Settings(seed=3, sheet=str(sheet), no_journal=no_journal)
        stdout, stderr = io.StringIO(), io.StringIO()
        output = Output(settings, stdout, stderr, environ={})
        renderer = output.batch_renderer
        count = [0]

        def counting(renderer=renderer, count=count):  # type: ignore[no-untyped-def]
            render = renderer()

            def counted(*args):  # type: ignore[no-untyped-def]
                count[0] += 1
                return render(*args)
            return counted

        monkeypatch.setattr(output, "batch_renderer", counting)
        run_batch(settings, io.StringIO(lines), output)
        outputs.append((stdout.getvalue(), stderr.getvalue(), sheet.read_text(encoding="utf-8")))
        rendered.append(count[0])
    assert outputs[0] == outputs[1] == outputs[2]
    assert "Grit 2 → 3" in outputs[0][0] and "Wren: Grit" in outputs[0][0] and outputs[0][0].count("\n") > 300
    assert rendered[1] < rendered[0] - 50  # lines on the sheet were remembered
