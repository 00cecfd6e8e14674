"""The journal: every roll and every change crux makes to state, kept in the state store (state.db).

The store is `$XDG_STATE_HOME/crux/crux.db` (`~/.local/state/crux/` when the variable is unset or
relative), private to the user (folder 0700, file 0600). A change (a sheet written, a fight's
ledger, countdowns) is committed before its answer is shown, with the fight's new state in the
same transaction; plain rolls are committed a chunk at a time, before their answers are shown.
`crux log --json` exports an entry as one JSON line (format 1; documented in crux(1), JOURNAL):

    {"v": 1, "id": "SESSION-N", "time": "2026-11-23T17:02:03.123Z", "session": "SESSION",
     "kind": "roll" | "change" | "undo" | "redo", "who": "Ann", "statement": "damage 5",
     "answers": [ANSWER, ...],                      # as `crux --json` prints them
     "sheets": [{"path": P, "who": "Ann", "before": {"hp": 12}, "after": {"hp": 7}}],
     "fight": {"before": LEDGER | null, "after": LEDGER | null},   # when the ledger changed
     "countdowns": {"before": [...], "after": [...]},             # when they changed
     "undoes": "SESSION-N"}                         # undo and redo only

A plain roll with no hero (most of a batch) is stored as what reproduces it, not what it
printed: its statement, rule set and the faces drawn (`replay`); the running layer rolls it
again with those faces to give its answers back (running.replay). `sheets` holds only the
values that changed (Grit, HP, Wounds, Dying, Hit Dice, conditions): enough to take the change
back, and to see whether someone changed the sheet since (`undo_sheet` refuses then).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.state import store_module

if TYPE_CHECKING:
    from crux_cli.core.ruleset import SheetHero as Hero  # a hero of any rule set that keeps a sheet
    from crux_cli.state.db import Store

FORMAT = 1
NAME = "journal.jsonl"  # the journal before the store: imported on first use (state.migrate)


def state_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_STATE_HOME/crux, or ~/.local/state/crux: the store, the sessions' marks."""
    from crux_cli.state.files import user_folder

    return Path(user_folder("STATE", environ))


def new_session_id(environ: Mapping[str, str] = os.environ) -> str:
    """CRUX_SESSION when a script sets it (its runs share one session), else 8 random hex digits."""
    given = environ.get("CRUX_SESSION", "").strip()
    return clean_text(given[:64]) if given else os.urandom(4).hex()


def now() -> str:
    whole, milliseconds = divmod(int(time.time() * 1000), 1000)
    second, stamp = _stamped[0]
    if whole != second:  # a batch journals thousands of lines a second: format the date once a second
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
        _stamped[0] = (whole, stamp)
    end = _ends.get(milliseconds)
    if end is None:  # each of the thousand endings is formatted once, when first needed, not at start-up
        end = _ends[milliseconds] = f".{milliseconds:03d}Z"
    return stamp + end


_stamped: list[tuple[int, str]] = [(-1, "")]  # the last whole second `now` formatted, and its text
_ends: dict[int, str] = {}  # a time stamp's last part by its milliseconds: ".042Z"


# -- sheet values -----------------------------------------------------------------------------------


def sheet_values(hero: Hero) -> dict[str, Any]:
    """The values the hero's rule set keeps on a sheet (the ones it writes back), as JSON."""
    kept: dict[str, Any] = store_module().file_for(hero.rules).kept(hero)
    return kept


def hero_json(hero: Hero) -> dict[str, Any]:
    """All of a hero, as JSON (its rule set's sheet file says): what a roll on a sheet is replayed with (`hero_of`
    reads it back)."""
    dumped: dict[str, Any] = store_module().file_for(hero.rules).dump(hero)
    return dumped


def hero_of(data: Mapping[str, Any]) -> Hero:
    """The hero `hero_json` wrote (its `path` aside)."""
    hero: Hero = store_module().file_for(data.get("rules")).load(data)
    return hero


def real_path(path: str) -> str:
    """`os.path.realpath`, remembered while the name leads to the same file (state.store `resolve_again`)."""
    from crux_cli.state.store import resolve_again

    try:
        return os.fspath(resolve_again(path))
    except SheetError:
        return os.path.realpath(path)


def record_of(answer: Any) -> dict[str, Any]:
    """The answer's JSON object, as `crux --json` prints it."""
    from crux_cli.render.jsonl import record

    return record(answer)


def sheet_change(path: str, before: Hero, after: Hero) -> dict[str, Any] | None:
    """What changed on the sheet at `path`: the changed values before and after (None when nothing did)."""
    if before is after:  # the usual statement on a sheet: the hero it was given, unchanged
        return None
    old, new = sheet_values(before), sheet_values(after)
    changed = [name for name in old if old[name] != new[name]]
    if not changed:
        return None
    return {"path": real_path(path), "who": after.name,
            "before": {name: old[name] for name in changed}, "after": {name: new[name] for name in changed}}


# -- writing ----------------------------------------------------------------------------------------

MODES = ("on", "changes", "off")  # `journal` in config.toml, CRUX_JOURNAL, --no-journal (off)


def journal_mode(environ: Mapping[str, str] = os.environ, configured: str | None = None) -> str:
    """CRUX_JOURNAL when set to a known mode, else the config's `journal`, else on."""
    given = environ.get("CRUX_JOURNAL", "").strip().lower()
    if given in MODES:
        return given
    if given in ("0", "no", "false", "none"):
        return "off"
    return configured if configured in MODES else "on"


