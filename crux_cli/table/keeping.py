"""What the table keeps in the state store: its links' tokens, who holds it, and the shared log.

The tokens are rows of `meta` (`table:player`, `table:gm`): made once, the same after a restart, so a
kill -9 and `crux serve` again give the same links. The shared log is the `table_log` table (a step of
the store's schema): one row per entry, its `seq` the order everyone sees. A table is held by one GM at
a time: a lock on a file beside the store, which the process ending, however it ends, lets go.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import socket
import time
from pathlib import Path

from crux_cli.core.errors import CruxError
from crux_cli.state import locking
from crux_cli.state.db import Store
from crux_cli.table.frames import HISTORY, Entry

ROLES = ("player", "gm")
LOCK_NAME = "crux.db.table-lock"


class TableBusy(CruxError):
    """Another GM's crux holds the table of this store."""


class Keeping:
    """The table's rows in the store; used from one thread (the table's worker) at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.store = Store.open(folder)
        # The shared log's copy of a roll waits for no disk flush of its own: WAL with synchronous NORMAL keeps
        # it through a kill -9 (the OS has it), and the roll itself is in the journal, flushed as ever (FULL).
        # A flush a roll less: about 10 ms less from a player's Enter to every page (PERFORMANCE.md).
        self.store.db.execute("PRAGMA synchronous = NORMAL")
        self.lock: int | None = None

    def hold(self) -> None:
        """Hold the table, or raise TableBusy: two GMs never serve one store's table at once."""
        path = self.folder / LOCK_NAME
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            locking.acquire(descriptor, wait=False)
        except OSError:
            os.close(descriptor)
            holder = self.meta("table:holder") or "another crux"
            raise TableBusy(f"this table is already served by {holder}",
                            hint="one GM holds a table at a time: stop the other `crux serve` first") from None
        self.lock = descriptor
        self.set_meta("table:holder", f"crux (pid {os.getpid()} on {socket.gethostname()})")

    def release(self) -> None:
        if self.lock is not None:
            locking.release(self.lock)
            self.lock = None

    def tokens(self) -> dict[str, str]:
        """The role → token of this table, made on first use (secrets.token_urlsafe) and kept."""
        found = {}
        for role in ROLES:
            token = self.meta(f"table:{role}")
            if token is None:
                token = secrets.token_urlsafe(24)
                self.set_meta(f"table:{role}", token)
            found[role] = token
        return found

    def meta(self, key: str) -> str | None:
        row = self.store.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.store.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def append(self, entry: Entry) -> Entry:
        """Keep `entry` in the shared log; it comes back with its `seq`."""
        body = {**entry.as_json(), "by": entry.by}
        with self.store.transaction() as db:
            cursor = db.execute("INSERT INTO table_log (time, body) VALUES (?, ?)", (entry.at, "{}"))
            seq = int(cursor.lastrowid or 0)
            kept = entry.replace(seq=seq)
            db.execute("UPDATE table_log SET body = ? WHERE seq = ?",
                       (json.dumps({**body, "seq": seq}, ensure_ascii=False), seq))
        return kept

    def since(self, seq: int | None, limit: int = HISTORY) -> list[Entry]:
        """The entries after `seq` (None: the newest `limit`), oldest first; read through the primary key."""
        rows = self.store.db.execute("SELECT body FROM table_log WHERE seq > ? ORDER BY seq DESC LIMIT ?",
                                     (-1 if seq is None else seq, limit)).fetchall()
        return [Entry.from_json(json.loads(row[0])) for row in reversed(rows)]

    def last(self) -> int:
        row = self.store.db.execute("SELECT MAX(seq) FROM table_log").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        self.release()
        self.store.close()


def role_of(token: str, tokens: dict[str, str]) -> str | None:
    """The role a token gives, compared in constant time with each; None for any other text."""
    found = None
    for role, known in tokens.items():
        if hmac.compare_digest(token.encode("utf-8", "replace"), known.encode()):
            found = role
    return found


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
