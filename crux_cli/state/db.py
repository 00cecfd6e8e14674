"""The state store: one SQLite database for everything that outlives a roll.

`$XDG_STATE_HOME/crux/crux.db` (folder 0700, file 0600) holds the journal (rolls, changes, undo
and redo), the running fights of REPL sessions (what resuming offers after a crash) and the
intents that bracket sheet writes. It is the standard library's `sqlite3` in WAL mode: nothing to
install or start, readers never wait for a writer, and each statement's rows commit together or
not at all. Readers go through indexes (time, session, sheet, fight), so `crux log -n 20` costs
the same with ten entries or a million.

Tables:
- `entries`: one row per journal entry, or per run of plain rolls of one batch chunk (`count` > 1:
  a batch of a thousand rolls is one row, its items in `body`). `id` is the entry's "SESSION-N"
  (the first one of a run); `body` holds the rest of the entry as JSON. A batch holding its sheet keeps
  the changes it held among the run's rolls, as items of the run's row (such a row has `who`; see
  `add_rows`); a store made before kept each as a row of its own, and both read the same.
- `sheet_entries`: (real sheet path, entry) for every entry that changed a sheet: the index undo and
  `crux log --sheet` read.
- `fights`: the running fight of each REPL session, as encounter-file text.
- `intents`: a sheet write announced before it is made (see `Store.intend`), settled at the next
  start when its writer died before the journal had it.
- `meta`: how many plain rolls are kept (for retention without a count over the table), and the heroes
  held by name in each rule set (`party:NAME`, the party a later session finds); the shared table's
  tokens, port and holder (`table:…`, crux_cli/table/keeping.py).
- `table_log`: the shared table's log (issue 34), one row per entry in the order its pages show them.

The schema is made by numbered steps (`STEPS`), each run in a transaction of its own: step 1 makes the
store as crux first kept it, and a later change of the schema is a step added at the end, never an edit of
one before it. A store's `PRAGMA user_version` says how many steps it has had, so opening it runs only the
steps it lacks (a new store runs them all); one that has had more than this crux knows was made by a newer
crux, and is left exactly as it is (`NewerStore`: no journal is kept).

A damaged database is set aside once (`crux.db.damaged-TIME`, state.damage) with one warning and a new one
started; damage met only while reading is `StoreDamaged` (every read is `guarded`); one locked by another crux
for longer than `WAIT` seconds gives a plain message. None stops a roll: the roll is answered and the journal
says it was not kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from crux_cli.core.compact_json import compact as dumps
from crux_cli.state.schema import STEPS  # the numbered migrations, a module of their own
from crux_cli.state.values import (
    NewerStore,
    StoreDamaged,
    StoreError,
    clean,
    decoded,
    guarded,
    identity,
    newer,
    now,
    path_key,
    refuse_odd_file,
    sheet_paths,
    shifted,
    stamp,
    stamp_of,
    text_or_none,
    whole,
)
from crux_cli.state.values import reason as failure

# the store's errors, time stamps and text, kept in state.values (db.py was at its size), given here as before
__all__ = ["NewerStore", "StoreDamaged", "StoreError", "clean", "now", "stamp", "stamp_of", "text_or_none"]

NAME = "crux.db"
ENTRY_FORMAT = 1  # the "v" of a journal entry as `crux log --json` prints it
WAIT = 5.0  # seconds a write waits for another crux holding the store before giving up
GIVE_UP_FOR = 30.0  # seconds the steps after a write that gave up waiting fail at once (`Store.give_up`)
GAVE_UP: dict[str, float] = {}  # when a write of this process last gave up waiting for each store (by path)
KEEP_ROLLS = 1_000_000  # plain rolls kept by default (changes are kept as long as undo may need them)


COLUMNS = ("v", "id", "time", "session", "kind", "who", "statement")  # the rest stays in `body`
ROW = "seq, id, time, session, kind, who, statement, fight, count, body"  # a row as the readers take it
SHEET_ROW = ", ".join(f"e.{column}" for column in ROW.split(", "))  # the same, joined through sheet_entries


def state_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_STATE_HOME/crux, or ~/.local/state/crux: the store, the sessions' marks."""
    from crux_cli.state.files import user_folder

    return Path(user_folder("STATE", environ))


def store_path(folder: Path) -> Path:
    return folder / NAME