class Journal:
    """Writes the rolls and changes of one session (a REPL, or one `crux` run) to the state store.

    The store is opened at the first write, so a run that journals nothing (odds, `--no-journal`)
    never opens it. A plain roll is held in `runs` and written with the others of its chunk as one
    row (`sync`); anything that changed state is written at once, in its own transaction, after the
    rolls before it. A failure to write is a warning, said once: the roll itself is never refused.
    """

    def __init__(self, folder: Path, session: str, mode: str = "on", keep: int | None = None) -> None:
        from crux_cli.state.db import KEEP_ROLLS

        self.folder = folder
        self.session = clean_text(session)
        self.mode = mode
        self.keep = KEEP_ROLLS if keep is None else keep
        self.store: Store | None = None
        self.count = 0  # the last entry number given in this session (set from the store when it opens)
        self.defer_sync = False  # batch mode: plain rolls wait for `sync` (one row, one commit per chunk)
        # plain rolls not yet written: (statement's number, faces or kept), or (number, faces, hero) on a sheet
        self.runs: list[Any] = []  # and a held change as {"entry": …} (`held_change`), or None where one was left out
        self.run_first = 0  # the number of the first of `runs`
        self.run_rules: str = ""  # the rule set and seed of `runs` (each item that differs says its own)
        self.run_seed: int | None = None
        self.run_start = 0.0  # when the run began (its rolls were answered between then and its write)
        self.statements: dict[str, int] = {}  # the run's statements, each kept once: items give its number
        self.heroes: list[dict[str, Any]] = []  # the run's heroes (rolls on a sheet), each kept once: items give its
        self.hero_at: dict[int, tuple[Any, str, int]] = {}  # number, by the hero's identity (`hero_number`)
        self.hero_made: dict[int, tuple[Any, dict[str, Any]]] = {}  # its JSON, by its identity, over all runs
        self.written = 0  # plain rolls written since the last retention check
        self.sheet_intent: int | None = None  # a sheet write announced, waiting for its answer (one-shot, batch)
        # a batch holding its sheets (`holding_sheets`): the rows that wait for their writes, in order, as
        # ("rolls", add_rolls' arguments) or ("entry", entry); and the writes that failed, to be said
        self.pending: list[tuple[str, Any]] = []
        self.run_held: list[dict[str, Any]] = []  # the changes a batch holds among `runs` (`held_change`), as entries
        # the sheet values a held write announced (`note_write`): its answer's change, not worked out again
        self.held_values: tuple[str, str, Mapping[str, Any], Mapping[str, Any]] | None = None
        self.holding = False  # within `holding_sheets`
        self.sheet_failures: list[CruxError] = []
        self.word: dict[str, Any] | None = None  # the REPL statement being tracked: its sheet writes
        self.warned = False
        self.warnings: list[str] = []

    @classmethod
    def open(cls, environ: Mapping[str, str] = os.environ, mode: str | None = None,
             keep: int | None = None) -> Journal:
        return cls(state_dir(environ), new_session_id(environ), journal_mode(environ, mode), keep)

    @property
    def path(self) -> Path:
        from crux_cli.state.db import store_path

        return store_path(self.folder)

    @property
    def keeps_rolls(self) -> bool:
        return self.mode == "on"

    def connected(self) -> Store | None:
        """The store, opened (and earlier runs' unfinished intents settled) at the first write."""
        if self.store is not None or self.mode == "off" or self.warned:
            return self.store
        from crux_cli.state.db import Store

        try:
            self.store = Store.open(self.folder)
            self.warnings += self.store.warnings
            self.warnings += settle(self.store)
            self.count = max(self.count, self.store.next_number(self.session) - 1)
        except CruxError as error:
            self.failed(error)
        except (OSError, sqlite3.Error) as error:
            self.failed(error)
        return self.store

    def next_id(self) -> str:
        self.count += 1
        return f"{self.session}-{self.count}"

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write `entry` (given its id, time and session here) at once, after the rolls waiting before it."""
        full = {"v": FORMAT, "id": "", "time": now(), "session": self.session, **entry}
        if self.mode == "off" or (self.mode == "changes" and entry.get("kind") == "roll"):
            return full
        store = self.connected()
        if store is None:
            return full
        self.flush()
        if self.pending:
            self.write_held()
        full["id"] = self.next_id()
        try:
            with store.transaction():
                store.add_entry(full)
                self.finish_word(store)
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)
        return full

    def answered(self, answer: Any, answer_json: str | None = None) -> None:
        """One statement answered on the command line: a roll, or a change when it changed the sheet."""
        update = answer.sheet
        if update is None or update.before is update.after:  # the usual statement on a sheet: nothing changed
            self.roll(answer, answer_json)
            return
        known, self.held_values = self.held_values, None
        change: dict[str, Any] | None
        if known is not None and known[0] == update.path and known[1] == answer.input:  # as `sheet_change`
            old, new = known[2], known[3]
            changed = [name for name in old if old[name] != new[name]]
            change = {"path": real_path(update.path), "who": update.after.name,
                      "before": {name: old[name] for name in changed}, "after": {name: new[name] for name in changed}}
        else:
            change = sheet_change(update.path, update.before, update.after)
        if change is None:
            self.roll(answer, answer_json)
            return
        if self.mode == "off":
            return
        store = self.connected()
        if store is None:
            return
        if self.sheet_intent == HELD and self.mode == "on" and not self.warned:
            self.sheet_intent = None
            self.held_change(answer, answer_json, update, change)
            return
        held = bool(self.run_held)
        self.flush()
        if held:  # the held changes of the run before it, and their sheet's write, come first
            self.write_held()
        entry = {"v": FORMAT, "id": self.next_id(), "time": now(), "session": self.session, "kind": "change",
                 "who": update.after.name, "statement": answer.input}
        intent, self.sheet_intent = self.sheet_intent, None
        if intent == HELD:  # the sheet is written at the batch's next sync, and this entry after it
            if answer.drawn is not None:  # kept as what replays it, as a roll on a sheet is (`hero_number`)
                replay = self.kept(answer, answer_json)
                replay["hero"] = self.hero_of(update)
                entry["replay"] = replay
            else:
                entry["answers"] = [record_of(answer)]
            entry["sheets"] = [change]
            self.pending.append(("entry", entry))
            return
        entry["answers"], entry["sheets"] = [record_of(answer)], [change]
        try:
            # With an intent on disk, the entry need not wait for the disk: lost to a power cut, the
            # intent is still there and the next start journals the change (`settle`).
            with store.without_waiting() if intent is not None else store.transaction():
                if intent is None or store.finish_intent(intent):  # settled meanwhile by another crux: it has it
                    store.add_entry(entry)
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)

    def held_change(self, answer: Any, answer_json: str | None, update: Any, change: dict[str, Any]) -> None:
        """A change a batch holds (its sheet written at the next sync): an item of the run's row, in its place
        among the rolls, rather than a row of its own that splits the run's in two (PERFORMANCE.md, "A batch
        holds its sheet"). The whole entry is kept beside it for the sheet's intent (`intend_run`)."""
        if not self.runs:
            self.start_run(answer)
        self.count += 1
        ident, stamp = f"{self.session}-{self.count}", now()
        who, said = update.after.name, answer.input
        who = who if who is None or (who.__class__ is str and who.isascii()) else clean_text(str(who))
        said = said if said is None or (said.__class__ is str and said.isascii()) else clean_text(str(said))
        entry: dict[str, Any] = {"v": FORMAT, "id": ident, "time": stamp, "session": self.session, "kind": "change",
                                 "who": who, "statement": said}
        item: dict[str, Any] = {"time": stamp, "who": who, "statement": said}
        if answer.drawn is not None:  # kept as what replays it, as a roll on a sheet is (`hero_number`)
            replay = self.kept(answer, answer_json)
            entry["replay"] = {**replay, "hero": self.hero_of(update)}
            item["replay"] = {**replay, "hero": self.hero_number(update)}
        else:
            entry["answers"] = item["answers"] = [record_of(answer)]
        entry["sheets"] = item["sheets"] = [change]
        self.runs.append({"entry": item})  # one key: `crux log --stats` passes over it (running/stats.py)
        self.run_held.append(entry)
        if not self.defer_sync:
            self.flush()

    def start_run(self, answer: Any) -> None:
        """The first item of a new run: its rule set and seed are the row's."""
        if self.store is None:
            self.connected()  # the session's numbers go on from the store's (a CRUX_SESSION run)
        self.run_first = self.count + 1
        self.run_rules, self.run_seed = answer.rules, answer.seed
        self.run_start = time.time()
        self.statements = {}
        self.heroes, self.hero_at = [], {}

    def roll(self, answer: Any, answer_json: str | None) -> None:
        """A roll that changed nothing: kept with the others of its chunk, as what replays it when it can be.

        A batch journals every line, so the usual roll (no hero, the chunk's rule set and seed) is kept
        as [milliseconds, statement, faces] with nothing else built; times are written when read.
        """
        if self.mode != "on" or self.warned:
            return
        runs = self.runs
        if not runs:
            self.start_run(answer)
        self.count += 1
        said = answer.input
        number = self.statements.get(said)
        if number is None:  # a batch repeats a few dozen statements: each is kept once a row
            number = self.statements[said] = len(self.statements)
        drawn = answer.drawn
        if drawn is not None and answer.comment is None and answer.index is None and \
                answer.rules == self.run_rules and answer.seed == self.run_seed:  # the usual roll
            if answer.sheet is None:
                runs.append((number, drawn))  # a tuple of ints (the runner's): untracked by the garbage collector
            else:  # a roll on a sheet: its faces and the number of its hero in the row's `heroes` replay it
                runs.append((number, drawn, self.hero_number(answer.sheet)))
        elif drawn is not None and answer.sheet is not None:
            kept = self.kept(answer, answer_json)
            kept["hero"] = self.hero_number(answer.sheet)
            runs.append((number, kept))
        else:
            runs.append((number, self.kept(answer, answer_json)))
        if not self.defer_sync:
            self.flush()

    def usual(self, said: str, faces: tuple[int, ...]) -> bool:
        """`roll`, for a batch's usual line (no comment, no repetition, no sheet, the batch's rule set and seed:
        the caller knows), once its run is begun: kept with the fewest steps, a line's cost (PERFORMANCE.md,
        "The journal keeps a plain roll"). False when the run is not begun (or the journal failed): `roll`."""
        runs = self.runs
        if not runs or self.warned:
            return False
        self.count += 1
        statements = self.statements
        number = statements.get(said)
        if number is None:
            number = statements[said] = len(statements)
        runs.append((number, faces))
        return True

    def usual_on_sheet(self, answer: Any) -> bool:
        """`answered`, for a batch's usual roll on a sheet that changed nothing (the batch's rule set and seed: the
        caller knows), once its run is begun: kept as `roll` keeps it, in fewer steps. False when it is not such a
        roll, or the run is not begun (or the journal failed): `answered`."""
        runs, update, drawn = self.runs, answer.sheet, answer.drawn
        if not runs or self.warned or drawn is None or update.before is not update.after \
                or answer.comment is not None or answer.index is not None:
            return False
        self.count += 1
        statements, said = self.statements, answer.input
        number = statements.get(said)
        if number is None:
            number = statements[said] = len(statements)
        hero = update.before
        known = self.hero_at.get(id(hero))  # `hero_number`, its usual case spelled out: the hero met before
        if known is not None and known[0] is hero and known[1] == update.path:
            runs.append((number, drawn, known[2]))
        else:
            runs.append((number, drawn, self.hero_number(update)))
        return True

    def hero_number(self, update: Any) -> int:
        """The number in the run's `heroes` of the hero a roll on a sheet was given (the same object while the
        sheet is unchanged: kept once a run)."""
        known = self.hero_at.get(id(update.before))
        if known is not None and known[0] is update.before and known[1] == update.path:
            return known[2]
        number = len(self.heroes)
        self.heroes.append(self.hero_of(update))
        self.hero_at[id(update.before)] = (update.before, update.path, number)
        return number

    def hero_of(self, update: Any) -> dict[str, Any]:
        """The JSON of the hero a statement on a sheet was given, with the sheet's name: made once a state of the
        hero (state.store `interned`)."""
        made = self.hero_made.get(id(update.before))
        if made is None or made[0] is not update.before or made[1]["path"] != update.path:
            if len(self.hero_made) >= 256:
                self.hero_made.clear()
            made = (update.before, {"path": update.path, **hero_json(update.before)})
            self.hero_made[id(update.before)] = made
        return made[1]

    @staticmethod
    def kept(answer: Any, answer_json: str | None) -> dict[str, Any]:
        """What gives back an answer that is not the chunk's usual roll: its replay, or its JSON."""
        if answer.drawn is None:
            if answer_json is None:  # the record itself: no text made to be read back at once
                from crux_cli.render.jsonl import record

                return {"answer": record(answer)}
            return {"answer": json.loads(answer_json)}
        kept: dict[str, Any] = {"rules": answer.rules, "faces": answer.drawn}
        for name in ("seed", "comment", "index"):
            if getattr(answer, name) is not None:
                kept[name] = getattr(answer, name)
        return kept

    def flush(self) -> None:
        """Write the plain rolls waiting, as one row."""
        if not self.runs:
            return
        runs, self.runs = self.runs, []
        held, self.run_held = self.run_held, []
        store = self.connected()
        if store is None:
            return
        try:
            body: dict[str, Any] = {"rules": self.run_rules, "seed": self.run_seed,
                                    "statements": list(self.statements), "items": runs}
            if self.heroes:
                body["heroes"] = self.heroes
            rolls = (f"{self.session}-{self.run_first}", self.session, stamp_of(int(self.run_start * 1000)), now(),
                     len(runs), body)
            if held:  # changes waiting for their sheet's write: committed with it
                self.pending.append(("run", (rolls, held)))
                return
            if self.pending:  # after a change waiting for its sheet's write: committed with it, in order
                self.pending.append(("rolls", rolls))
                return
            store.add_rolls(*rolls)
            self.written += len(runs)
            if self.written >= TRIM_EVERY:
                self.written = 0
                store.trim(self.keep)
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)

    def sync(self) -> None:
        """Put the rolls answered since the last sync in the store (before their answers are shown), and the
        sheets a batch holds on disk with their changes."""
        self.flush()
        if self.pending or (self.holding and store_module().HELD_RUNS):
            self.write_held()

    # -- a batch's sheets, held between its statements (state.store `HeldRun`) ---------------------------

    @contextlib.contextmanager
    def holding_sheets(self, hold: bool = True) -> Iterator[None]:
        """A batch whose answers wait for `sync`: its sheets' locks are kept and their writes made at each sync,
        one write and one intent for all the changes since the last (PERFORMANCE.md, "A batch holds its sheet").
        Left by an exception, the held sheets are let go unwritten, and their changes unjournaled, as the
        answers waiting with them are never shown."""
        if not hold:  # the sheet store is not even imported (nor its TOML reader: bench_startup.py)
            yield
            return
        sheets = store_module()
        sheets.HOLDING.release = self.sync
        self.holding = True
        try:
            yield
        except BaseException:
            self.runs = [None if item.__class__ is dict else item for item in self.runs]  # its numbers stay taken
            self.run_held = []
            self.pending = [("rolls", without_changes(row[1][0])) if row[0] == "run" else row
                            for row in self.pending if row[0] != "entry"]
            for run in list(sheets.HELD_RUNS.values()):
                run.release()
            raise
        finally:
            sheets.HOLDING.release = None
            self.holding = False
        self.write_held()

    def write_held(self) -> None:
        """Write each held sheet and commit the rows waiting for it: the sheet's changes are announced first (an
        intent, on disk), so a kill at any instant is settled as one statement's write is (`settle_run`).
        A sheet that cannot be written keeps what it held, its entries are not journaled, and the refusal is
        kept for the batch to say (`sheet_failures`); the locks are let go in every case."""
        sheets = store_module()
        if self.run_held:  # the run's held changes are announced with the others
            self.flush()
        runs = list(sheets.HELD_RUNS.values())
        pending, self.pending = self.pending, []
        store = self.connected() if self.mode != "off" else None
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
                    intents[path] = self.intend_run(store, path, after, pending)
                    run.write()
                except CruxError as error:
                    failed.add(path)
                    self.sheet_failures.append(SheetError(
                        f"{error.message}; the sheet changes of the answers before this are not kept",
                        path=run.shown, hint=error.hint))
            if store is not None and pending and not self.warned:
                self.commit_rows(store, pending, intents, failed)
        finally:
            for run in runs:
                run.release()

    def intend_run(self, store: Store | None, path: str, after: Mapping[str, Any],
                   pending: list[tuple[str, Any]]) -> int | None:
        """Announce a held sheet's write: the values it will hold, and the entries that change it (without their
        answers, as a single write's intent: what settling journals is the change, `crux log` shows it)."""
        if store is None or self.warned:
            return None
        entries = [{**entry, "answers": []} for kind, row in pending
                   for entry in ((row,) if kind == "entry" else row[1] if kind == "run" else ())
                   if touches(entry, path)]
        values = {name: list(value) if isinstance(value, tuple) else value for name, value in after.items()}
        try:
            return store.intend(self.session, "run", {"path": path, "after": values, "entries": entries})
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)
            return None

    def commit_rows(self, store: Store, pending: list[tuple[str, Any]], intents: Mapping[str, int | None],
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
            self.failed(error)

    def take_sheet_failures(self) -> list[CruxError]:
        said, self.sheet_failures = self.sheet_failures, []
        return said

    def close(self) -> None:
        self.flush()
        if self.pending:
            self.write_held()
        if self.store is not None and self.written:
            with contextlib.suppress(CruxError, sqlite3.Error):
                self.store.trim(self.keep)
        if self.store is not None:
            self.store.close()
            self.store = None

    # -- sheet writes announced before they are made --------------------------------------------------

    def watch(self, runner: Any) -> None:
        """Announce `runner`'s sheet writes (`note_write`); the store is opened, and writes cut short by
        earlier kills settled, now, before this process takes any sheet's lock."""
        if self.mode == "off":
            return
        self.connected()
        runner.on_write = self.note_write

    def note_write(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any], statement: str = "",
                   who: str | None = None) -> None:
        """A sheet is about to be written (under its lock): announce it, so a kill in between is settled.

        In a REPL statement (`begin_word`) every write joins the statement's intent; on the command
        line each write is an intent of its own, finished by the answer's journal entry.
        """
        self.held_values = None
        if self.mode == "off":
            return
        store = self.connected()
        if store is None:
            return
        if self.holding:
            sheets = store_module()
            if sheets.held_run(path) is not None:  # written, and announced, at the next sync
                self.sheet_intent = HELD
                self.held_values = (path, statement, before, after)  # its answer's change, without working it out again
                return
        real = real_path(path)
        try:
            if self.word is not None:
                self.word["writes"].append([real, dict(before), dict(after)])
                if self.word.get("seq") is None:
                    self.word["seq"] = store.intend(self.session, "word", self.word)
                else:
                    store.update_intent(self.word["seq"], self.word)
                return
            changed = [name for name in before if before[name] != after.get(name)]
            entry = {"v": FORMAT, "kind": "change", "who": who, "statement": statement, "answers": [],
                     "sheets": [{"path": real, "who": who, "before": {n: before[n] for n in changed},
                                 "after": {n: after[n] for n in changed}}]}
            self.sheet_intent = store.intend(self.session, "sheet", {"entry": entry})
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)

    def begin_word(self, statement: str) -> None:
        """A REPL statement starts: its sheet writes (if any) form one intent, finished with its entry."""
        self.word = {"statement": statement, "writes": [], "seq": None}

    def finish_word(self, store: Store) -> None:
        """The statement's entry is written (inside its transaction): its intent is done."""
        word, self.word = self.word, None
        if word is not None and word.get("seq") is not None:
            store.finish_intent(word["seq"])

    def end_word(self) -> None:
        """A REPL statement that wrote no entry (nothing changed, or it failed first): its intent goes."""
        if self.word is not None and self.word.get("seq") is not None and self.store is not None:
            with contextlib.suppress(CruxError, sqlite3.Error):
                self.store.finish_intent(self.word["seq"])
        self.word = None

    @contextlib.contextmanager
    def together_or_warn(self) -> Iterator[None]:
        """One transaction around several writes (a statement's entry and its fight's new state).

        A store that cannot be written is a warning (said once), never an error of the statement.
        """
        store = self.connected()
        if store is None:
            yield
            return
        block = store.transaction()
        try:
            block.__enter__()
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)
            yield
            return
        try:
            yield
        except BaseException as error:
            with contextlib.suppress(CruxError, sqlite3.Error):
                block.__exit__(type(error), error, error.__traceback__)
            raise
        try:
            block.__exit__(None, None, None)
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)

    def failed(self, error: BaseException) -> None:
        if isinstance(error, OSError):
            reason = str(error.strerror)
        elif isinstance(error, CruxError):
            reason = error.message
        else:
            reason = str(error)
        if not self.warned:
            self.warnings.append(f"the journal is not kept: {self.path}: {reason}" if self.path.name not in reason
                                 else f"the journal is not kept: {reason}")
        self.warned = True

    def take_warnings(self) -> list[str]:
        said, self.warnings = self.warnings, []
        return said


