"""The state store's schema as numbered steps (state.db `STEPS`): a store at any step is brought to the last,
each step in its own transaction, and ends as one made new; one made by a newer crux is left as it is."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from crux_cli.state.db import STEPS, NewerStore, Store, StoreError, connect, store_path

GOLDEN = Path(__file__).parent / "golden" / "store_held_changes_own_rows.sql"


def schema(path: Path) -> list[tuple[str, str, str, str | None]]:
    """The store's tables and indexes as SQLite keeps them (sqlite_master), in a fixed order."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return sorted(rows)


def made_new(folder: Path) -> Path:
    Store.open(folder, migrate=False).close()
    return store_path(folder)


def at_step(folder: Path, step: int) -> Path:
    """A store that has had only the first `step` steps, as a crux that knew no more left it."""
    folder.mkdir(parents=True)
    path = store_path(folder)
    store = Store(path, connect(path), [])
    try:
        assert store.migrate(upto=step) == 0 and store.version() == step
    finally:
        store.close()
    return path


def test_step_one_is_the_schema_a_new_store_has_and_user_version_counts_the_steps(tmp_path: Path) -> None:
    path = made_new(tmp_path / "new")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) >= 1
        assert db.execute("SELECT value FROM meta WHERE key = 'rolls'").fetchone()[0] == "0"
    names = {name for kind, name, _, _ in schema(path) if kind in ("table", "index") and not name.startswith("sqlite_")}
    assert {"entries", "sheet_entries", "fights", "intents", "meta", "entries_until", "entries_session",
            "entries_id", "entries_fight", "entries_rolls"} <= names


@pytest.mark.parametrize("step", range(len(STEPS)))
def test_a_store_at_any_step_is_brought_to_the_last_and_equals_one_made_new(tmp_path: Path, step: int) -> None:
    old = at_step(tmp_path / "old", step)
    with Store.open(old.parent, migrate=False) as store:
        assert store.version() == len(STEPS)
    assert schema(old) == schema(made_new(tmp_path / "new"))


def test_each_step_runs_in_a_transaction_of_its_own(tmp_path: Path) -> None:
    """A step that fails leaves the store at the step before it, whole: the next open runs it again."""
    path = at_step(tmp_path / "old", 0)
    store = Store(path, connect(path), [])
    broken = (*STEPS, "CREATE TABLE later (x); CREATE TABLE later (x)")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("crux_cli.state.db.STEPS", broken)
            with pytest.raises(StoreError, match="later"):
                store.migrate()
        assert store.version() == len(STEPS)
        assert not store.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'later'").fetchall()
    finally:
        store.close()


def test_the_golden_store_of_the_first_layout_is_migrated_to_the_schema_of_a_new_one(tmp_path: Path) -> None:
    folder = tmp_path / "golden"
    folder.mkdir()
    with sqlite3.connect(store_path(folder)) as made:
        made.executescript(GOLDEN.read_text().replace("{SHEET}", str(tmp_path / "ann.toml")))
    made.close()
    rows = sqlite3.connect(store_path(folder)).execute("SELECT count(*) FROM entries").fetchone()[0]
    with Store.open(folder, migrate=False) as store:
        assert store.version() == len(STEPS)
        assert store.db.execute("SELECT count(*) FROM entries").fetchone()[0] == rows > 0
    assert schema(store_path(folder)) == schema(made_new(tmp_path / "new"))


def test_a_store_of_a_newer_crux_is_left_as_it_is_and_no_journal_kept(tmp_path: Path) -> None:
    """Issue 37: switching between two installed versions must not split the journal at every switch."""
    path = made_new(tmp_path / "state")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO intents (session, kind, body) VALUES ('s', 'sheet', '{}')")
        db.execute(f"PRAGMA user_version = {len(STEPS) + 1}")
    db.close()
    before = path.read_bytes()
    with pytest.raises(NewerStore, match=r"made by a newer crux.*keeps no journal"):
        Store.open(path.parent, migrate=False)
    assert path.read_bytes() == before
    assert not [name for name in os.listdir(path.parent) if "damaged" in name]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM intents").fetchone()[0] == 1
    db.close()
