"""Every reader of all history streams (issue 37): `crux log`, `--since`, `--json`, `--fight`, `--sheet` print as
they read, a page of rows at a time, so their memory does not grow with the journal. Measured with tracemalloc's
peak at 4,000 and 40,000 entries (the same shares of rows as tests/bench/bench_state.py), never timed.
"""

from __future__ import annotations

import contextlib
import os
import tracemalloc
from pathlib import Path

import pytest
from bench.bench_state import fill_quickly

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.render.log import SINGLES_AT_ONCE, iter_log_lines, log_lines
from crux_cli.running.log_view import print_all  # the body of crux log (cli/log.py calls it)
from crux_cli.state.db import state_dir
from crux_cli.state.history import select_entries, stream_entries
from crux_cli.state.recovery import open_store


def journal_of(tmp_path: Path, entries: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state folder holding `entries` entries, made this test's (XDG_STATE_HOME), and its first sheet."""
    home = tmp_path / f"state{entries}"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    sheets = []
    for number in range(3):
        sheet = tmp_path / f"hero{entries}-{number}.toml"
        sheet.write_text(f'name = "Hero{number}"\n\n[status]\nhp = 12\nhp_max = 12\n')
        sheets.append(sheet)
    state_dir().mkdir(parents=True)
    fill_quickly(state_dir(), entries, sheets)
    return sheets[0]


def peak(**options: object) -> int:
    """tracemalloc's peak (bytes) while `crux log` prints every entry the options choose to /dev/null."""
    arguments = {"as_json": False, "since": None, "sheet": None, "fight": False, "session": None, "color": "never",
                 "no_color": True, **options}
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        tracemalloc.start()
        try:
            print_all(**arguments)  # type: ignore[arg-type]
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


@pytest.mark.slow
def test_every_reader_of_all_history_keeps_the_same_memory_at_ten_times_the_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    peaks: dict[str, list[int]] = {}
    for entries in (4_000, 40_000):
        sheet = journal_of(tmp_path, entries, monkeypatch)
        for name, options in (("log", {}), ("json", {"as_json": True}), ("since", {"since": "30d"}),
                              ("fight", {"fight": True}), ("sheet", {"sheet": str(sheet)})):
            peaks.setdefault(name, []).append(peak(**options))
    print("\ntracemalloc peaks (4k, 40k entries):", {k: [f"{v / 1e6:.1f} MB" for v in p] for k, p in peaks.items()})
    for name, (small, large) in peaks.items():
        assert large < small * 1.5 + 1_000_000, (name, small, large)  # not 10×: a page, whatever the store


def test_the_stream_gives_what_the_list_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = journal_of(tmp_path, 5_000, monkeypatch)
    store = open_store()
    assert store is not None
    try:
        for options in ({}, {"fight": True}, {"sheet": str(sheet)}, {"session": "prompt"}, {"since": "1970-01-02"}):
            streamed = [entry.json() for entry in stream_entries(store, **options)]  # type: ignore[arg-type]
            assert streamed and streamed == [entry.json() for entry in select_entries(store, **options)]
            newest = select_entries(store, last=7, **options)  # type: ignore[arg-type]
            assert [entry.json() for entry in newest] == streamed[-7:]
    finally:
        store.close()


def entry(session: str, number: int) -> JournalEntry:
    return JournalEntry(kind="roll", statement="d6", id=f"{session}-{number}", time="2026-11-28T10:00:00.000Z",
                        session=session)


def test_log_lines_stream_with_headers_as_before() -> None:
    entries = [entry("a", 1), entry("b", 1), entry("b", 2), entry("b", 3), entry("c", 1), entry("d", 1),
               entry("e", 1), entry("f", 1), entry("f", 2)]
    heads = [line for line in log_lines(entries) if line.startswith("--")]
    assert heads == ["-- session a", "-- session b", "-- 3 sessions of one entry each (c … e)", "-- session f"]
    assert len(log_lines(entries)) == len(entries) + len(heads)
    many = [entry(f"s{n}", 1) for n in range(SINGLES_AT_ONCE + 5)]  # a long run of one-shots: a header a thousand
    heads = [line for line in iter_log_lines(many) if line.startswith("--")]
    assert heads == [f"-- {SINGLES_AT_ONCE} sessions of one entry each (s0 … s{SINGLES_AT_ONCE - 1})",
                     f"-- 5 sessions of one entry each (s{SINGLES_AT_ONCE} … s{SINGLES_AT_ONCE + 4})"]


def test_an_empty_journal_and_one_that_matches_nothing_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "none"))
    print_all(False, None, None, False, None, "never", True)
    assert capsys.readouterr().out == "the journal holds nothing yet\n"
    journal_of(tmp_path, 1_000, monkeypatch)
    print_all(False, None, None, False, "nobody", "never", True)
    assert capsys.readouterr().out == "nothing in the journal matches\n"
