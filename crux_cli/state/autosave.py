"""The running fight, kept in the state store after every fight word, so a crash or a closed terminal
never loses it.

Each REPL session keeps its fight in the store's `fights` table (encounter-file text, sheets as
absolute paths), written in the same transaction as the journal entry of the word that changed it.
While a session runs it holds its liveness lock (state.sessions). A fight whose session's lock can be
taken belongs to a session that is gone: that is a fight to offer for resuming, claimed by taking
the lock, so two REPLs never both resume it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError
from crux_cli.state.sessions import Alive, alive_path, hold

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightRules, FightValue
    from crux_cli.state.journal import Journal


class Autosave:
    def __init__(self, journal: Journal, alive: Alive) -> None:
        self.journal = journal
        self.alive = alive

    @classmethod
    def start(cls, journal: Journal) -> Autosave:
        """Claim this session (its liveness lock) for the rest of the process."""
        return cls(journal, Alive(journal.folder, journal.session))

    @property
    def path(self) -> Path:
        return self.journal.path

    def save(self, fight: FightValue, rules: FightRules) -> None:
        """Keep the fight now, as its rule set's fights write it (sheets as absolute paths: it resumes from any
        folder)."""
        from crux_cli.state.encounter import fight_text

        self.put(fight_text(fight, rules))

    def clear(self) -> None:
        """The fight is over: nothing to resume."""
        self.put(None)

    def put(self, ledger: str | None) -> None:
        store = self.journal.connected()
        if store is None:
            raise CruxError(self.journal.warnings[-1] if self.journal.warnings else "the state store cannot be used")
        try:
            store.save_fight(self.journal.session, ledger)
        except sqlite3.Error as error:
            raise CruxError(str(error)) from None

    def party(self, rules: str) -> str | None:
        """The heroes held by name in `rules`, as the session last kept them (any session: the store's)."""
        store = self.journal.connected()
        if store is None:
            return None
        try:
            return store.party(rules)
        except sqlite3.Error:
            return None

    def keep_party(self, rules: str, text: str) -> None:
        """Keep the heroes held by name in `rules` (their rule set's JSON), for any later session."""
        store = self.journal.connected()
        if store is None:
            raise CruxError(self.journal.warnings[-1] if self.journal.warnings else "the state store cannot be used")
        try:
            store.save_party(rules, text)
        except sqlite3.Error as error:
            raise CruxError(str(error)) from None

    def close(self) -> None:
        self.alive.end()


def write_private(path: Path, text: str) -> None:
    """`text` at `path` atomically, under its lock, the file private (0600) from its first byte.

    The lock and the writer are state.store's, imported from their own modules: the store's sheets are not
    needed to write out a left fight before the first prompt (2 M instructions)."""
    from crux_cli.state.files import write_atomically
    from crux_cli.state.sheet_locks import locked

    with locked(path, str(path)):
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
        write_atomically(path, text, str(path))


class Left:
    """A fight left by a session that is gone, claimed (its liveness lock held) by this one.

    `path` is the fight written out as an encounter file (private, in the state folder) for `load`; `ledger` is
    its text, as the store keeps it (the offer says where the fight stands from it, before the rules load).
    """

    def __init__(self, journal: Journal, session: str, path: Path, alive: int, ledger: str = "") -> None:
        self.journal = journal
        self.session = session
        self.path = path
        self.alive = alive
        self.ledger = ledger

    def forget(self) -> None:
        """Resumed or set aside: it leaves the store, its file and its claim go."""
        store = self.journal.connected()
        if store is not None:
            with contextlib.suppress(CruxError, sqlite3.Error):
                store.save_fight(self.session, None)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        with contextlib.suppress(OSError):
            alive_path(self.journal.folder, self.session).unlink()
        with contextlib.suppress(OSError):
            os.close(self.alive)

    def set_aside(self) -> Path:
        """Keep it as an encounter file under a dated name (to `load` by hand), no longer offered at start."""
        kept = self.path.parent / f"left-{time.strftime('%Y%m%d-%H%M%S')}-{self.path.name}"
        os.replace(self.path, kept)
        self.forget()
        return kept

    def release(self) -> None:
        """Not offered now: the claim goes, the fight stays for a later start."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        with contextlib.suppress(OSError):
            os.close(self.alive)


def fights_dir(journal: Journal) -> Path:
    return journal.folder / "fights"


def left_fights(journal: Journal, most: int | None = None) -> list[Left]:
    """Fights whose session is gone, newest first, each claimed so no other REPL offers it too; with `most`,
    the newest `most` of them only (the REPL's start offers one: the others are neither claimed nor written
    out, which cost it an fsync'd file each before its first prompt)."""
    from crux_cli.state.files import private_dir

    store = journal.connected()  # opening settles what sessions cut short left unfinished
    if store is None:
        return []
    try:
        kept = store.fights()
    except sqlite3.Error:
        return []
    clear_stale_sessions(journal, {session for session, _, _ in kept})
    found = []
    for session, ledger, _ in kept:
        if session == journal.session:
            continue
        try:
            claim = hold(alive_path(journal.folder, session), wait=False)
        except OSError:
            continue  # its session is still running
        try:
            path = private_dir(fights_dir(journal)) / f"{session}.toml"
            write_private(path, ledger)
        except (OSError, CruxError):
            os.close(claim)
            continue
        found.append(Left(journal, session, path, claim, ledger))
        if most is not None and len(found) >= most:
            break
    return found


def clear_stale_sessions(journal: Journal, keeping: set[str]) -> None:
    """Remove the liveness files of sessions that are gone and left no fight (killed without a goodbye)."""
    folder = journal.folder / "sessions"
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.endswith(".alive")]
    except OSError:
        return
    for name in names:
        session = name[:-len(".alive")]
        if session == journal.session or session in keeping:
            continue
        path = folder / name
        try:
            claim = hold(path, wait=False)
        except OSError:
            continue  # a session still running
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(claim)
