"""Which REPL sessions are running: each holds an exclusive lock on `sessions/SESSION.alive` in the
state folder while it runs (state.locking, so on every platform). A lock that can be taken belongs to a
session that is gone, ended or killed: its fight may be resumed and its unfinished statement settled.
A session that ends normally removes its file, so they do not pile up.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from crux_cli.state.files import private_dir
from crux_cli.state.locking import acquire, release


def alive_path(folder: Path, session: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in session)[:80] or "_"
    return folder / "sessions" / f"{safe}.alive"


def hold(path: Path, wait: bool = True) -> int:
    """An exclusive lock on `path` (made 0600), held until the descriptor is closed; OSError if taken."""
    private_dir(path.parent)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        acquire(descriptor, wait)
    except OSError:
        release(descriptor)
        raise
    return descriptor


def is_alive(folder: Path, session: str) -> bool:
    """Is the REPL session `session` running now (its lock held by another process)?"""
    path = alive_path(folder, session)
    if not path.exists():
        return False
    try:
        descriptor = hold(path, wait=False)
    except OSError:
        return True
    release(descriptor)
    return False


class Alive:
    """This session's claim: held while it runs; `end` lets it go and removes the file."""

    def __init__(self, folder: Path, session: str) -> None:
        self.path = alive_path(folder, session)
        self.descriptor: int | None = hold(self.path)

    def end(self) -> None:
        if self.descriptor is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()  # while still held: nobody else takes a lock on a file about to go
        release(self.descriptor)
        self.descriptor = None
