"""Retention keeps the newest, at a constant cost (issue 37).

Only what `trim` may drop counts toward `journal-keep`: plain rolls, rolls made with a sheet (stored with a
`who`), and the rolls of a batch's run among the changes it held (dropped from the run's row, its changes kept
with their ids). The trim walks the rolls' index from where it last stopped: the work of a write past the cap
does not grow with the store (counted in SQLite's virtual-machine steps, never timed).
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import crux_here

from crux_cli.state.db import Store
from crux_cli.state.store import load_hero


def exported() -> list[dict]:
    result = crux_here("log", "--json")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_retention_after_sheet_batches_keeps_the_newest_plain_rolls(tmp_path: Path) -> None:
    sheet = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Ann", "--hp", "12", stdin="").returncode == 0
    config = tmp_path / "config.toml"
    config.write_text("journal-keep = 50\n")
    env = {"CRUX_CONFIG": str(config)}
    batch = "damage 3\n" + "d4\n" * 80 + "heal 1\n"  # a batch holding its sheet: one run, changes among its rolls
    assert crux_here("--sheet", str(sheet), "-", stdin=batch, env=env).returncode == 0
    for _ in range(3):
        assert crux_here("-", stdin="d6\n" * 20, env=env).returncode == 0
    entries = exported()
    said = [e["statement"] for e in entries]
    assert said.count("d6") == 60  # the newest plain rolls all stay (they were all dropped before)
    assert "d4" not in said  # the run's rolls, the oldest, went
    assert [e["statement"] for e in entries if e["kind"] == "change"] == ["damage 3", "heal 1"]
    for _ in range(2):  # the changes kept without their run's rolls still undo
        assert crux_here("sheet", "undo", str(sheet)).returncode == 0
    assert load_hero(sheet).hp == 12


def write_cost(store: Store, number: int, keep: int) -> int:
    """SQLite VM steps of one more REPL roll with a sheet (a `who`) and the trim after it."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store.db.set_progress_handler(count, 1)
    try:
        store.add_entry(sheet_roll(number))
        store.trim(keep)
    finally:
        store.db.set_progress_handler(None, 1)
    return steps[0]


def sheet_roll(number: int) -> dict:
    return {"v": 1, "id": f"s-{number}", "time": "2026-11-28T10:00:00.000Z", "session": "s", "kind": "roll",
            "who": "Ann", "statement": "DEX", "answers": [{"kind": "test", "outcome": "success", "total": 5}]}


def test_rolls_made_with_a_sheet_past_the_cap_cost_the_same_whatever_the_store_holds(tmp_path: Path) -> None:
    keep = 100
    costs = {}
    with Store.open(tmp_path) as store:
        number = 0
        for size in (1_000, 8_000):
            while number < size:  # written in bulk past the cap, then trimmed once (a long REPL evening)
                with store.transaction():
                    for _ in range(500):
                        number += 1
                        store.add_entry(sheet_roll(number))
                store.trim(keep)
            costs[size] = max(write_cost(store, number + extra, keep) for extra in range(1, 4))
            number += 3
        rows = store.db.execute("SELECT count(*) FROM entries").fetchone()[0]
        newest = store.db.execute("SELECT id FROM entries ORDER BY seq DESC LIMIT 1").fetchone()[0]
    assert keep <= rows <= keep + 1 and newest == f"s-{number}"  # the newest kept, the cap held
    print(f"\nVM steps of a sheet roll and its trim past the cap: {costs}")
    assert costs[8_000] <= costs[1_000] * 1.2 + 50, costs  # the same work per roll at 8× the store


def test_a_trim_never_looks_at_a_row_twice(tmp_path: Path) -> None:
    """Rows a trim keeps (a run's changes, a roll that changed a sheet) are passed once, not at every trim."""
    with Store.open(tmp_path) as store:
        with store.transaction():
            for number in range(2_000):  # rolls that changed a sheet: kept, never counted
                store.add_entry({**sheet_roll(number), "sheets": [{"path": "/a.toml", "who": "Ann"}]})
        with store.transaction():
            for number in range(2_000, 2_300):
                store.add_entry(sheet_roll(number))
        store.trim(100)
        costs = [write_cost(store, 3_000 + n, 100) for n in range(3)]
        assert store.db.execute("SELECT count(*) FROM entries").fetchone()[0] == 2_000 + 100
    assert max(costs) < 2_000, costs  # not a step per kept row