TRIM_EVERY = 10_000  # plain rolls between two checks of the retention cap
HELD = -1  # `sheet_intent` of a write a batch holds (state.store `HeldRun`): announced when it is made


def without_changes(rolls: tuple[Any, ...], keep: list[bool] | None = None) -> tuple[Any, ...]:
    """A run's row with its held changes (those not in `keep`: all) left out, their places (and numbers) empty."""
    body = rolls[5]
    marks = iter(keep if keep is not None else ())
    items = [None if item.__class__ is dict and not next(marks, False) else item for item in body["items"]]
    return (*rolls[:5], {**body, "items": items})


def stamp_of(milliseconds: int) -> str:
    """A journal time stamp ("2026-11-23T17:02:03.123Z") of milliseconds since the epoch."""
    whole, part = divmod(int(milliseconds), 1000)
    second, stamp = _stamped[0]
    if whole != second:  # a batch on a sheet writes a run a change: the date formatted once a second, as `now`
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
        _stamped[0] = (whole, stamp)
    end = _ends.get(part)
    if end is None:
        end = _ends[part] = f".{part:03d}Z"
    return stamp + end


def clean_text(text: str) -> str:
    from crux_cli.state.db import clean

    return clean(text)


# -- settling what a writer killed mid-way left -----------------------------------------------------------


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
        except (CruxError, OSError, sqlite3.Error, KeyError, TypeError, ValueError) as error:
            reason = error.message if isinstance(error, CruxError) else str(error)
            said.append(f"a change cut short could not be settled: {reason}")
    return said


