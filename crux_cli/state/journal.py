"""The journal: every roll and every change crux makes to state, one JSON line each.

It lives at `$XDG_STATE_HOME/crux/journal.jsonl` (`~/.local/state/crux/` when the
variable is unset or relative), private to the user (folder 0700, file 0600).
A line is appended under the journal's lock (the sheets' sidecar `flock`) with
one `write` on an `O_APPEND` descriptor and fsynced before the answer is shown,
so a roll on screen is a roll on disk. A writer killed mid-line leaves a torn
last line: readers skip lines that are not JSON, and the next writer starts on
a fresh line, so one torn line never spoils the lines after it.

A line (format 1; documented in crux(1), JOURNAL):

    {"v": 1, "id": "SESSION-N", "time": "2026-11-23T17:02:03.123Z", "session": "SESSION",
     "kind": "roll" | "change" | "undo" | "redo", "who": "Ann", "statement": "damage 5",
     "answers": [ANSWER, ...],                      # as `crux --json` prints them
     "sheets": [{"path": P, "who": "Ann", "before": {"hp": 12}, "after": {"hp": 7}}],
     "fight": {"before": LEDGER | null, "after": LEDGER | null},   # when the ledger changed
     "countdowns": {"before": [...], "after": [...]},             # when they changed
     "undoes": "SESSION-N"}                         # undo and redo only

`sheets` holds only the values that changed (Grit, HP, Wounds, Dying, Hit Dice,
conditions): enough to take the change back, and to see whether someone changed
the sheet since (`undo_sheet` refuses then, naming what changed).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.hero import Hero

FORMAT = 1
NAME = "journal.jsonl"
CHANGING = ("change", "undo", "redo")
# built once: json.dumps with options builds an encoder a call
ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def state_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_STATE_HOME/crux, or ~/.local/state/crux (a relative XDG_STATE_HOME is ignored, as the spec says)."""
    base = environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".local", "state")
    return Path(base) / "crux"


