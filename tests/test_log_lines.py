"""The journal read back for people (render/log.py, `crux log`, `/log`): whole names, and only what was rolled."""

from __future__ import annotations

from pathlib import Path

from helpers import crux_here

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.render.log import log_lines

LONG = "Bramwell Ironfoot of the Deep Halls"  # 35 characters: the column was cut at 10 ("Bramwell I")


def entry(who: str, statement: str, answers: tuple[dict[str, object], ...] = ()) -> JournalEntry:
    return JournalEntry(kind="roll", who=who, statement=statement, time="2026-11-23T17:02:03.123Z",
                        session="s1", answers=answers)


def test_names_are_whole_and_the_column_fits_the_widest_of_a_session() -> None:
    lines = log_lines([entry("Wren", "DEX"), entry("Pip Quickfingers", "STR"), entry("", "d6")])
    rows = lines[1:]
    assert "Pip Quickfingers STR" in rows[1]
    # one column for the session: the statements start under each other
    assert len({row.index(statement) for row, statement in zip(rows, ("DEX", "STR", "d6"), strict=True)}) == 1


def test_a_name_past_the_widest_column_is_whole_and_pushes_only_its_own_line() -> None:
    lines = log_lines([entry("Wren", "DEX"), entry(LONG, "STR")])
    assert f"{LONG} STR" in lines[2]
    assert lines[1].index("DEX") < lines[2].index("STR")  # the column stays at 24; Wren's line is not pushed
    assert lines[1].index("DEX") == lines[1].index("Wren") + 25


def test_a_short_session_keeps_the_ten_column_who() -> None:
    row = log_lines([entry("Ann", "DEX")])[1]
    assert row.endswith("  Ann        DEX")


def test_wide_characters_count_their_columns() -> None:
    rows = log_lines([entry("Zoë", "DEX"), entry("勇者", "STR")])[1:]
    assert rows[0].index("DEX") == rows[0].index("Zoë") + 11
    assert rows[1].index("STR") == rows[1].index("勇者") + 9  # two characters, four columns: 6 spaces to 10


def test_an_ambush_is_journaled_as_no_roll_not_an_outcome(own_state_dir: Path) -> None:
    assert crux_here("init ambush").returncode == 0
    log = crux_here("log").stdout
    assert "init ambush: 3 actions, no roll" in log
    assert "success" not in log


def test_a_rolled_initiative_keeps_its_outcome() -> None:
    rolled = {"kind": "initiative", "dice": [5], "kept": 5, "outcome": "success", "actions": 3}
    row = log_lines([entry("Ann", "init", answers=(rolled,))])[1]
    assert row.endswith("init: success 3")


def test_a_stamp_reads_the_same_without_strptime() -> None:
    """`local_time` reads a stamp as crux writes it without `time.strptime` (its first use, which compiles its
    patterns, cost the first page of `crux log` 9 ms): the same local time as strptime gives, in zones with and
    without summer time; any other shape still goes to strptime."""
    import os
    import random
    import time

    from crux_cli.render.log import local_time, stamp_fields

    def by_strptime(stamp: str) -> str:
        try:
            seconds = time.mktime(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
        except ValueError:
            return stamp
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))

    draw = random.Random(38)
    stamps = [f"{draw.randint(1971, 2100):04d}-{draw.randint(1, 12):02d}-{draw.randint(1, 31):02d}T"
              f"{draw.randint(0, 23):02d}:{draw.randint(0, 59):02d}:{draw.randint(0, 61):02d}."
              f"{draw.randint(0, 999):03d}Z"
              for _ in range(300)]
    stamps += ["2026-03-29T01:30:00.000Z", "2026-10-25T00:59:59Z", "2026-02-30T10:00:00Z", "2026-1-05T10:00:00Z",
               "not a time", "", "2026-11-23T17:02:03", "２０２６-11-23T17:02:03Z", "2026-11-23 17:02:03Z"]
    was = os.environ.get("TZ")
    try:
        for zone in ("UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"):
            os.environ["TZ"] = zone
            time.tzset()
            assert [local_time(s) for s in stamps] == [by_strptime(s) for s in stamps], zone
    finally:
        if was is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = was
        time.tzset()
    assert stamp_fields("2026-11-23T17:02:03.123Z") == (2026, 11, 23, 17, 2, 3, 0, 1, -1)
    assert stamp_fields("2026-11-23 17:02:03") is None