def settle_sheet(store: Store, seq: int, session: str, body: dict[str, Any]) -> list[str]:
    """Settle one command-line sheet write, under the sheet's lock; a sheet whose lock is held (a writer
    at work, perhaps this very process) is left for a later start."""
    from crux_cli.state.store import load_hero, locked, resolve

    entry = body.get("entry")
    change = entry["sheets"][0] if isinstance(entry, dict) else None
    if not isinstance(entry, dict) or not isinstance(change, dict):
        store.finish_intent(seq)
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
    for path, before, after in body.get("writes", ()):
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


# -- reading ----------------------------------------------------------------------------------------


def open_store(folder: Path | None = None) -> Store | None:
    """The store to read (None when there is none yet: nothing was ever journaled)."""
    from crux_cli.state.db import Store, store_path

    folder = folder or state_dir()
    if folder.suffix == ".db":
        folder = folder.parent
    if not store_path(folder).exists() and not (folder / NAME).exists():
        return None
    store = Store.open(folder)
    for warning in settle(store):  # a change a kill cut off from its entry is shown, one never made is not
        store.warnings.append(warning)
    return store


def entries_of(row: tuple[Any, ...], newest: int | None = None, changes: bool = False) -> list[dict[str, Any]]:
    """The journal entries of one row, oldest first (a run of plain rolls gives one per roll); with
    `newest`, only that many of its last ones (a log of the last 20 reads 20, not a chunk's 1,024); with
    `changes`, only the changes a run's row holds among its rolls (undo reads a sheet's, not the rolls)."""
    _, ident, stamp, session, kind, who, statement, _, count, body = row
    try:
        data = json.loads(body)
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    if count == 1 and "items" not in data:
        return [{"v": FORMAT, "id": ident, "time": stamp, "session": session, "kind": kind, "who": who,
                 "statement": statement, **data}]
    prefix, _, first = str(ident).rpartition("-")
    try:
        number = int(first)
    except ValueError:
        number = 1
    out = []
    usual: dict[str, Any] = {"rules": data.get("rules")}
    if data.get("seed") is not None:
        usual["seed"] = data["seed"]
    said = data.get("statements", [])
    heroes = data.get("heroes", [])
    items = data.get("items", ())
    skipped = max(0, len(items) - newest) if newest is not None and isinstance(items, list) else 0
    for offset, item in enumerate(items[skipped:] if skipped else items, start=skipped):
        if item.__class__ is dict:  # a change a batch held (`Journal.held_change`): an entry of its own
            held = item.get("entry")
            if isinstance(held, dict):
                out.append(held_entry(held, f"{prefix}-{number + offset}", session, heroes))
            continue
        if changes:
            continue
        if isinstance(item, list) and len(item) == 3 and isinstance(item[2], int) and 0 <= item[2] < len(heroes):
            which, kept, hero = item  # a roll on a sheet: its faces, and its hero's number in `heroes`
            kept = {"faces": kept, "hero": heroes[hero]}
        elif not (isinstance(item, list) and len(item) == 2):
            continue
        else:
            which, kept = item
        statement = said[which] if isinstance(which, int) and 0 <= which < len(said) else str(which)
        # a run is written as soon as input waits or a chunk is full: its rolls share its time stamps
        entry: dict[str, Any] = {"v": FORMAT, "id": f"{prefix}-{number + offset}", "time": stamp,
                                 "session": session, "kind": "roll", "who": None, "statement": statement}
        if isinstance(kept, list):
            entry["replay"] = {**usual, "faces": kept}
        elif isinstance(kept, dict) and "faces" in kept and "rules" not in kept:  # a roll on a sheet, as usual
            entry["replay"] = {**usual, **kept}
        elif isinstance(kept, dict) and "answer" in kept:
            entry["answers"] = [kept["answer"]]
        elif isinstance(kept, dict) and isinstance(kept.get("hero"), int) and 0 <= kept["hero"] < len(heroes):
            entry["replay"] = {**kept, "hero": heroes[kept["hero"]]}  # a roll on a sheet, with its hero
        else:
            entry["replay"] = kept
        out.append(entry)
    return out