def private_dir(path: Path) -> Path:
    """Make `path` (and its parents) and keep it readable by the user alone: rolls are nobody else's."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def journal_path(environ: Mapping[str, str] = os.environ) -> Path:
    return state_dir(environ) / NAME


def new_session_id(environ: Mapping[str, str] = os.environ) -> str:
    """CRUX_SESSION when a script sets it (its runs share one session), else 8 random hex digits."""
    given = environ.get("CRUX_SESSION", "").strip()
    return given[:64] if given else os.urandom(4).hex()


def now() -> str:
    whole, milliseconds = divmod(int(time.time() * 1000), 1000)
    if whole != _stamped[0]:  # a batch journals thousands of lines a second: format the date once a second
        _stamped[:] = [whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))]
    end = _ends.get(milliseconds)
    if end is None:  # each of the thousand endings is formatted once, when first needed, not at start-up
        end = _ends[milliseconds] = f".{milliseconds:03d}Z"
    return _stamped[1] + end


_stamped: list[Any] = [None, ""]  # the last whole second `now` formatted, and its text
_ends: dict[int, str] = {}  # a time stamp's last part by its milliseconds: ".042Z"


# -- sheet values -----------------------------------------------------------------------------------


def sheet_values(hero: Hero) -> dict[str, Any]:
    """The values crux keeps on a sheet (the ones it writes back), as JSON."""
    from crux_cli.state.sheet import WRITABLE

    return {name: list(value) if isinstance(value := getattr(hero, name), tuple) else value for name in WRITABLE}


def sheet_change(path: str, before: Hero, after: Hero) -> dict[str, Any] | None:
    """What changed on the sheet at `path`: the changed values before and after (None when nothing did)."""
    old, new = sheet_values(before), sheet_values(after)
    changed = [name for name in old if old[name] != new[name]]
    if not changed:
        return None
    return {"path": os.path.realpath(path), "who": after.name,
            "before": {name: old[name] for name in changed}, "after": {name: new[name] for name in changed}}


# -- writing ----------------------------------------------------------------------------------------


class Journal:
    """Appends lines for one session (a REPL, or one `crux` run) to the journal file.

    A plain class, not a dataclass: every roll builds one, and a dataclass costs start-up time.
    """

    def __init__(self, path: Path, session: str) -> None:
        self.path = path
        self.session = session
        self.count = 0
        self.defer_sync = False  # batch mode: fsync once per chunk of answers (see `sync`), not once a line
        self.unsynced = False
        self.pending: list[str] = []  # batch mode: roll lines (no state changed) written together at `sync`
        self.warned = False
        self.warnings: list[str] = []
        self.prefix: tuple[str, str] | None = None  # the fixed parts of this session's roll lines
        self.quoted: dict[str, str] = {}  # statements as JSON strings: a batch repeats a few dozen

    @classmethod
    def open(cls, environ: Mapping[str, str] = os.environ) -> Journal:
        return cls(journal_path(environ), new_session_id(environ))

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write `entry` (given its id, time and session here) and fsync it; a failure is a warning, once."""
        self.count += 1
        full = {"v": FORMAT, "id": f"{self.session}-{self.count}", "time": now(), "session": self.session,
                **entry}
        line = ENCODER.encode(full)
        if self.defer_sync and entry.get("kind") == "roll":
            # Nothing changed on disk for a roll: its line may wait for the chunk's one locked write,
            # which `sync` makes before the answer is shown. A change is written at once, after them.
            self.pending.append(line)
            return full
        self.write([*self.pending, line], sync=not self.defer_sync)
        return full

    def write(self, lines: list[str], sync: bool) -> None:
        self.pending = []
        try:
            append_line(self.path, "\n".join(lines), sync=sync)
            self.unsynced = not sync
        except (OSError, CruxError) as error:
            self.failed(error)

    def sync(self) -> None:
        """Put the lines appended since the last fsync on disk (before their answers are shown)."""
        if self.pending:
            self.write(self.pending, sync=True)
            return
        if not self.unsynced:
            return
        self.unsynced = False
        try:
            descriptor = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        except OSError as error:
            self.failed(error)

    def failed(self, error: OSError | CruxError) -> None:
        reason = error.strerror if isinstance(error, OSError) else error.message
        if not self.warned:
            self.warnings.append(f"the journal is not kept: {self.path}: {reason}")
        self.warned = True

    def answered(self, answer: Any, answer_json: str | None = None) -> None:
        """One statement answered on the command line: a roll, or a change when it changed the sheet.

        `answer_json` is the answer as `crux --json` prints it (without `line`), when the caller has it.
        """
        update = answer.sheet
        change = sheet_change(update.path, update.before, update.after) if update is not None else None
        if update is None or change is None:
            if answer_json is None:
                from crux_cli.render.jsonl import compact, record

                answer_json = compact(record(answer))
            self.rolled(answer.input, answer_json)
            return
        from crux_cli.render.jsonl import record

        self.append({"kind": "change", "who": update.after.name, "statement": answer.input,
                     "answers": [record(answer)], "sheets": [change]})

    def rolled(self, statement: str, answer_json: str) -> None:
        """A roll's line, spelled out rather than built as a dict and encoded: a batch writes one per line.

        The same line `append` would write for {"kind": "roll", "who": None, ...}, key for key.
        """
        self.count += 1
        if self.prefix is None:
            session = ENCODER.encode(self.session)
            self.prefix = (f'{{"v":{FORMAT},"id":{session[:-1]}-', f',"session":{session},"kind":"roll","who":null,')
        quoted = self.quoted.get(statement)
        if quoted is None:
            if len(self.quoted) >= 1024:
                self.quoted.clear()
            quoted = self.quoted[statement] = ENCODER.encode(statement)
        line = (f'{self.prefix[0]}{self.count}","time":"{now()}"{self.prefix[1]}'
                f'"statement":{quoted},"answers":[{answer_json}]}}')
        if self.defer_sync:  # nothing changed on disk: the line may wait for the chunk's one locked write
            self.pending.append(line)
        else:
            self.write([*self.pending, line], sync=True)

    def take_warnings(self) -> list[str]:
        said, self.warnings = self.warnings, []
        return said


