"""A batch's sheets, held between its statements: their changes journaled at the write (PERFORMANCE.md, "A batch
holds its sheet").

A change a batch holds is an item of its run's row (`held_change`), kept with its whole entry beside it. At each
sync (`write_held`) every held sheet's write is announced first (one intent for all its changes, on disk), the
sheet written once, and the run's rows committed in order (`commit_rows`); a kill at any instant is settled at
the next start as a single write's is (state.recovery `settle_run`). Loaded only by a batch on a sheet.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.render.jsonl import record
from crux_cli.state import store_module
from crux_cli.state.db import ENTRY_FORMAT, clean, now
from crux_cli.state.values import unjournaled

if TYPE_CHECKING:
    from crux_cli.state.db import Store
    from crux_cli.state.journal import Journal


def held_change(journal: Journal, answer: Any, answer_json: str | None, update: Any, change: dict[str, Any]) -> None:
    """A change a batch holds (its sheet written at the next sync): an item of the run's row, in its place
    among the rolls, rather than a row of its own that splits the run's in two (PERFORMANCE.md, "A batch
    holds its sheet"). The whole entry is kept beside it for the sheet's intent (`intend_run`)."""
    if not journal.runs:
        journal.start_run(answer)
    journal.count += 1
    ident, stamp = f"{journal.session}-{journal.count}", now()
    who, said = update.after.name, answer.input
    who = who if who is None or (who.__class__ is str and who.isascii()) else clean(str(who))
    said = said if said is None or (said.__class__ is str and said.isascii()) else clean(str(said))
    entry: dict[str, Any] = {"v": ENTRY_FORMAT, "id": ident, "time": stamp, "session": journal.session,
                             "kind": "change", "who": who, "statement": said}
    item: dict[str, Any] = {"time": stamp, "who": who, "statement": said}
    if answer.drawn is not None:  # kept as what replays it, as a roll on a sheet is (`hero_number`)
        replay = journal.kept(answer, answer_json)
        entry["replay"] = {**replay, "hero": journal.hero_of(update)}
        item["replay"] = {**replay, "hero": journal.hero_number(update)}
    else:
        entry["answers"] = item["answers"] = [record(answer)]
    entry["sheets"] = item["sheets"] = [change]
    if answer.drawn or answer.dice:  # its faces, as every change that rolled keeps them (crux-verify(7))
        entry["dice"] = item["dice"] = [list(answer.drawn or answer.dice)]
    journal.runs.append({"entry": item})  # one key: `crux log --stats` passes over it (running/stats.py)
    journal.run_held.append(entry)
    if not journal.defer_sync:
        journal.flush()


@contextlib.contextmanager
def holding(journal: Journal) -> Iterator[None]:
    """A batch whose answers wait for `sync`: its sheets' locks are kept and their writes made at each sync,
    one write and one intent for all the changes since the last (PERFORMANCE.md, "A batch holds its sheet").
    Left by an exception, the held sheets are let go unwritten, and their changes unjournaled, as the
    answers waiting with them are never shown."""
    sheets = store_module()
    sheets.HOLDING.release = journal.sync
    journal.holding = True
    try:
        yield
    except BaseException:
        journal.runs = [None if item.__class__ is dict else item for item in journal.runs]  # its numbers stay taken
        journal.run_held = []
        journal.pending = [("rolls", without_changes(row[1][0])) if row[0] == "run" else row
                        for row in journal.pending if row[0] != "entry"]
        for run in list(sheets.HELD_RUNS.values()):
            run.release()
        raise
    finally:
        sheets.HOLDING.release = None
        journal.holding = False
    write_held(journal)


