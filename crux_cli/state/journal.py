"""The journal's writer: every roll and every change crux makes to state, kept in the state store (state.db).

The store is `$XDG_STATE_HOME/crux/crux.db` (`~/.local/state/crux/` when the variable is unset or
relative), private to the user (folder 0700, file 0600). A change (a sheet written, a fight's
ledger, countdowns) is committed before its answer is shown, with the fight's new state in the
same transaction; plain rolls are committed a chunk at a time, before their answers are shown.
An entry is a `core.journal_entry.JournalEntry` (its JSON, one line of `crux log --json`, is described
there and in crux(1), JOURNAL); the writer keeps what it writes in the store's own form.

A plain roll with no hero (most of a batch) is stored as what reproduces it, not what it
printed: its statement, rule set and the faces drawn (`replay`); the running layer rolls it
again with those faces to give its answers back (running.replay). `sheets` holds only the
values that changed (Grit, HP, Wounds, Dying, Hit Dice, conditions): enough to take the change
back, and to see whether someone changed the sheet since (`undo_sheet` refuses then).

The journal in parts, each importing only those below it: this writer (`Journal`); `held_journal` (a batch's
held sheets, journaled at their write); `recovery` (settling the intents a kill cut short); `sheet_undo`
(the values kept on a sheet, `crux sheet undo`); `history` (reading entries back); `db` (the store: all its
SQL). Only this module and `db` are on every one-shot path; the others are imported where first needed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Self

from crux_cli.core.errors import CruxError
from crux_cli.state import dice_keys, store_module
from crux_cli.state.db import ENTRY_FORMAT, KEEP_ROLLS, Store, clean, now, stamp_of, state_dir, store_path
from crux_cli.state.values import unjournaled

if TYPE_CHECKING:
    from crux_cli.core.journal_entry import JournalEntry


_PARTS: dict[str, ModuleType] = {}  # the journal's parts a roll on a sheet needs (`sheet_undo`, `held_journal`)


def sheet_undo() -> ModuleType:
    """state.sheet_undo (the values kept on a sheet), imported at first use and kept: a batch on a sheet asks for
    it at every change, where an `import` statement in the function cost more than the call (PERFORMANCE.md)."""
    if "sheet_undo" not in _PARTS:
        from crux_cli.state import sheet_undo as part

        _PARTS["sheet_undo"] = part
    return _PARTS["sheet_undo"]


def held_journal() -> ModuleType:
    """state.held_journal (a batch's held sheets), imported at first use and kept, as `sheet_undo`."""
    if "held_journal" not in _PARTS:
        from crux_cli.state import held_journal as part

        _PARTS["held_journal"] = part
    return _PARTS["held_journal"]


def new_session_id(environ: Mapping[str, str] = os.environ) -> str:
    """CRUX_SESSION when a script sets it (its runs share one session), else 8 random hex digits."""
    given = environ.get("CRUX_SESSION", "").strip()
    return clean(given[:64]) if given else os.urandom(4).hex()


def record_of(answer: Any) -> dict[str, Any]:
    """The answer's JSON object, as `crux --json` prints it."""
    from crux_cli.render.jsonl import record

    return record(answer)


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


class JournalStore:
    """The store a journal writes to: opened at its first write (earlier kills' intents settled then, by
    state.recovery), and a failure to use it said once, as a warning: the roll itself is never refused."""

    def __init__(self, folder: Path, session: str, mode: str = "on", keep: int | None = None) -> None:
        self.folder = folder
        self.session = clean(session)
        self.mode = mode
        self.keep = KEEP_ROLLS if keep is None else keep
        self.store: Store | None = None
        self.count = 0  # the last entry number given in this session (set from the store when it opens)
        self.warned = False
        self.warnings: list[str] = []

    @classmethod
    def open(cls, environ: Mapping[str, str] = os.environ, mode: str | None = None,
             keep: int | None = None) -> Self:
        return cls(state_dir(environ), new_session_id(environ), journal_mode(environ, mode), keep)

    @property
    def path(self) -> Path:
        return store_path(self.folder)

    @property
    def keeps_rolls(self) -> bool:
        return self.mode == "on"

    def connected(self) -> Store | None:
        """The store, opened (and earlier runs' unfinished intents settled) at the first write."""
        if self.store is not None or self.mode == "off" or self.warned:
            return self.store
        try:
            self.store = Store.open(self.folder)
            self.store.numbering = True  # runs sharing a session (CRUX_SESSION) never write one id twice
            self.warnings += self.store.warnings
            if self.store.has_intents():  # settled by state.recovery, imported only when there is one
                from crux_cli.state.recovery import settle

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


class Journal(JournalStore):
    """Writes the rolls and changes of one session (a REPL, or one `crux` run) to the state store.

    The store is opened at the first write, so a run that journals nothing (odds, `--no-journal`)
    never opens it. A plain roll is held in `runs` and written with the others of its chunk as one
    row (`sync`); anything that changed state is written at once, in its own transaction, after the
    rolls before it.
    """

    def __init__(self, folder: Path, session: str, mode: str = "on", keep: int | None = None) -> None:
        super().__init__(folder, session, mode, keep)
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
        self.usual_update, self.usual_hero = None, 0  # the last usual roll's on a sheet, its hero's number (this run)
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

    def append(self, entry: JournalEntry) -> JournalEntry:
        """Write `entry` (given its id, time and session here) at once, after the rolls waiting before it."""
        full = entry.replace(id="", time=now(), session=self.session)
        if self.mode == "off" or (self.mode == "changes" and entry.kind == "roll"):
            return full
        store = self.connected()
        if store is None:
            return full
        self.flush()
        if self.pending:
            self.write_held()
        full = full.replace(id=self.next_id())
        try:
            with store.transaction():
                store.add_entry(full.json())
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
        change = self.change_of(answer, update)
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
            held_journal().held_change(self, answer, answer_json, update, change)
            return
        held = bool(self.run_held)
        self.flush()
        if held:  # the held changes of the run before it, and their sheet's write, come first
            self.write_held()
        self.write_change(store, answer, answer_json, update, change)

    def write_change(self, store: Store, answer: Any, answer_json: str | None, update: Any,
                     change: dict[str, Any]) -> None:
        """The entry of a change on the command line: written now, finishing its write's intent, or (a batch's
        held sheet) when the sheet is written, at the next sync."""
        entry = {"v": ENTRY_FORMAT, "id": self.next_id(), "time": now(), "session": self.session, "kind": "change",
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
            if answer.drawn or answer.dice:  # as below
                entry["dice"] = [list(answer.drawn or answer.dice)]
            self.pending.append(("entry", entry))
            return
        entry["answers"], entry["sheets"] = [record_of(answer)], [change]
        if answer.drawn or answer.dice:  # the faces a verifier re-derives (crux-verify(7))
            entry["dice"] = [list(answer.drawn or answer.dice)]
        try:
            # With an intent on disk, the entry need not wait for the disk: lost to a power cut, the
            # intent is still there and the next start journals the change (`settle`).
            with store.without_waiting() if intent is not None else store.transaction():
                if intent is None or store.finish_intent(intent):  # settled meanwhile by another crux: it has it
                    store.add_entry(entry)
        except (CruxError, sqlite3.Error) as error:
            self.failed(error)

    def change_of(self, answer: Any, update: Any) -> dict[str, Any] | None:
        """What the answer changed on its sheet (state.sheet_undo `sheet_change`), from the values its write
        announced when it was held (`note_write`), else worked out from its heroes."""
        known, self.held_values = self.held_values, None
        if known is not None and known[0] == update.path and known[1] == answer.input:  # as `sheet_change`
            undo = sheet_undo()
            made: dict[str, Any] = undo.change_of_values(undo.real_path(update.path), update.after.name, known[2],
                                                         known[3])
            return made
        change: dict[str, Any] | None = sheet_undo().sheet_change(update.path, update.before, update.after)
        return change

    def start_run(self, answer: Any) -> None:
        """The first item of a new run: its rule set and seed are the row's."""
        if self.store is None:
            self.connected()  # the session's numbers go on from the store's (a CRUX_SESSION run)
        self.run_first = self.count + 1
        self.run_rules, self.run_seed = answer.rules, answer.seed
        self.run_start = time.time()
        self.statements = {}
        self.heroes, self.hero_at, self.usual_update = [], {}, None

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
        roll, or the run is not begun (or the journal failed): `answered`. The runner gives the same `SheetUpdate`
        while its hero stays as it was, so the last one's hero number (in this run) is taken as it is."""
        drawn = answer.drawn
        if drawn is None or answer.comment is not None or answer.index is not None:
            return False
        return self.usual_held(answer.input, drawn, answer.sheet)

    def usual_held(self, said: str, drawn: tuple[int, ...], update: Any) -> bool:
        """`usual_on_sheet` for the statement `said`, with no comment or repetition, drawn as `drawn` on the sheet and
        hero of `update` (a roll drawn again without its answer: running.sheet_roll `redrawn_on_sheet`)."""
        runs = self.runs
        if not runs or self.warned:
            return False
        if update is not self.usual_update:  # not the last usual roll's sheet and hero (held: its id stays its own)
            if update.before is not update.after:
                return False
            self.usual_update, self.usual_hero = update, self.hero_number(update)
        self.count += 1
        statements = self.statements
        number = statements.get(said)
        if number is None:
            number = statements[said] = len(statements)
        runs.append((number, drawn, self.usual_hero))
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
            made = (update.before, {"path": update.path, **sheet_undo().hero_json(update.before)})
            self.hero_made[id(update.before)] = made
        return made[1]

    @staticmethod
    def kept(answer: Any, answer_json: str | None) -> dict[str, Any]:
        """What gives back an answer that is not the chunk's usual roll: its replay, or its JSON."""
        if answer.drawn is None:
            if answer_json is None:  # the record itself: no text made to be read back at once
                from crux_cli.render.jsonl import record

                whole: dict[str, Any] = {"answer": record(answer)}
            else:
                whole = {"answer": json.loads(answer_json)}
            if answer.dice:  # its faces beside it: what a verifier re-derives (crux-verify(7))
                whole["dice"] = [list(answer.dice)]
            return whole
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
            if store.moved():  # the store or its -wal deleted under a running batch: said, never lost silently
                raise CruxError(f"the state store {store.path} (or its -wal) was deleted or replaced while crux was "
                                "writing to it: the rolls from here on are not kept")
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

    # -- a batch's sheets, held between its statements (state.store `HeldRun`; state.held_journal) ----------

    def holding_sheets(self, hold: bool = True) -> contextlib.AbstractContextManager[None]:
        """A batch whose answers wait for `sync`: its sheets' locks are kept and their writes made at each sync,
        one write and one intent for all the changes since the last (state.held_journal `holding`)."""
        if not hold:  # the sheet store is not even imported (nor its TOML reader: bench_startup.py)
            return contextlib.nullcontext()
        holding: contextlib.AbstractContextManager[None] = held_journal().holding(self)
        return holding

    def write_held(self) -> None:
        """Write each held sheet and commit the rows waiting for it (state.held_journal `write_held`)."""
        held_journal().write_held(self)

    def take_sheet_failures(self) -> list[CruxError]:
        said, self.sheet_failures = self.sheet_failures, []
        return said

    def close(self) -> None:
        self.flush()
        if self.pending:
            self.write_held()
        if self.store is not None and self.dice is not None:  # the run is over: its seed may be shown
            with contextlib.suppress(CruxError, sqlite3.Error):
                dice_keys.end_epochs(self.store, self.session)
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
        real = sheet_undo().real_path(path)
        try:
            if self.word is not None:
                self.word["writes"].append([real, dict(before), dict(after)])
                if self.word.get("seq") is None:
                    self.word["seq"] = store.intend(self.session, "word", self.word)
                else:
                    store.update_intent(self.word["seq"], self.word)
                return
            changed = [name for name in before if before[name] != after.get(name)]
            entry = {"v": ENTRY_FORMAT, "kind": "change", "who": who, "statement": statement, "answers": [],
                     "sheets": [{"path": real, "who": who, "before": {n: before[n] for n in changed},
                                 "after": {n: after[n] for n in changed}}]}
            # its writer: settled by another crux only once it is gone (state.recovery `writer_alive`)
            self.sheet_intent = store.intend(self.session, "sheet", {"entry": entry, "pid": os.getpid(),
                                                                     "at": time.time()})
        except (CruxError, sqlite3.Error, ValueError) as error:  # ValueError: a text SQLite cannot hold
            raise unjournaled(path, error) from None

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

    dice: Any = None  # the generator (core.rng DiceStream) rolled with now, once its commitment is kept

    def keys(self, runner: Any) -> None:
        """Keep the commitment of each generator `runner` makes, and each salt it is given (state.dice_keys):
        journal on only, as a session that keeps no rolls has nothing to verify."""
        if self.mode == "on":
            runner.keyed, runner.salted = partial(dice_keys.keyed, self), partial(dice_keys.salted, self)


TRIM_EVERY = 10_000  # plain rolls between two checks of the retention cap
HELD = -1  # `sheet_intent` of a write a batch holds (state.store `HeldRun`): announced when it is made
