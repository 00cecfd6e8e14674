"""`crux log --stats` over all history keeps the sums of each full block of rows (issue 38): the same report as
counting every row afresh, a later report reads only what is new (its work does not grow with the store, counted
in SQLite's virtual-machine steps, never timed), and a trim forgets the sums of the blocks it changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.bench_state import fill_quickly
from helpers import crux_here

from crux_cli.running.stats import report, tally
from crux_cli.running.stats_blocks import BLOCK, tally_all
from crux_cli.state.db import state_dir
from crux_cli.state.history import kept_rolls
from crux_cli.state.recovery import open_store


def journal(tmp_path: Path, entries: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / f"state{entries}"))
    sheet = tmp_path / f"hero{entries}.toml"
    sheet.write_text('name = "Hero"\n\n[status]\nhp = 12\nhp_max = 12\n')
    state_dir().mkdir(parents=True)
    fill_quickly(state_dir(), entries, [sheet])


def steps_of_report() -> tuple[dict, int]:
    """The report over all history, and the SQLite VM steps it took."""
    store = open_store()
    assert store is not None
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store.db.set_progress_handler(count, 100)
    try:
        return report(tally_all(store)), steps[0]
    finally:
        store.close()


def fresh_report() -> dict:
    store = open_store()
    assert store is not None
    try:
        return report(tally(kept_rolls(store)))
    finally:
        store.close()


def test_the_blocks_sums_give_the_report_of_a_fresh_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal(tmp_path, 3 * BLOCK + 100, monkeypatch)
    lines = "".join(f"{line}\n" for line in ("d6", "2d8", "DEX +1b", "4d6kh3", "d20 + 3", "atk 2d8+3")) * 50
    assert crux_here("--seed", "5", "-", stdin=lines).returncode == 0  # rolls of every kind, faces of many dice
    first, cold = steps_of_report()
    assert first == fresh_report() and first["rolls"] > 3 * BLOCK
    again, warm = steps_of_report()  # the full blocks' sums kept: only the newest block is read
    assert again == first and warm * 3 < cold, (warm, cold)


def test_a_later_report_costs_the_same_whatever_the_store_holds(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    warm = {}
    for entries in (4 * BLOCK, 16 * BLOCK):
        journal(tmp_path, entries, monkeypatch)
        steps_of_report()  # the first reads it all, once
        warm[entries] = steps_of_report()[1]
    assert warm[16 * BLOCK] < warm[4 * BLOCK] * 1.5 + 1_000, warm


def test_a_trim_forgets_the_sums_of_the_blocks_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal(tmp_path, 3 * BLOCK, monkeypatch)
    steps_of_report()
    store = open_store()
    assert store is not None
    try:
        assert store.trim(BLOCK) > 0
    finally:
        store.close()
    assert steps_of_report()[0] == fresh_report()


def run_bodies_parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many runs' rows the outcomes of a report parse, counted as they are (running.stats_blocks)."""
    from crux_cli.running import stats_blocks

    parsed = [0]
    real = stats_blocks.rolls_of

    def counting(rows):  # type: ignore[no-untyped-def]
        for run in real(rows):
            parsed[0] += run[2] is not None
            yield run

    monkeypatch.setattr(stats_blocks, "rolls_of", counting)
    return parsed