def append_line(path: Path, text: str, sync: bool = True) -> None:
    """Append one line under the journal's lock, in one write, fsynced (the file made 0600 when new)."""
    private_dir(path.parent)
    with journal_lock(path):
        descriptor = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            size = os.fstat(descriptor).st_size
            torn = size > 0 and os.pread(descriptor, 1, size - 1) != b"\n"  # a writer was killed mid-line
            data = (("\n" if torn else "") + text + "\n").encode("utf-8")
            while data:
                data = data[os.write(descriptor, data):]
            if sync:
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
        if size == 0:
            from crux_cli.state.files import fsync_directory

            fsync_directory(path.parent)  # the new file's name is on disk too


@contextlib.contextmanager
def journal_lock(path: Path) -> Iterator[None]:
    """The journal's sidecar lock, as `store.locked` takes a sheet's; apart so a plain roll does not import
    the sheet machinery (state.store reads sheets, and a roll's start-up time is measured)."""
    import fcntl

    descriptor = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


# -- reading ----------------------------------------------------------------------------------------


def read_entries(path: Path | None = None) -> list[dict[str, Any]]:
    """Every whole line of the journal, oldest first; torn or foreign lines are skipped."""
    path = path or journal_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as error:
        raise CruxError(f"cannot read the journal: {path}: {error.strerror}") from None
    entries = []
    for raw in data.splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(raw)
            if isinstance(entry, dict) and entry.get("v") == FORMAT and "id" in entry:
                entries.append(entry)
    return entries


def touches(entry: Mapping[str, Any], sheet: str) -> bool:
    return any(change.get("path") == sheet for change in entry.get("sheets", ()))


def select(entries: Iterable[dict[str, Any]], *, session: str | None = None, since: str | None = None,
           sheet: str | None = None, fight: bool = False) -> list[dict[str, Any]]:
    """The entries a log asks for: of one session, from a time on, touching a sheet, or of a fight."""
    real = os.path.realpath(sheet) if sheet else None
    return [e for e in entries
            if (session is None or e.get("session") == session)
            and (since is None or str(e.get("time", "")) >= since)
            and (real is None or touches(e, real))
            and (not fight or "fight" in e or is_fight_roll(e))]


def is_fight_roll(entry: Mapping[str, Any]) -> bool:
    return bool(entry.get("in_fight"))


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
    longer holds what that change wrote: someone (another crux, or a hand) changed it since.
    """
    real = os.path.realpath(os.path.expanduser(path))
    done, undone = stacks(read_entries(journal.path), real)
    pending = undone if redo else done
    word = "redo" if redo else "undo"
    if not pending:
        raise CruxError(f"nothing to {word} for {path}",
                        hint="the journal holds no change of this sheet" + (" undone since its last change"
                                                                            if redo else ""))
    target = pending[-1]
    change = change_of(target, real)
    expected, wanted = (change["before"], change["after"]) if redo else (change["after"], change["before"])
    restore_sheets([(path, expected, wanted)], str(target.get("statement") or ""))
    entry = journal.append({"kind": word, "who": change.get("who"), "statement": target.get("statement"),
                            "undoes": target["id"], "answers": [],
                            "sheets": [{**change, "before": expected, "after": wanted}]})
    return target, entry


def restore_sheets(changes: list[tuple[str, dict[str, Any], dict[str, Any]]], statement: str = "") -> None:
    """Set each sheet's values from `expected` to `wanted`, all or none.

    Every sheet is locked (in one order, so two undos never wait on each other) and
    checked before any is written: a sheet that no longer holds `expected` refuses the lot.
    """
    from crux_cli.state.sheet import parse_sheet, update_sheet_text
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
            plans.append((real, shown, text, hero, hero.with_changes(**hero_values(wanted))))
        for real, shown, text, hero, after in plans:
            new_text = update_sheet_text(text, hero, after)
            parse_sheet(new_text, shown)
            if new_text != text:
                write_atomically(real, new_text, shown)


def put_sheet_values(path: str, values: Mapping[str, Any]) -> None:
    """Set a sheet's kept values to `values`, whatever it holds now (recovering a word cut short)."""
    from crux_cli.state.store import sheet_transaction

    with sheet_transaction(path) as sheet:
        sheet.save(sheet.hero.with_changes(**hero_values(values)))


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
    """The entries as the journal holds them, one JSON line each (for `crux log --json`)."""
    for entry in entries:
        yield ENCODER.encode(entry)


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