class Store:
    """One connection to the state store; every write is one transaction (`with store.transaction()`)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, warnings: list[str]) -> None:
        self.path = path
        self.db = connection
        self.warnings = warnings
        self.depth = 0  # nested `transaction` blocks: only the outermost commits
        self.files: tuple[Any, ...] | None = None  # the store's and its -wal's identities, as a batch first met them
        self.numbering = False  # a journal's writes: ids another crux of the same session took are moved on (`taken`)
        self.waits = True  # does a write wait for another crux holding the store (not just after one gave up)
        self.bulk = False  # a batch writing many rows (state.held_journal `write_held`): orjson for each (`dumps`)

    # -- opening --------------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path, *, migrate: bool = True) -> Store:
        """The store in `folder`, made on first use; a damaged one is moved aside and a new one made.

        Raises StoreError when the folder cannot be made or the store stays locked.
        """
        from crux_cli.state.files import private_dir

        warnings: list[str] = []
        try:
            private_dir(folder)
        except OSError as error:
            raise StoreError(f"cannot make the state folder {folder}: {error.strerror}") from None
        path = store_path(folder)
        refuse_odd_file(path)
        store, fresh = cls.connected(path, warnings)
        # an old journal not yet renamed: an import a kill cut short goes on (state.migrate)
        if migrate and (fresh or os.path.isfile(folder / "journal.jsonl")):
            from crux_cli.state.migrate import import_old_files

            try:
                warnings += import_old_files(store, folder, resuming=not fresh)
            except (sqlite3.Error, OSError, StoreError) as error:
                warnings.append(f"the old journal is not all in the store yet ({error}); it goes on at the next start")
        return store

    @classmethod
    def connected(cls, path: Path, warnings: list[str]) -> tuple[Store, bool]:
        """The store at `path`, brought to the last step (and whether it was new), waiting while another crux
        makes it; a damaged one is moved aside once and a new one made (said in `warnings`)."""
        deadline, moved = time.monotonic() + WAIT, 0
        while True:
            connection = None
            found = identity(path)  # the file this attempt meets: only it may be set aside (state.damage)
            try:
                connection = connect(path)
                store = cls(path, connection, warnings)
                return store, store.prepare()
            except sqlite3.DatabaseError as error:
                if connection is not None:
                    connection.close()
                if is_busy(error):
                    # another crux making the store this very moment: switching it to WAL is refused at once,
                    # not waited for (two batches started together lost one's journal)
                    if time.monotonic() < deadline:
                        time.sleep(0.02)
                        continue
                    raise StoreError(busy_message(path)) from None
                if moved >= 3 or not is_damage(error):
                    raise StoreError(f"cannot use the state store {path}: {failure(error, path)}") from None
                moved += 1
                from crux_cli.state.damage import set_aside  # never on a roll's way: the store is damaged

                try:
                    warnings.append(set_aside(path, found, str(error))[1])
                except OSError as failed:
                    raise StoreError(f"the state store {path} is damaged ({error}) and cannot be set aside: "
                                     f"{failed.strerror}") from None

    def moved(self) -> bool:
        """Has the store, or its -wal, been deleted or replaced since this connection's first look (`rm crux.db-wal`
        while a batch runs: its commits would go to a file no one reads again)?"""
        now = (identity(self.path), identity(Path(f"{self.path}-wal")))
        if self.files is None or self.files[1] is None:
            self.files = now
        return now != self.files

    def prepare(self) -> bool:
        """Bring the store to the last of `STEPS` (True when it was new: it had none); a table dropped by hand,
        or `meta` emptied, is made again (state.damage `repair`)."""
        fresh = self.migrate() == 0
        if not fresh and not whole(self.db):
            from crux_cli.state.damage import repair

            self.warnings += repair(self, STEPS[0])
        return fresh

    def migrate(self, upto: int | None = None) -> int:
        """Run the steps the store lacks, up to step `upto` (None: the last), each in a transaction of its own;
        the step it was at. A step another crux ran meanwhile is not run again."""
        version = self.version()
        if version > len(STEPS):
            raise newer(self.path, version, len(STEPS))
        for number in range(version + 1, (len(STEPS) if upto is None else upto) + 1):
            with self.transaction():
                if self.version() >= number:
                    continue
                for statement in STEPS[number - 1].split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number}")
        return version

    def version(self) -> int:
        """How many of `STEPS` the store has had (PRAGMA user_version)."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed at the end of the outermost block, rolled back on any error."""
        if self.depth:
            self.depth += 1
            try:
                yield self.db
            finally:
                self.depth -= 1
            return
        self.depth = 1
        if GAVE_UP or not self.waits:
            self.wait_or_not()
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if is_busy(error):
                self.give_up()
                raise StoreError(busy_message(self.path)) from None
            raise StoreError(f"cannot write the state store {self.path}: {failure(error, self.path)}") from None
        finally:
            self.depth = 0

    def give_up(self) -> None:
        """Another crux held the store for all of WAIT (a process stopped inside a transaction): the steps that
        follow, in this process, fail at once for GIVE_UP_FOR, not after a WAIT each (a `damage` waited three
        times, 15 s)."""
        GAVE_UP[str(self.path)] = time.monotonic()
        self.wait_or_not()

    def wait_or_not(self) -> None:
        """Writes wait for the store, unless one gave up in the last GIVE_UP_FOR seconds (a REPL that outlives a
        stopped holder waits again after that)."""
        waits = time.monotonic() - GAVE_UP.get(str(self.path), -GIVE_UP_FOR) >= GIVE_UP_FOR
        if waits != self.waits:
            self.waits = waits
            with contextlib.suppress(sqlite3.Error):
                self.db.execute(f"PRAGMA busy_timeout = {int(WAIT * 1000) if waits else 0}")

    # -- the journal ------------------------------------------------------------------------------

    def add_entry(self, entry: Mapping[str, Any]) -> int:
        """Write one journal entry (a dict as `crux log --json` prints it); its row number."""
        with self.transaction() as db:
            if self.numbering:
                entry = {**entry, "id": shifted(entry["id"], taken(self, entry["session"], entry["id"]))}
            cursor = db.execute(
                "INSERT INTO entries (id, time, until, session, kind, who, statement, fight, body) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", self.entry_columns(entry))
            seq = int(cursor.lastrowid or 0)
            db.executemany("INSERT OR IGNORE INTO sheet_entries VALUES (?, ?)", [(p, seq) for p in sheet_paths(entry)])
            if entry["kind"] == "roll" and not entry.get("sheets"):  # what `trim` may drop is counted
                db.execute("UPDATE meta SET value = value + 1 WHERE key = 'rolls'")
        return seq

    def add_rows(self, rows: list[tuple[str, Any]]) -> None:
        """A batch's rows, in order, in one transaction: ("rolls", `add_rolls`' arguments), ("entry", an entry), or
        ("run", (`add_rolls`' arguments, the sheets its changes changed, how many, who)): the rolls of a run with
        the changes a batch held among them, in its `items` (state.held_journal `held_change`). Such a row says who
        (its rolls' rows do not) and is found by its sheets (`sheet_entries`); `trim` drops its rolls and keeps its
        changes (kept as long as undo may need them), so its rolls count toward the retention's cap.
        Each kind is written by one `executemany`, each row given its number so that their order stays theirs."""
        if not rows:
            return
        with self.transaction() as db:
            rows = numbered(self, rows) if self.numbering else rows
            seq = int(db.execute("SELECT max(seq) FROM entries").fetchone()[0] or 0)
            rolls, runs, entries, sheets, counted = [], [], [], [], 0
            for kind, row in rows:
                seq += 1
                if kind == "run":  # a run's rolls with the changes a batch held among them: kept as changes are
                    (first_id, session, started, ended, count, body), paths, held, who = row
                    runs.append((seq, first_id, started, ended, session, clean(who), count, dumps(body, large=True)))
                    sheets += [(path_key(path), seq) for path in set(paths)]
                    counted += count - held
                    continue
                if kind == "rolls":
                    first_id, session, started, ended, count, body = row
                    rolls.append((seq, first_id, started, ended, session, count, dumps(body, large=True)))
                    counted += count
                    continue
                entries.append((seq, *self.entry_columns(row)))
                sheets += [(path, seq) for path in sheet_paths(row)]
                counted += row["kind"] == "roll" and not row.get("sheets")
            db.executemany("INSERT INTO entries (seq, id, time, until, session, kind, who, statement, fight, count, "
                           "body) VALUES (?, ?, ?, ?, ?, 'roll', NULL, NULL, 0, ?, ?)", rolls)
            db.executemany("INSERT INTO entries (seq, id, time, until, session, kind, who, statement, fight, count, "
                           "body) VALUES (?, ?, ?, ?, ?, 'roll', ?, NULL, 0, ?, ?)", runs)
            db.executemany("INSERT INTO entries (seq, id, time, until, session, kind, who, statement, fight, body) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries)
            db.executemany("INSERT OR IGNORE INTO sheet_entries VALUES (?, ?)", sheets)
            if counted:
                db.execute("UPDATE meta SET value = value + ? WHERE key = 'rolls'", (counted,))

    def entry_columns(self, entry: Mapping[str, Any]) -> tuple[Any, ...]:
        """An entry's columns but `seq` (id, time, until, session, kind, who, statement, fight, body)."""
        body = {k: v for k, v in entry.items() if k not in COLUMNS}
        return (entry["id"], entry["time"], entry["time"], entry["session"], entry["kind"],
                text_or_none(entry.get("who")), text_or_none(entry.get("statement")),
                1 if entry.get("in_fight") or "fight" in entry else 0, dumps(body, large=self.bulk))

    def add_rolls(self, first_id: str, session: str, started: str, ended: str, count: int,
                  body: dict[str, Any]) -> None:
        """A run of plain rolls of one session as one row (a batch chunk).

        Committed without waiting for the disk (WAL, synchronous NORMAL): a process killed at any
        moment loses nothing committed, and only a power cut could take back the last chunk of
        rolls; changes, and the intents before sheet writes, wait for the disk (FULL).
        """
        if self.depth:  # inside a change's transaction: it commits, and waits for the disk
            self.insert_rolls(first_id, session, started, ended, count, body)
            return
        with self.without_waiting():
            self.insert_rolls(first_id, session, started, ended, count, body)

    @contextlib.contextmanager
    def without_waiting(self) -> Iterator[sqlite3.Connection]:
        """A transaction committed without waiting for the disk (WAL, synchronous NORMAL): a kill loses
        nothing committed; a power cut could take back the last of them. For what an intent, already on
        disk, would settle anyway, and for plain rolls."""
        self.db.execute("PRAGMA synchronous = NORMAL")
        try:
            with self.transaction() as db:
                yield db
        finally:
            self.db.execute("PRAGMA synchronous = FULL")

    def insert_rolls(self, first_id: str, session: str, started: str, ended: str, count: int,
                     body: dict[str, Any]) -> None:
        with self.transaction() as db:
            if self.numbering:
                first_id = shifted(first_id, taken(self, session, first_id))
            db.execute("INSERT INTO entries (id, time, until, session, kind, who, statement, fight, count, body) "
                       "VALUES (?, ?, ?, ?, 'roll', NULL, NULL, 0, ?, ?)",
                       (first_id, started, ended, session, count, dumps(body, large=self.bulk or count >= 64)))
            db.execute("UPDATE meta SET value = value + ? WHERE key = 'rolls'", (count,))

    def trim(self, keep: int) -> int:
        """Drop the oldest rolls while at least `keep` stay (state.retention `trim`); how many rows went."""
        from crux_cli.state.retention import trim

        return trim(self, keep)

    def rows_before(self, before: int | None, *, session: str | None = None, first: int | None = None,
                    fight: bool = False, limit: int = 200) -> list[tuple[Any, ...]]:
        """Up to `limit` rows older than row `before` (None: the newest), newest first: of one `session`, from
        row `first` on, only a fight's (each through its index)."""
        clauses, params = row_filter(session, fight, ("seq >= ?", first), ("seq < ?", before))
        sql = (f"SELECT {ROW} FROM entries"
               + (" WHERE " + " AND ".join(clauses) if clauses else "") + " ORDER BY seq DESC LIMIT ?")
        return self.db.execute(sql, (*params, limit)).fetchall()

    def rows_after(self, after: int, *, session: str | None = None, fight: bool = False,
                   limit: int = 500) -> list[tuple[Any, ...]]:
        """Up to `limit` rows newer than row `after`, oldest first: of one `session`, only a fight's (each through
        its index). A reader of all history pages through it (state.history `stream_entries`)."""
        clauses, params = row_filter(session, fight, ("seq > ?", after))
        return self.db.execute(f"SELECT {ROW} FROM entries WHERE {' AND '.join(clauses)} ORDER BY seq LIMIT ?",
                               (*params, limit)).fetchall()

    def first_row_until(self, since: str) -> int | None:
        """The first row whose entries reach `since` (a time stamp), through the time index."""
        row = self.db.execute("SELECT seq FROM entries WHERE until >= ? ORDER BY until LIMIT 1", (since,)).fetchone()
        return None if row is None else int(row[0])

    def roll_rows(self, session: str | None = None, since: str | None = None,
                  changes: bool = False) -> Iterator[tuple[int, str]]:
        """(count, body) of every row of rolls, newest first: of one `session`, reaching `since` (state.history
        `kept_rolls`); with `changes`, the changes' rows too (a fight's attack, a roll that spent Grit)."""
        clauses, params = ["kind IN ('roll', 'change')" if changes else "kind = 'roll'"], []
        if session is not None:
            clauses.append("session = ?")
            params.append(session)
        if since is not None:
            clauses.append("until >= ?")
            params.append(since)
        yield from self.db.execute(f"SELECT count, body FROM entries WHERE {' AND '.join(clauses)} ORDER BY seq DESC",
                                   params)

    def sheet_rows(self, path: str, limit: int = -1, before: int | None = None) -> list[tuple[Any, ...]]:
        """The entries that changed the sheet at `path` (real path), oldest first, the newest `limit` of
        them (-1: all) older than row `before` (None: the newest): through its index."""
        rows = self.db.execute(
            f"SELECT {SHEET_ROW} FROM sheet_entries s JOIN entries e ON e.seq = s.seq WHERE s.path = ? AND s.seq < ? "
            "ORDER BY s.seq DESC LIMIT ?", (path_key(path), (1 << 62) if before is None else before, limit)).fetchall()
        return rows[::-1]

    def sheet_rows_after(self, path: str, after: int, limit: int = 200) -> list[tuple[Any, ...]]:
        """Up to `limit` entries that changed the sheet at `path` newer than row `after`, oldest first (its index):
        `crux log --sheet` pages through them (state.history `stream_entries`)."""
        return self.db.execute(
            f"SELECT {SHEET_ROW} FROM sheet_entries s JOIN entries e ON e.seq = s.seq WHERE s.path = ? AND s.seq > ? "
            "ORDER BY s.seq LIMIT ?", (path_key(path), after, limit)).fetchall()

    def last_session(self) -> str | None:
        row = self.db.execute("SELECT session FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        return str(row[0]) if row else None

    def next_number(self, session: str) -> int:
        """The number after the highest entry number of `session` (so ids never collide across runs)."""
        row = self.db.execute("SELECT id, count FROM entries WHERE session = ? ORDER BY seq DESC LIMIT 1",
                              (session,)).fetchone()
        if row is None:
            return 1
        try:
            return int(str(row[0]).rsplit("-", 1)[1]) + int(row[1])
        except (IndexError, ValueError):
            return 1

    # -- fights -------------------------------------------------------------------------------------

    def save_fight(self, session: str, ledger: str | None) -> None:
        """The running fight of a REPL session (None: it has none now)."""
        with self.transaction() as db:
            if ledger is None:
                db.execute("DELETE FROM fights WHERE session = ?", (session,))
            else:
                db.execute("INSERT OR REPLACE INTO fights VALUES (?, ?, ?)", (session, ledger, stamp()))

    def fights(self) -> list[tuple[str, str, str]]:
        """(session, ledger, saved) of every fight kept, newest first."""
        return [(str(s), str(ledger), str(saved)) for s, ledger, saved in
                self.db.execute("SELECT session, ledger, saved FROM fights ORDER BY saved DESC")]

    # -- the party: heroes held by name, kept across fights and sessions --------------------------------

    def party(self, rules: str) -> str | None:
        """The heroes held by name in `rules` (their rule set's JSON, as `save_party` kept it), or None."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"party:{rules}",)).fetchone()
        return str(row[0]) if row else None

    def save_party(self, rules: str, text: str) -> None:
        """Keep the heroes held by name in `rules` (a row of `meta`: no step of the schema needed)."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"party:{rules}", text))

    # -- intents --------------------------------------------------------------------------------------

    def intend(self, session: str, kind: str, body: dict[str, Any]) -> int:
        """Announce a change before it is made to a sheet: settled at the next start if its writer dies."""
        with self.transaction() as db:
            return int(db.execute("INSERT INTO intents (session, kind, body) VALUES (?, ?, ?)",
                                  (session, kind, dumps(body, large=self.bulk))).lastrowid or 0)

    def update_intent(self, seq: int, body: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE intents SET body = ? WHERE seq = ?", (dumps(body), seq))

    def finish_intent(self, seq: int) -> bool:
        """Drop an intent (inside the caller's transaction); False when another crux settled it already."""
        with self.transaction() as db:
            return db.execute("DELETE FROM intents WHERE seq = ?", (seq,)).rowcount > 0

    def has_intents(self) -> bool:
        """Is any intent left to settle (state.recovery is imported only then)?"""
        return self.db.execute("SELECT 1 FROM intents LIMIT 1").fetchone() is not None

    def intents(self) -> list[tuple[int, str, str, dict[str, Any]]]:
        out = []
        for seq, session, kind, body in self.db.execute("SELECT seq, session, kind, body FROM intents ORDER BY seq"):
            try:
                parsed = json.loads(body)
            except (ValueError, TypeError, RecursionError):  # not JSON, not text, nested past any reason
                parsed = None
            out.append((int(seq), str(session), str(kind), parsed if isinstance(parsed, dict) else {}))
        return out


def taken(store: Store, session: str, ident: str) -> int:
    """Inside a write's transaction: how far `ident` ("SESSION-N") must move on so that its number is free, when
    other crux sharing its session (CRUX_SESSION) took numbers since this one counted (0: it is free)."""
    number = ident.rpartition("-")[2]
    return max(0, store.next_number(session) - int(number)) if number.isdigit() else 0

def numbered(store: Store, rows: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A batch's rows (`add_rows`), their ids moved on together by `taken` (of the first of them)."""
    kind, row = rows[0]
    first = row["id"] if kind == "entry" else row[0][0] if kind == "run" else row[0]
    session = row["session"] if kind == "entry" else row[0][1] if kind == "run" else row[1]
    step = taken(store, session, first)
    if not step:
        return rows
    return [(kind, {**row, "id": shifted(row["id"], step)} if kind == "entry" else
             ((shifted(row[0][0], step), *row[0][1:]), *row[1:]) if kind == "run" else
             (shifted(row[0], step), *row[1:])) for kind, row in rows]


def row_filter(session: str | None, fight: bool, *bounds: tuple[str, int | None]) -> tuple[list[str], list[Any]]:
    """The WHERE clauses of a page of rows, and their parameters: of one `session`, only a fight's, and each
    bound (a clause and its value) that has a value (`Store.rows_before`, `Store.rows_after`)."""
    clauses: list[str] = [] if session is None else ["session = ?"]
    params: list[Any] = [] if session is None else [session]
    if fight:
        clauses.append("fight = 1")
    for clause, value in bounds:
        if value is not None:
            clauses.append(clause)
            params.append(value)
    return clauses, params


for _read in ("rows_before", "rows_after", "sheet_rows_after", "first_row_until", "roll_rows", "sheet_rows",
              "last_session", "next_number", "fights",
              "party", "has_intents", "intents"):  # every read: damage met there is said plainly (state.values)
    setattr(Store, _read, guarded(getattr(Store, _read)))


def connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL, waiting `WAIT` s for a lock.

    A store made by a newer crux is not touched (not even switched to WAL): `NewerStore`. Text is read
    without trusting its encoding (a byte that is not UTF-8 reads as U+FFFD, never an error)."""
    if not path.exists():  # made private from its first byte; SQLite gives -wal and -shm the same mode
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
    elif os.name == "posix" and os.stat(path, follow_symlinks=False).st_mode & 0o077:  # made 0644 by another tool
        from crux_cli.state.damage import make_private

        make_private(path)
    connection = sqlite3.connect(path, timeout=WAIT, isolation_level=None, check_same_thread=False)
    connection.text_factory = decoded
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > len(STEPS):
            raise newer(path, version, len(STEPS))
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")  # a roll on screen is a roll on disk
        connection.execute("PRAGMA foreign_keys = OFF")
    except BaseException:
        connection.close()
        raise
    return connection


def is_busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def is_damage(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return any(word in text for word in ("not a database", "malformed", "corrupt", "file is encrypted"))


def busy_message(path: Path) -> str:
    return f"the state store {path} is held by another crux for more than {WAIT:g} s"