def test_the_runs_of_the_outcomes_window_keep_their_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The newest plain rolls' outcomes come from the counts each long run keeps (meta `outcome:ROW`): a later
    report parses one run at most (the one the window's edge cuts), and gives the same report as a fresh count."""
    journal(tmp_path, BLOCK + 40_000, monkeypatch)  # 24,000 rolls in runs of 1,024: the window covers them all
    lines = "".join(f"{line}\n" for line in ("d6", "2d8", "DEX +1b", "4d6kh3", "atk 2d8+3")) * 20
    assert crux_here("--seed", "7", "-", stdin=lines).returncode == 0
    first, _ = steps_of_report()
    assert first == fresh_report() and first["outcomes"]
    store = open_store()
    assert store is not None
    try:
        kept = store.db.execute("SELECT count(*) FROM meta WHERE key >= 'outcome:' AND key < 'outcome;'").fetchone()
    finally:
        store.close()
    assert kept[0] >= 20, kept
    parsed = run_bodies_parsed(monkeypatch)
    again, _ = steps_of_report()
    assert again == first and parsed[0] <= 1, parsed


def test_the_window_cut_inside_a_run_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With more plain rolls than the window, the oldest run in it is counted roll by roll up to the window's
    edge: the report with the runs' counts kept is the fresh count's, and one run is parsed."""
    from crux_cli.running.stats import OUTCOMES_FROM

    journal(tmp_path, (OUTCOMES_FROM + 3_000) * 100 // 60, monkeypatch)  # 60 % of them plain, in runs
    first, _ = steps_of_report()
    assert first == fresh_report() and first["outcomes_of"] == OUTCOMES_FROM
    parsed = run_bodies_parsed(monkeypatch)
    again, _ = steps_of_report()
    assert again == first and parsed[0] == 1, parsed


def test_counts_kept_of_another_row_or_unreadable_are_not_used(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    journal(tmp_path, 20_000, monkeypatch)
    first, _ = steps_of_report()
    store = open_store()
    assert store is not None
    try:
        with store.transaction() as db:
            keys = [key for (key,) in db.execute("SELECT key FROM meta WHERE key >= 'outcome:' AND key < 'outcome;'")]
            assert len(keys) >= 3
            db.execute("UPDATE meta SET value = replace(value, '\"id\":\"', '\"id\":\"x') WHERE key = ?", (keys[0],))
            db.execute("UPDATE meta SET value = 'not json' WHERE key = ?", (keys[1],))
            db.execute("UPDATE meta SET value = '{\"id\": 3}' WHERE key = ?", (keys[2],))
    finally:
        store.close()
    assert steps_of_report()[0] == first == fresh_report()


def test_a_trim_forgets_the_runs_counts_and_undo_changes_nothing_counted(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """After rolls, a trim of the oldest runs and a sheet's undo, the report is still a fresh count's, and no
    counts are kept of a row the trim passed."""
    journal(tmp_path, 3 * BLOCK, monkeypatch)
    steps_of_report()
    sheet = tmp_path / f"hero{3 * BLOCK}.toml"
    assert crux_here("--sheet", str(sheet), "damage 2").returncode == 0
    assert crux_here("--seed", "3", "-", stdin="d20\n4d6kh3\n" * 40).returncode == 0
    steps_of_report()
    store = open_store()
    assert store is not None
    try:
        assert store.trim(BLOCK) > 0
        mark = int(store.db.execute("SELECT value FROM meta WHERE key = 'trimmed'").fetchone()[0])
        stale = store.db.execute("SELECT count(*) FROM meta WHERE key >= 'outcome:' AND key <= ?",
                                 (f"outcome:{mark:012d}",)).fetchone()[0]
    finally:
        store.close()
    assert stale == 0
    assert crux_here("sheet", "undo", str(sheet)).returncode == 0
    report_now, _ = steps_of_report()
    assert report_now == fresh_report()
    assert steps_of_report()[0] == report_now


def test_a_later_report_reads_only_the_newest_part_and_a_block_that_fills_is_summed_from_its_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The newest block, still filling, keeps the sums of its full parts of PART rows: a later report reads fewer
    than PART rows, and once more rows fill the block its sums come from its parts and the rows since."""
    from crux_cli.running import stats_blocks
    from crux_cli.running.stats_blocks import PART

    journal(tmp_path, 2 * BLOCK + 3 * PART + 10, monkeypatch)  # the rows: a few runs, then one row an entry
    steps_of_report()
    spans: list[int] = []
    real = stats_blocks.block_rolls
    monkeypatch.setattr(stats_blocks, "block_rolls", lambda store, start, end: (spans.append(end - start),
                                                                                 real(store, start, end))[1])
    again, _ = steps_of_report()
    assert spans == [PART] and again == fresh_report()
    store = open_store()
    assert store is not None
    try:
        with store.transaction() as db:  # more of the same rows, past the block's end
            top = db.execute("SELECT max(seq) FROM entries").fetchone()[0]
            db.execute("INSERT INTO entries (id, time, until, session, kind, who, statement, fight, count, body) "
                       "SELECT id || 'x', time, until, session, kind, who, statement, fight, count, body FROM entries "
                       "WHERE seq > ? AND seq <= ?", (top - 6 * PART, top))
    finally:
        store.close()
    spans.clear()
    filled, _ = steps_of_report()
    assert filled == fresh_report()
    # the rows added, the part of the filled block read fresh last time, and the new newest part: not the block
    assert sum(spans) <= 6 * PART + 2 * PART, spans