def write_held(journal: Journal) -> None:
    """Write each held sheet and commit the rows waiting for it: the sheet's changes are announced first (an
    intent, on disk), so a kill at any instant is settled as one statement's write is (`settle_run`).
    A sheet that cannot be written keeps what it held, its entries are not journaled, and the refusal is
    kept for the batch to say (`sheet_failures`); the locks are let go in every case."""
    sheets = store_module()
    if journal.run_held:  # the run's held changes are announced with the others
        journal.flush()
    runs = list(sheets.HELD_RUNS.values())
    pending, journal.pending = journal.pending, []
    store = journal.connected() if journal.mode != "off" else None
    if store is not None:
        store.bulk = True  # a batch: orjson is there already, and quicker for each row
    intents: dict[str, int | None] = {}  # real path of each sheet written: its intent
    failed: set[str] = set()
    try:
        for run in runs:
            path = os.fspath(run.path)
            try:
                after = run.plan()[1]
                if not after:
                    continue
                intents[path] = intend_run(journal, store, path, after, pending)
                run.write()
            except CruxError as error:
                failed.add(path)
                reason = error.message.removeprefix(f"{run.shown}: ")  # the path is said once, as SheetError's
                journal.sheet_failures.append(SheetError(
                    f"{reason}; the sheet changes of the answers before this are not kept",
                    path=run.shown, hint=error.hint))
        if store is not None and pending and not journal.warned:
            commit_rows(journal, store, pending, intents, failed)
    finally:
        for run in runs:
            run.release()


def intend_run(journal: Journal, store: Store | None, path: str, after: Mapping[str, Any],
               pending: list[tuple[str, Any]]) -> int | None:
    """Announce a held sheet's write: the values it will hold, and the entries that change it (without their
    answers, as a single write's intent: what settling journals is the change, `crux log` shows it)."""
    if store is None or journal.warned:
        return None
    entries = [{**entry, "answers": []} for kind, row in pending
               for entry in ((row,) if kind == "entry" else row[1] if kind == "run" else ())
               if any(change.get("path") == path for change in entry["sheets"])]
    values = {name: list(value) if isinstance(value, tuple) else value for name, value in after.items()}
    try:
        return store.intend(journal.session, "run", {"path": path, "after": values, "entries": entries})
    except (CruxError, sqlite3.Error, ValueError) as error:  # the write is not made (state.journal `unjournaled`)
        raise unjournaled(path, error) from None


def commit_rows(journal: Journal, store: Store, pending: list[tuple[str, Any]], intents: Mapping[str, int | None],
                failed: set[str]) -> None:
    """The rows of the held run, in order, in one transaction; an entry whose sheet was not written is left
    out, and so are those whose intent another crux settled meanwhile (it journaled them). Changes an intent
    on disk announced need not wait for the disk (lost to a power cut, the intent journals them again);
    changes that left their sheet as it was (Grit 2, 3, 2: nothing written, nothing announced) do."""
    finished: dict[int, bool] = {}
    unannounced = any(intents.get(str(entry["sheets"][0]["path"])) is None for kind, row in pending
                      for entry in ((row,) if kind == "entry" else row[1] if kind == "run" else ()))

    def kept(entry: Mapping[str, Any]) -> bool:
        path = str(entry["sheets"][0]["path"])
        seq = intents.get(path)
        if seq is not None and seq not in finished:
            finished[seq] = store.finish_intent(seq)
        return not (path in failed or (seq is not None and not finished[seq]))

    try:
        with store.transaction() if unannounced else store.without_waiting():
            rows: list[tuple[str, Any]] = []
            for kind, row in pending:
                if kind == "entry" and not kept(row):
                    continue
                if kind == "run":  # a run's row with its held changes: those not kept leave their place empty
                    rolls, held = row
                    keep = [kept(entry) for entry in held]
                    if not all(keep):
                        rolls = without_changes(rolls, keep)
                    row = (rolls, [str(e["sheets"][0]["path"]) for e, k in zip(held, keep, strict=True) if k],
                           len(held), str(held[-1].get("who") or ""))
                rows.append((kind, row))
            store.add_rows(rows)
            for path in failed:  # a write announced and not made: nothing to settle
                seq = intents.get(path)
                if seq is not None and seq not in finished:
                    store.finish_intent(seq)
    except (CruxError, sqlite3.Error) as error:
        journal.failed(error)


def without_changes(rolls: tuple[Any, ...], keep: list[bool] | None = None) -> tuple[Any, ...]:
    """A run's row with its held changes (those not in `keep`: all) left out, their places (and numbers) empty."""
    body = rolls[5]
    marks = iter(keep if keep is not None else ())
    items = [None if item.__class__ is dict and not next(marks, False) else item for item in body["items"]]
    return (*rolls[:5], {**body, "items": items})
