"""What a session's dice are keyed by, kept in the store's `meta` table (no step of the schema needed).

A row `dice:SESSION` holds the session's keys as JSON, a list of epochs, one per generator the session rolled
with (a run of `crux`, a REPL evening, a `/seed N` within one):

    [{"from": 1, "commit": "SHA-256 of the seed, hex", "seed": "the seed, hex", "ended": false,
      "salts": [{"at": 7, "salt": "hex", "who": "Ann"}]}]

`from` is the number of the first entry rolled with it (the N of "SESSION-N"); a salt takes effect from the
entry numbered `at`. The seed stays in the store, unshown, until the epoch has ended (crux-verify(7)).
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.state.db import Store

if TYPE_CHECKING:
    from crux_cli.state.journal import Journal


def key_of(session: str) -> str:
    return f"dice:{session}"


def epochs(store: Store, session: str) -> list[dict[str, Any]]:
    """The session's epochs, oldest first (none for a session made before crux kept them)."""
    row = store.db.execute("SELECT value FROM meta WHERE key = ?", (key_of(session),)).fetchone()
    if row is None:
        return []
    try:
        kept = json.loads(row[0])
    except ValueError:
        return []
    return [epoch for epoch in kept if isinstance(epoch, dict)] if isinstance(kept, list) else []


def save_epochs(store: Store, session: str, kept: list[dict[str, Any]]) -> None:
    """Write the session's epochs (in the caller's transaction, or one of its own)."""
    with store.transaction() as db:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key_of(session), json.dumps(kept)))


def begin_epoch(store: Store, session: str, first: int, seed: bytes, commit: str) -> None:
    """A new generator from entry `first` on: the epoch before it (if any) has ended."""
    with store.transaction():
        kept = epochs(store, session)
        for epoch in kept:
            epoch["ended"] = True
        kept.append({"from": first, "commit": commit, "seed": seed.hex(), "ended": False, "salts": []})
        save_epochs(store, session, kept)


def add_salt(store: Store, session: str, at: int, salt: bytes, who: str) -> None:
    with store.transaction():
        kept = epochs(store, session)
        if kept:
            kept[-1].setdefault("salts", []).append({"at": at, "salt": salt.hex(), "who": who})
            save_epochs(store, session, kept)


def end_epochs(store: Store, session: str) -> None:
    """The session's run is over: its seeds may be shown."""
    with store.transaction():
        kept = epochs(store, session)
        if kept and not all(epoch.get("ended") for epoch in kept):
            for epoch in kept:
                epoch["ended"] = True
            save_epochs(store, session, kept)


def keyed(journal: Journal, stream: Any) -> None:
    """A new generator, before its first roll: its commitment (and secret seed) kept from the journal's next entry."""
    store = journal.connected()
    if store is None:
        return
    journal.flush()  # the rolls before it are the generator's before it
    try:
        begin_epoch(store, journal.session, journal.count + 1, stream.seed, stream.commitment)
        journal.dice = stream
    except (CruxError, sqlite3.Error) as error:
        journal.failed(error)


def salted(journal: Journal, salt: bytes, who: str) -> None:
    """A player's salt, mixed into the dice from the journal's next entry on."""
    store = journal.connected()
    if store is None or journal.dice is None:
        return
    journal.flush()
    try:
        add_salt(store, journal.session, journal.count + 1, salt, who)
    except (CruxError, sqlite3.Error) as error:
        journal.failed(error)
