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

from crux_cli.core.errors import CruxError
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
        write_private(self.path, ledger_text(encounter, sheets))

    def begin(self, encounter: Any | None, fight_sheets: dict[str, str], values: dict[str, Any]) -> None:
        """Before a fight word: note the ledger and the sheets' values as they are, in `SESSION.pending`.

        A word writes heroes' sheets as it goes and the fight file at its end; killed in
        between, the next start finds this note and puts both back as they were before the
        word (`recover`), so ledger and sheets never disagree. `end` removes the note.
        """
        import json

        note = {"ledger": ledger_text(encounter, fight_sheets) if encounter is not None else None,
                "sheets": values}
        write_private(pending_path(self.path), json.dumps(note))

    def end(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            pending_path(self.path).unlink()

    def clear(self) -> None:
        """The fight is over: nothing to resume."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.alive)


def ledger_text(encounter: Any, sheets: dict[str, str]) -> str:
    from crux_cli.state.encounter import encounter_text

    return encounter_text(encounter, {name: os.path.abspath(os.path.expanduser(p)) for name, p in sheets.items()})


def write_private(path: Path, text: str) -> None:
    """`text` at `path` atomically, under its lock, the file private (0600) from its first byte."""
    from crux_cli.state.store import locked, write_atomically

    with locked(path, str(path)):
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        write_atomically(path, text, str(path))


def pending_path(fight: Path) -> Path:
    return fight.with_suffix(".pending")


def recover(fight: Path) -> bool:
    """Undo a fight word cut short by a kill (see `Autosave.begin`); True when there was one."""
    import json

    from crux_cli.state.journal import put_sheet_values

    note_path = pending_path(fight)
    try:
        note = json.loads(note_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        note = {}  # the note itself was cut short: the word had not started
    if note:
        for path, values in note.get("sheets", {}).items():
            with contextlib.suppress(OSError, CruxError):
                put_sheet_values(path, values)
        if note.get("ledger") is None:
            with contextlib.suppress(FileNotFoundError):
                fight.unlink()
        else:
            write_private(fight, note["ledger"])
    with contextlib.suppress(FileNotFoundError):
        note_path.unlink()
    return bool(note)


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
            pending_path(self.path).unlink()
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
        names = {p.with_suffix(".toml") for p in folder.glob("*.pending")} | set(folder.glob("*.toml"))
        candidates = sorted((p for p in names if p.exists() or pending_path(p).exists()),
                            key=lambda p: max(q.stat().st_mtime for q in (p, pending_path(p)) if q.exists()),
                            reverse=True)
    except OSError:
        return []
    found = []
    for path in candidates:
        if path == own or path.name.startswith("left-"):
            continue
        try:
            left = Left(path, hold(alive_path(path), wait=False))
        except OSError:
            continue  # its session is still running
        recover(path)
        if path.exists():
            found.append(left)
        else:
            left.forget()  # the word cut short was the one that started the fight
    return found
