"""The running fight, saved after every fight word, so a crash or a closed terminal never loses it.

Each REPL session saves its fight to `$XDG_STATE_HOME/crux/fights/SESSION.toml` (the
encounter format of state.encounter, sheets as absolute paths), written like a sheet:
temporary file, fsync, rename, under the file's sidecar lock; private (0600).

While a session runs it holds an exclusive `flock` on `.SESSION.alive`. A fight file
whose `.alive` lock can be taken belongs to a session that is gone (ended, killed,
its terminal closed): that is a fight to offer for resuming. Two REPLs at once never
write each other's file, and never both resume the same fight.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crux_cli.state.journal import private_dir, state_dir


def fights_dir() -> Path:
    return state_dir() / "fights"


@dataclass
class Autosave:
    path: Path
    alive: int  # the descriptor holding this session's `.alive` lock (closed when the process ends)

    @classmethod
    def start(cls, session: str) -> Autosave:
        folder = private_dir(fights_dir())
        path = folder / f"{session}.toml"
        return cls(path, hold(alive_path(path)))

    def save(self, encounter: Any, sheets: dict[str, str]) -> None:
        """Write the fight now (sheets as absolute paths, so it resumes from any folder)."""
        from crux_cli.state.encounter import encounter_text
        from crux_cli.state.store import locked, write_atomically

        absolute = {name: os.path.abspath(os.path.expanduser(path)) for name, path in sheets.items()}
        with locked(self.path, str(self.path)):
            if not self.path.exists():
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
            write_atomically(self.path, encounter_text(encounter, absolute), str(self.path))

    def clear(self) -> None:
        """The fight is over: nothing to resume."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.alive)


def alive_path(fight: Path) -> Path:
    return fight.with_name(f".{fight.stem}.alive")


def hold(path: Path, wait: bool = True) -> int:
    """An exclusive lock on `path` (made 0600), held until the descriptor is closed; OSError if taken."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


@dataclass
class Left:
    """A fight left by a session that is gone, claimed (its `.alive` lock held) by this one."""

    path: Path
    alive: int

    def forget(self) -> None:
        """Resumed or set aside: its file and lock go, and the claim is released."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        with contextlib.suppress(FileNotFoundError):
            alive_path(self.path).unlink()
        with contextlib.suppress(OSError):
            os.close(self.alive)

    def set_aside(self) -> Path:
        """Keep it under a dated name (to `load` by hand), no longer offered at start."""
        import time

        kept = self.path.with_name(f"left-{time.strftime('%Y%m%d-%H%M%S')}-{self.path.name}")
        os.replace(self.path, kept)
        self.forget()
        return kept


def left_fights(own: Path | None = None) -> list[Left]:
    """Fights whose session is gone, newest first, each claimed so no other REPL offers it too."""
    folder = fights_dir()
    try:
        candidates = sorted(folder.glob("*.toml"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    found = []
    for path in candidates:
        if path == own or path.name.startswith("left-"):
            continue
        try:
            found.append(Left(path, hold(alive_path(path), wait=False)))
        except OSError:
            continue  # its session is still running
    return found
