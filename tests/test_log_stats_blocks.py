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