def held_entry(held: dict[str, Any], ident: str, session: str, heroes: list[Any]) -> dict[str, Any]:
    """The entry of a change kept in a run's row, as it reads kept in a row of its own."""
    entry = {"v": FORMAT, "id": ident, "time": held.get("time"), "session": session, "kind": "change",
             "who": held.get("who"), "statement": held.get("statement")}
    for key, value in held.items():
        if key in ("time", "who", "statement"):
            continue
        if key == "replay" and isinstance(value, dict) and isinstance(value.get("hero"), int) \
                and 0 <= value["hero"] < len(heroes):
            value = {**value, "hero": heroes[value["hero"]]}
        entry[key] = value
    return entry


def select_entries(store: Store, *, session: str | None = None, since: str | None = None,
                   sheet: str | None = None, fight: bool = False, last: int | None = None) -> list[dict[str, Any]]:
    """The entries a log asks for, oldest first: through the indexes, reading back only as far as needed."""
    if sheet is not None:
        real = os.path.realpath(sheet)
        if last is not None and not (session or since or fight):  # a run's row may hold many of them
            return newest_changes(store, real, last)[-last:]
        rows = store.sheet_rows(real)
        chosen = [e for row in rows for e in entries_of(row, changes=True)
                  if touches(e, real) and (session is None or e["session"] == session)
                  and (since is None or e["time"] >= since) and (not fight or "fight" in e or e.get("in_fight"))]
        return chosen[-last:] if last else chosen
    clauses, params = [], []
    if session is not None:
        clauses.append("session = ?")
        params.append(session)
    if since is not None:  # from the first row that reaches `since` on (through the time index)
        first = store.db.execute("SELECT seq FROM entries WHERE until >= ? ORDER BY until LIMIT 1",
                                 (since,)).fetchone()
        if first is None:
            return []
        clauses.append("seq >= ?")
        params.append(first[0])
    if fight:
        clauses.append("fight = 1")
    chunks: list[list[dict[str, Any]]] = []  # each row's entries (oldest first), newest row first
    held = 0
    before = None
    while last is None or held < last:
        rows = store.rows_before(before, " AND ".join(clauses), tuple(params),
                                 limit=min(64, last - held) if last else 2000)
        if not rows:
            break
        for row in rows:
            chunk = [e for e in entries_of(row, None if last is None else last - held)
                     if since is None or e["time"] >= since]
            chunks.append(chunk)
            held += len(chunk)
            if last is not None and held >= last:
                break
        before = rows[-1][0]
    found = [entry for chunk in reversed(chunks) for entry in chunk]
    return found[-last:] if last else found


