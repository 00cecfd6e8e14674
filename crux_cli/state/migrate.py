"""Bringing the state of an older crux into a new store, once, without losing a line.

Before the store, the journal was `journal.jsonl` (one JSON entry a line) and each REPL session
autosaved its fight to `fights/SESSION.toml`. When a store is made, both are imported and the old
files kept beside it under names that say so (`journal.jsonl.imported`, `fights.imported/`). Old
lines are read defensively: a line that is not a JSON object of format 1 with a string id, or
whose fields have unexpected types, is skipped and counted, never a crash.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crux_cli.state.db import Store

BATCH = 5_000  # old lines imported per transaction
TEXT_FIELDS = ("id", "time", "session", "kind")


def import_old_files(store: Store, folder: Path) -> list[str]:
    """Import the old journal and autosaved fights in `folder`; what was done, as notes for the user."""
    said = []
    journal = folder / "journal.jsonl"
    if journal.is_file() and not journal.is_symlink():
        taken, skipped = import_journal(store, journal)
        kept = journal.with_name("journal.jsonl.imported")
        os.replace(journal, kept)
        said.append(f"the journal moved into {store.path.name}: {taken:,} entries"
                    + (f" ({skipped:,} unreadable lines skipped)" if skipped else "") + f"; the old file is {kept}")
    fights = folder / "fights"
    if fights.is_dir() and not fights.is_symlink():
        count = import_fights(store, fights)
        kept_dir = folder / "fights.imported"
        if not kept_dir.exists():
            os.replace(fights, kept_dir)
        if count:
            said.append(f"{count} autosaved fight{'s' if count != 1 else ''} moved into {store.path.name}")
    return said


def old_entries(path: Path) -> Iterator[dict[str, Any] | None]:
    """Each line as an entry, or None when it cannot be one."""
    with path.open("rb") as lines:
        for raw in lines:
            try:
                entry = json.loads(raw)
            except ValueError:
                yield None
                continue
            yield entry if well_formed(entry) else None


def well_formed(entry: Any) -> bool:
    if not isinstance(entry, dict) or entry.get("v") != 1:
        return False
    if not all(isinstance(entry.get(name), str) for name in TEXT_FIELDS):
        return False
    if not isinstance(entry.get("answers", []), list) or not isinstance(entry.get("sheets", []), list):
        return False
    return all(isinstance(c, dict) and isinstance(c.get("path"), str) and isinstance(c.get("before"), dict)
               and isinstance(c.get("after"), dict) for c in entry.get("sheets", []))


def import_journal(store: Store, path: Path) -> tuple[int, int]:
    taken = skipped = 0
    batch: list[dict[str, Any]] = []

    def write() -> None:
        with store.transaction():
            for entry in batch:
                store.add_entry(entry)
        batch.clear()

    for entry in old_entries(path):
        if entry is None:
            skipped += 1
            continue
        entry.setdefault("who", None)
        entry.setdefault("statement", None)
        batch.append(entry)
        taken += 1
        if len(batch) >= BATCH:
            write()
    if batch:
        write()
    return taken, skipped


def import_fights(store: Store, folder: Path) -> int:
    """Autosaved fights (`SESSION.toml`, not the `left-…` files kept for loading by hand)."""
    count = 0
    for path in sorted(folder.glob("*.toml")):
        if path.name.startswith("left-") or not path.is_file() or path.is_symlink():
            continue
        with contextlib.suppress(OSError, UnicodeDecodeError):
            text = path.read_text(encoding="utf-8")
            if len(text) <= 1 << 20:
                store.save_fight(path.stem, text)
                count += 1
    return count
