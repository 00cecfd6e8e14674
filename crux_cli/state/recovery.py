"""Settling what a writer killed mid-way left: the intents announced before a sheet write (state.db `intents`).

A writer announces a sheet write before it makes it (state.journal `note_write`, state.held_journal
`intend_run`) and drops the announcement with the journal entry that records it. An intent still there at
the next start was cut short by a kill: `settle` decides, from the sheet itself, whether the write was made,
and journals it or takes it back. Imported only when the store holds an intent (state.journal `connected`)
and by the readers, who open the store through `open_store`.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.state.db import Store, now, state_dir, store_path
from crux_cli.state.history import select_entries
from crux_cli.state.sheet_undo import describe_difference, restore_sheets, sheet_values


def settle(store: Store) -> list[str]:
    """Settle the intents whose writers are gone; what the user should know, as warnings.

    A sheet write of the command line (`sheet`): under the sheet's lock, a sheet that holds the new
    values was written, and the change is journaled; one that holds the old ones was not, and the
    intent is dropped. A REPL statement (`word`), when its session is gone: it was cut short, its
    fight's new state was never kept, so each sheet it wrote that still holds what it wrote is put
    back, and the journal never shows it.
    """
    said: list[str] = []
    for seq, session, kind, body in store.intents():
        try:
            if kind == "sheet":
                said += settle_sheet(store, seq, session, body)
            elif kind == "word":
                said += settle_word(store, seq, session, body)
            elif kind == "run":
                said += settle_run(store, seq, session, body)
            else:
                store.finish_intent(seq)
        except Exception as error:  # any: one intent that cannot be settled never stops the others, nor the roll
            reason = error.message if isinstance(error, CruxError) else f"{type(error).__name__}: {error}"
            said.append(f"a change cut short could not be settled: {reason}")
    return said


def settle_sheet(store: Store, seq: int, session: str, body: dict[str, Any]) -> list[str]:
    """Settle one command-line sheet write, under the sheet's lock; a sheet whose lock is held (a writer
    at work, perhaps this very process) is left for a later start."""
    from crux_cli.state.store import load_hero, locked, resolve

    entry = body.get("entry")
    sheets = entry.get("sheets") if isinstance(entry, dict) else None
    change = sheets[0] if isinstance(sheets, list) and sheets else None
    if not isinstance(entry, dict) or not isinstance(change, dict) or not isinstance(change.get("path"), str) \
            or not isinstance(change.get("after"), dict):  # not what crux writes: nothing to settle from it
        store.finish_intent(seq)
        return []
    if writer_alive(body.get("pid"), body.get("at")):  # between its sheet write and its entry: its own to finish
        return []
    path = str(change["path"])
    real = resolve(path)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(locked(real, path, wait=False))
        except (SheetError, OSError):  # no lock file to be had, or a writer holds it
            return []
        try:
            current = sheet_values(load_hero(path))
        except CruxError:
            current = {}
        applied = not describe_difference(current, change["after"])
        with store.transaction():
            if store.finish_intent(seq) and applied:
                number = store.next_number(session)
                store.add_entry({**entry, "id": f"{session}-{number}", "time": now(), "session": session})
    return []


def writer_alive(pid: object, at: object) -> bool:
    """Is the one-shot that announced a write still running (so its entry is on its way: settling it here
    would race it, and once journaled a write twice)? Another process that holds the pid, asked after
    `ALIVE_FOR` seconds, no longer counts; where a pid cannot be asked (Windows), the writer is taken as gone."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid == os.getpid() or os.name != "posix":
        return False
    if not isinstance(at, int | float) or time.time() - at > ALIVE_FOR:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


ALIVE_FOR = 600.0  # seconds after which an intent's writer, if its pid lives, is taken to be another process


def settle_run(store: Store, seq: int, session: str, body: dict[str, Any]) -> list[str]:
    """Settle the write of a batch's held sheet, under its lock: a sheet that holds the values announced was
    written, and the run's changes are journaled; one that does not was not, and the intent is dropped."""
    from crux_cli.state.locking import acquire, release
    from crux_cli.state.store import load_hero, open_lock, resolve

    path, after, entries = body.get("path"), body.get("after"), body.get("entries")
    if not isinstance(path, str) or not isinstance(after, dict) or not isinstance(entries, list):
        store.finish_intent(seq)
        return []
    try:
        descriptor = open_lock(resolve(path))
    except OSError:
        return []
    try:
        try:
            acquire(descriptor, wait=False)
        except OSError:
            return []
        try:
            current = sheet_values(load_hero(path))
        except CruxError:
            current = {}
        applied = not describe_difference(current, after)
        with store.transaction():
            if store.finish_intent(seq) and applied:
                number = store.next_number(session)
                for offset, entry in enumerate(entry for entry in entries if isinstance(entry, dict)):
                    store.add_entry({**entry, "id": f"{session}-{number + offset}", "session": session})
    finally:
        release(descriptor)
    return []


def settle_word(store: Store, seq: int, session: str, body: dict[str, Any]) -> list[str]:
    """A REPL statement cut short, once its session is gone: its sheet writes are taken back."""
    from crux_cli.state.sessions import is_alive

    if is_alive(store.path.parent, session):
        return []
    first: dict[str, dict[str, Any]] = {}
    last: dict[str, dict[str, Any]] = {}
    writes = body.get("writes", ())
    if not isinstance(writes, list) or not all(isinstance(w, list) and len(w) == 3 and isinstance(w[0], str)
                                               and isinstance(w[1], dict) and isinstance(w[2], dict) for w in writes):
        store.finish_intent(seq)  # not what crux writes: nothing to take back from it
        return []
    for path, before, after in writes:
        first.setdefault(path, before)
        last[path] = after
    said = []
    statement = str(body.get("statement") or "")
    for path in sorted(first):
        changed = [n for n in first[path] if first[path][n] != last[path].get(n)]
        wanted = {n: first[path][n] for n in changed}
        expected = {n: last[path].get(n) for n in changed}
        if not changed:
            continue
        try:
            restore_sheets([(path, expected, wanted)], statement)
            said.append(f"`{statement}` was cut short: {path} is back as it was before it")
        except CruxError as error:
            said.append(f"`{statement}` was cut short; {path} is left as it is: {error.message}")
    store.finish_intent(seq)
    return said


# -- the store opened for a reader ------------------------------------------------------------------

NAME = "journal.jsonl"  # the journal before the store: imported on first use (state.migrate)


def open_store(folder: Path | None = None) -> Store | None:
    """The store to read (None when there is none yet: nothing was ever journaled)."""
    folder = folder or state_dir()
    if folder.suffix == ".db":
        folder = folder.parent
    if not store_path(folder).exists() and not (folder / NAME).exists():
        return None
    store = Store.open(folder)
    for warning in settle(store):  # a change a kill cut off from its entry is shown, one never made is not
        store.warnings.append(warning)
    return store


def read_entries(where: Path | None = None) -> list[dict[str, Any]]:
    """Every entry of the journal, oldest first, as its JSON (its replays not rolled again): for tests, and the
    export of a whole journal."""
    store = open_store(where)
    if store is None:
        return []
    try:
        return [entry.json() for entry in select_entries(store)]
    finally:
        store.close()