def plain_rolls(store: Store, *, session: str | None = None,
                since: str | None = None) -> Iterator[tuple[str, Any, list[str], list[Any]]]:
    """The runs of rolls kept as their faces, newest first, as (rule set, seed, statements, items): each
    item [statement's number, [sides, count, face…, …]] or [number, {"rules", "faces", …}]. Read from the
    rows without building an entry for each (`crux log --stats` counts a million)."""
    from orjson import loads  # several times quicker than json at a million rolls
    clauses, params = ["kind = 'roll'"], []
    if session is not None:
        clauses.append("session = ?")
        params.append(session)
    if since is not None:
        clauses.append("until >= ?")
        params.append(since)
    sql = f"SELECT count, body FROM entries WHERE {' AND '.join(clauses)} ORDER BY seq DESC"
    for count, body in store.db.execute(sql, params):
        if count == 1 and '"items"' not in body:
            continue  # a roll kept whole (made with a hero): no faces
        try:
            data = loads(body)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            yield str(data.get("rules")), data.get("seed"), list(data.get("statements") or []), data["items"]


def read_entries(where: Path | None = None) -> list[dict[str, Any]]:
    """Every entry of the journal, oldest first (tests and the export of a whole journal)."""
    store = open_store(where)
    if store is None:
        return []
    try:
        return select_entries(store)
    finally:
        store.close()


