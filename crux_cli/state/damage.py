"""A state store that cannot be used as it is: damaged, short of a table, readable by others.

Imported only when something is wrong (state.db), never on a roll's way.

- A damaged store is set aside once (`set_aside`): under an exclusive lock beside it, and only if the file at
  its path is still the one found damaged (same device and inode), under a name no other file has (reserved
  with O_EXCL, `crux.db.damaged-TIME`, then `-2`, `-3`…), its -wal and -shm with it. Several crux meeting it at
  once set it aside once between them; none moves a new store another has just made, none replaces a copy.
- A store that lacks a table or the row `meta` counts rolls in (dropped, emptied by hand) gets them back
  (`repair`): its first step is written to be run again.
- A store others may read (0644, made by another tool) is made 0600 through a descriptor (`make_private`).
A store made by a newer crux, a full disk and damage met while reading are said by state.values.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from crux_cli.state.locking import acquire, release
from crux_cli.state.values import identity

if TYPE_CHECKING:
    from crux_cli.state.db import Store

TABLES = ("entries", "sheet_entries", "fights", "intents", "meta")
LOCK_WAIT = 5.0  # seconds one crux waits for another setting the store aside


def make_private(path: Path) -> None:
    """An existing store readable by others (made 0644 by an older tool) is made 0600, through a descriptor
    of the file itself (never a link's target), only when it is the user's own."""
    try:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                descriptor = os.open(f"{path}{suffix}", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                try:
                    if os.fstat(descriptor).st_uid == os.geteuid():
                        os.fchmod(descriptor, 0o600)
                finally:
                    os.close(descriptor)
    except OSError:
        return  # said by the connection that follows, if it matters


@contextlib.contextmanager
def aside_lock(path: Path) -> Iterator[None]:
    """The exclusive lock of setting the store at `path` aside (`.crux.db.lock` beside it), waited for a while."""
    descriptor = os.open(path.with_name(f".{path.name}.lock"),
                         os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                acquire(descriptor, wait=False)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        yield
    finally:
        release(descriptor)


def set_aside(path: Path, found: tuple[int, int] | None, why: str) -> tuple[Path | None, str]:
    """Set the damaged store at `path` aside if it is still the file `found` damaged; where it is now kept (None
    when another crux set it aside first, or none was there), and what happened, as a warning true to it."""
    with aside_lock(path):
        if found is None or identity(path) != found:
            return None, (f"the state store {path} was found damaged ({why}); another crux set it aside at the same "
                          "moment, and this one goes on with the new store")
        kept = reserved(path)
        for suffix in ("-wal", "-shm", ""):  # the main file last: until it goes, no crux makes a new -wal
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{path}{suffix}", f"{kept}{suffix}")  # onto the name reserved: no copy is replaced
    return kept, f"the state store {path} was damaged ({why}); it is kept as {kept.name} and a new one started"


def set_aside_now(path: Path) -> str:
    """`crux log --set-aside`: the store at `path` kept under another name, as a damaged one is; what was done."""
    found = identity(path)
    if found is None:
        return f"there is no state store at {path}: nothing to set aside"
    kept, _ = set_aside(path, found, "set aside when asked")
    if kept is None:
        return f"another crux set the state store {path} aside at the same moment"
    return f"the state store {path} is kept as {kept.name}; crux starts a new one at its next roll"


def reserved(path: Path) -> Path:
    """A name for the damaged store that no file has, made (empty) with O_EXCL so no other crux takes it."""
    base = f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    for number in range(1, 10_000):
        kept = path.with_name(base if number == 1 else f"{base}-{number}")
        try:
            os.close(os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
            return kept
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name to keep the damaged store under", str(path))


def missing(store: Store) -> list[str]:
    """The tables (and `meta`'s count of rolls) the store lacks."""
    present = {name for (name,) in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    lacks = [name for name in TABLES if name not in present]
    if "meta" in present and store.db.execute("SELECT 1 FROM meta WHERE key = 'rolls' "
                                              "AND CAST(value AS INTEGER) || '' = value").fetchone() is None:
        lacks.append("meta's count of rolls")
    return lacks


def repair(store: Store, first_step: str) -> list[str]:
    """Make again what the store lacks (its `first_step`, which runs again harmlessly) and count its plain rolls
    afresh for retention; what was done, as warnings."""
    lacks = missing(store)
    if not lacks:
        return []
    with store.transaction() as db:
        for statement in first_step.split(";"):
            if statement.strip():
                db.execute(statement)
        counted = db.execute("SELECT coalesce(sum(count), 0) FROM entries WHERE kind = 'roll' AND who IS NULL "
                             "AND typeof(count) = 'integer' AND count > 0").fetchone()[0]
        db.execute("INSERT OR REPLACE INTO meta VALUES ('rolls', ?)", (str(int(counted)),))
    return [f"the state store {store.path} lacked {', '.join(lacks)}: made again (nothing else was changed)"]
