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
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crux_cli.core.compact_json import compact as dumps

if TYPE_CHECKING:
    from crux_cli.state.db import Store

BATCH = 5_000  # old lines imported per transaction
MARK = "import:journal.jsonl"  # the row of `meta` an import in progress keeps: where in the old file it got to
TEXT_FIELDS = ("id", "time", "session", "kind")


def import_old_files(store: Store, folder: Path, resuming: bool = False) -> list[str]:
    """Import the old journal and autosaved fights in `folder`; what was done, as notes for the user.

    The import is marked in `meta` (`MARK`: where in the old file it got to, committed with each batch of
    entries), so one cut short (a kill, Ctrl-C, a full disk) goes on from there at the next start
    (`resuming`: a store that was not new, beside a `journal.jsonl` not yet renamed) until the file is
    renamed; a store an older crux left half imported (no mark) goes on from the start, skipping the
    entries it already holds."""
    said = []
    journal = folder / "journal.jsonl"
    marked = store.db.execute("SELECT value FROM meta WHERE key = ?", (MARK,)).fetchone()
    if journal.is_file() and not journal.is_symlink():
        if marked is None:
            with store.transaction() as db:
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (MARK, dumps(
                    {"offset": 0, "taken": 0, "skipped": 0, "known": resuming})))
        taken, skipped = import_journal(store, journal)
        kept = journal.with_name("journal.jsonl.imported")
        os.replace(journal, kept)
        said.append(f"the journal moved into {store.path.name}: {taken:,} entries"
                    + (f" ({skipped:,} unreadable lines skipped)" if skipped else "") + f"; the old file is {kept}")
    elif resuming and marked is None:
        return said
    fights = folder / "fights"
    if fights.is_dir() and not fights.is_symlink():
        count = import_fights(store, fights)
        kept_dir = folder / "fights.imported"
        if not kept_dir.exists():
            os.replace(fights, kept_dir)
        if count:
            said.append(f"{count} autosaved fight{'s' if count != 1 else ''} moved into {store.path.name}")
    with store.transaction() as db:
        db.execute("DELETE FROM meta WHERE key = ?", (MARK,))
    return said


def old_entries(path: Path, start: int = 0) -> Iterator[tuple[dict[str, Any] | None, int]]:
    """Each line from byte `start` on as an entry (None when it cannot be one), and the offset after it."""
    with path.open("rb") as lines:
        lines.seek(start)
        offset = start
        for raw in lines:
            offset += len(raw)
            try:
                entry = json.loads(raw)
            except (ValueError, RecursionError):
                yield None, offset
                continue
            yield (entry if well_formed(entry) else None), offset


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
    """The old journal's entries into the store, a batch a transaction, each with the mark of where it got to;
    announced on stderr first, with its progress on a terminal. How many entries were taken, and skipped."""
    mark = json.loads(store.db.execute("SELECT value FROM meta WHERE key = ?", (MARK,)).fetchone()[0])
    start, taken, skipped, known = int(mark["offset"]), int(mark["taken"]), int(mark["skipped"]), bool(mark["known"])
    size = path.stat().st_size
    progress = Progress(path, size, start)
    batch: list[dict[str, Any]] = []
    offset = start

    def write(offset: int) -> None:
        with store.transaction() as db:
            for entry in batch:
                if not (known and already(store, entry)):
                    store.add_entry(entry)
            db.execute("UPDATE meta SET value = ? WHERE key = ?", (dumps(
                {"offset": offset, "taken": taken, "skipped": skipped, "known": known}), MARK))
        batch.clear()
        progress.show(offset)

    try:
        for entry, reached in old_entries(path, start):
            offset = reached
            if entry is None:
                skipped += 1
            else:
                entry.setdefault("who", None)
                entry.setdefault("statement", None)
                batch.append(entry)
                taken += 1
            if len(batch) >= BATCH:
                write(offset)
        write(offset)
    except KeyboardInterrupt:
        progress.stopped()
        raise
    progress.done()
    return taken, skipped


def already(store: Store, entry: dict[str, Any]) -> bool:
    """Does the store hold this old entry (imported by a crux that kept no mark), by its id and session?"""
    return store.db.execute("SELECT 1 FROM entries WHERE id = ? AND session = ? LIMIT 1",
                            (entry["id"], entry["session"])).fetchone() is not None


class Progress:
    """The import said on stderr: announced before it starts, how far it got on a terminal, what is left when
    Ctrl-C stops it (it goes on at the next start)."""

    def __init__(self, path: Path, size: int, start: int) -> None:
        self.path, self.size, self.at = path, max(size, 1), start
        self.terminal = sys.stderr.isatty()
        again = " (going on from where it stopped)" if start else ""
        self.say(f"crux: bringing the old journal {path} ({size / 1e6:.1f} MB) into the store, once{again}; "
                 "Ctrl-C stops it and the next start goes on\n")

    def show(self, offset: int) -> None:
        self.at = offset
        if self.terminal:
            self.say(f"\rcrux: the old journal: {100 * offset // self.size}% ")

    def done(self) -> None:
        if self.terminal:
            self.say("\rcrux: the old journal: 100%\n")

    def stopped(self) -> None:
        left = self.size - self.at
        self.say(f"\ncrux: the import of {self.path} stopped at {100 * self.at // self.size}%: {left / 1e6:.1f} MB "
                 "of it are left, and go into the store at the next start\n")

    @staticmethod
    def say(text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(text)
            sys.stderr.flush()


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