def touches(entry: Mapping[str, Any], sheet: str) -> bool:
    return any(isinstance(change, dict) and change.get("path") == sheet for change in entry.get("sheets", ()))


# -- undo and redo from the journal -------------------------------------------------------------------


def stacks(entries: Iterable[dict[str, Any]], sheet: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The changes of `sheet` still in effect (oldest first) and those undone that may be redone.

    A new change empties the redo list, as in any editor.
    """
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if not touches(entry, sheet):
            continue
        kind = entry.get("kind")
        target = by_id.get(str(entry.get("undoes")))
        if kind == "undo" and target is not None:
            done = [e for e in done if e is not target]
            undone.append(target)
        elif kind == "redo" and target is not None:
            undone = [e for e in undone if e is not target]
            done.append(target)
        elif kind == "change":
            by_id[entry["id"]] = entry
            done.append(entry)
            undone = []
    return done, undone


def change_of(entry: Mapping[str, Any], sheet: str) -> dict[str, Any]:
    return next(change for change in entry.get("sheets", ()) if change.get("path") == sheet)


def undo_sheet(journal: Journal, path: str, redo: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """Take back (or redo) the last change of one sheet, under its lock; the journal says so.

    Returns the change taken back and the new journal entry. Refused when the sheet no
    longer holds what that change wrote (someone changed it since), and when the change was a
    fight word of a fight still kept (running in a REPL, or left to resume): only that session's
    `undo` takes back the word whole, sheets and ledger together.
    """
    real = os.path.realpath(os.path.expanduser(path))
    store = journal.connected()
    if store is None:
        raise CruxError(f"nothing to {'redo' if redo else 'undo'} for {path}",
                        hint="the journal is off" if journal.mode == "off" else "the journal cannot be read")
    journal.flush()
    entries = newest_changes(store, real, UNDO_REACH)
    done, undone = stacks(entries, real)
    pending = undone if redo else done
    word = "redo" if redo else "undo"
    if not pending:
        raise CruxError(f"nothing to {word} for {path}",
                        hint="the journal holds no change of this sheet" + (" undone since its last change"
                                                                            if redo else ""))
    target = pending[-1]
    refuse_fight_word(store, target, path)
    change = change_of(target, real)
    expected, wanted = (change["before"], change["after"]) if redo else (change["after"], change["before"])
    restore_sheets([(path, expected, wanted)], str(target.get("statement") or ""))
    entry = journal.append({"kind": word, "who": change.get("who"), "statement": target.get("statement"),
                            "undoes": target["id"], "answers": [],
                            "sheets": [{**change, "before": expected, "after": wanted}]})
    return target, entry


UNDO_REACH = 1_000  # the newest entries of a sheet `crux sheet undo` reads: it goes back that many changes


def newest_changes(store: Store, real: str, reach: int) -> list[dict[str, Any]]:
    """At least the newest `reach` entries that changed the sheet at `real` (all there are, when fewer), oldest
    first: rows read newest first, a few at a time, since a batch's run keeps many changes in one row."""
    chunks: list[list[dict[str, Any]]] = []
    held, before, size = 0, None, 4
    while held < reach:
        rows = store.sheet_rows(real, size, before)
        size = min(4 * size, 256)
        if not rows:
            break
        for row in reversed(rows):
            chunk = [e for e in entries_of(row, changes=True) if touches(e, real)]
            chunks.append(chunk)
            held += len(chunk)
            if held >= reach:
                break
        before = rows[0][0]
    return [entry for chunk in reversed(chunks) for entry in chunk]


def refuse_fight_word(store: Store, target: Mapping[str, Any], path: str) -> None:
    """A fight word's change belongs to its fight while the fight is kept: undo it in that session."""
    if "fight" not in target:
        return
    session = str(target.get("session"))
    from crux_cli.state.sessions import is_alive

    running = is_alive(store.path.parent, session)
    kept = any(s == session for s, _, _ in store.fights())
    if running or kept:
        where = "running in REPL session " + session if running else f"left by REPL session {session} to resume"
        raise CruxError(f"`{target.get('statement')}` changed {path} in a fight {where}",
                        hint="take it back there with `undo` (sheets and fight together); "
                             "crux sheet undo leaves it as it is")


def restore_sheets(changes: list[tuple[str, dict[str, Any], dict[str, Any]]], statement: str = "") -> None:
    """Set each sheet's values from `expected` to `wanted`, all or none.

    Every sheet is locked (in one order, so two undos never wait on each other) and
    checked before any is written: a sheet that no longer holds `expected` refuses the lot.
    """
    from crux_cli.state.sheet import parse_sheet, update_sheet_text, with_kept
    from crux_cli.state.store import locked, read_text, resolve, write_atomically

    ordered = sorted(changes, key=lambda change: str(resolve(change[0])))
    with contextlib.ExitStack() as stack:
        plans = []
        for shown, expected, wanted in ordered:
            real = resolve(shown)
            stack.enter_context(locked(real, shown))
            text = read_text(real, shown)
            hero = parse_sheet(text, shown)
            differs = describe_difference(sheet_values(hero), expected)
            if differs:
                since = f" `{statement}`" if statement else ""
                raise SheetError(f"changed since{since}: {differs}", path=shown,
                                 hint="another crux, or an edit, changed it after that; crux leaves it as it is")
            plans.append((real, shown, text, hero, with_kept(hero, hero_values(wanted))))
        for real, shown, text, hero, after in plans:
            new_text = update_sheet_text(text, hero, after)
            parse_sheet(new_text, shown)
            if new_text != text:
                write_atomically(real, new_text, shown)


def hero_values(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: tuple(value) if isinstance(value, list) else value for name, value in values.items()}


def describe_difference(current: Mapping[str, Any], expected: Mapping[str, Any]) -> str:
    """'HP is 9, not 7' for each value that is not what the journal says it should be ('' when all are)."""
    words = []
    for name, value in expected.items():
        if current.get(name) != value:
            label = {"hp": "HP", "hit_dice": "Hit Dice"}.get(name, name.replace("_", " ").capitalize())
            words.append(f"{label} is {shown_value(current.get(name))}, not {shown_value(value)}")
    return "; ".join(words)


def shown_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(value) + "]" if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def iter_lines(entries: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The entries as the journal holds them, one compact JSON line each (for `crux log --json`)."""
    from crux_cli.core.compact_json import compact

    for entry in entries:
        yield compact(entry)


def since_stamp(text: str, clock: float | None = None) -> str:
    """`--since`: '30m', '2h', '3d' ago, or a local 'YYYY-MM-DD[ HH:MM[:SS]]', as a journal time stamp."""
    import re

    clock = time.time() if clock is None else clock
    text = text.strip()
    relative = re.fullmatch(r"(\d+)\s*([smhdw])", text, re.IGNORECASE)
    if relative:
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[relative.group(2).lower()]
        seconds = clock - int(relative.group(1)) * unit
    else:
        seconds = None
        for layout in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
            with contextlib.suppress(ValueError):
                seconds = time.mktime(time.strptime(text, layout))
                break
        if seconds is None:
            raise CruxError(f"cannot read the time {text!r}", text=text, position=0,
                            hint="write 30m, 2h or 3d ago, or a date and time like 2026-11-23 20:00")
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".000Z"
