"""Reading and writing sheets so that a crash or two processes at once lose nothing.

- Every change is a transaction: an exclusive lock (state.locking) on a lock file
  is held from the read to the write, so two `crux --sheet` runs spending Grit
  never both start from the same value. The lock file is crux's, in its state
  folder (`locks/`, named by a hash of the sheet's real path: nothing of crux's
  beside the user's sheet), not the sheet, because the sheet's inode is replaced
  by every write. It holds the holder's process id: a wait longer than a second
  says who it waits for, and one longer than `CRUX_LOCK_WAIT` seconds is refused
  (`wait_for`). When it cannot be made at all the sheet is still read, and only
  a statement that would change it is refused. The `.NAME.lock` files older
  crux left beside sheets are removed when met (`remove_sidecar`).
- A write goes to a temporary file in the sheet's directory, is flushed and
  fsynced, takes the sheet's mode, owner, group and ACL, and is renamed over
  the sheet with `os.replace` (atomic); the directory is then fsynced. A
  reader, or a process killed at any moment, sees the old sheet or the new
  one, never half of one.
- Only a regular file, writable by whoever runs crux, with one name, is ever
  replaced: a device, a FIFO or a sheet shared through a hard link is refused
  (see `files.py`), as is one whose owner crux could not keep.
- A sheet that does not parse or breaks a rule is refused with its line and
  reason before anything is written, so it stays exactly as the player left it.
- A batch whose input is already waiting keeps the lock from statement to statement
  and writes the sheet once for all their changes, announced to the journal first
  (`HeldRun`, below): at most a chunk of lines or HOLD_SECONDS, and always before
  their answers are shown.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.core.record import Record

# a file replaced all at once is state.files' to write; the store still gives what its callers import from it
from crux_cli.state.files import ACL as ACL
from crux_cli.state.files import (
    MAX_FILE_BYTES,
    NotAFile,
    TooLarge,
    article,
    existing_file,
    read_regular,
)
from crux_cli.state.files import current_umask as current_umask
from crux_cli.state.files import write_atomically as write_atomically
from crux_cli.state.locking import unlock

# a sheet's lock, in crux's state folder: state.sheet_locks (what its callers import from here too)
from crux_cli.state.sheet_locks import lock_path as lock_path
from crux_cli.state.sheet_locks import lock_problem, remove_leftovers, remove_sidecar, wait_for
from crux_cli.state.sheet_locks import locked as locked
from crux_cli.state.sheet_locks import open_lock as open_lock
from crux_cli.state.sheet_locks import sidecar_path as sidecar_path

if TYPE_CHECKING:
    from crux_cli.core.ruleset import SheetFile, SheetHero

def resolve(path: str | os.PathLike[str]) -> Path:
    """The real file behind `path`: writing through a symlink must replace its target, not the link."""
    if "\0" in os.fspath(path):
        raise SheetError("a file name cannot hold a NUL character", path=repr(os.fspath(path)))
    return Path(os.path.realpath(os.fspath(path)))


def read_text(path: Path, shown: str, what: str = "sheet", *, follow: bool = True) -> str:
    """The UTF-8 text of the regular file at `path`; `what` names it in the refusals ("sheet")."""
    try:
        data = read_regular(path, follow=follow)
    except FileNotFoundError:
        hint = "create one with: crux sheet new " + shown if what == "sheet" else None
        raise SheetError(f"no such {what}", path=shown, hint=hint) from None
    except NotAFile as error:
        raise SheetError(f"is {error.kind}, not {article(what)}", path=shown,
                         hint=f"crux reads {article(what)} only from a regular file") from None
    except TooLarge:
        raise SheetError(f"is larger than 1 MB: too large to be {article(what)}", path=shown,
                         hint=f"crux reads at most {MAX_FILE_BYTES:,} bytes of {article(what)}") from None
    except OSError as error:
        raise SheetError(f"cannot read the {what}: {error.strerror}", path=shown) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SheetError(f"the {what} is not UTF-8 text", path=shown, line=line) from None


# -- a sheet's text and its hero: the rule set the sheet names reads it (core.ruleset `SheetFile`) ----------------


def parse_sheet(text: str, path: str = "<sheet>") -> SheetHero:
    """The hero a sheet describes, read by the sheet file of the rule set it names, or a `SheetError` naming the
    file, line and reason."""
    from crux_cli import rulesets
    from crux_cli.state.plain_toml import loads, read_toml, top_key_line

    data = loads(text)  # None: not the plain TOML read without tomllib (PERFORMANCE.md)
    if data is None:
        data = read_toml(text, path)
    hero: SheetHero = file_for(data.get("rules")).read(data, text, path)  # its own refusals first, at their lines
    if not rulesets.exists(hero.rules):  # a built-in name never scans the installed packages' entry points
        raise SheetError(f"unknown rule set `{hero.rules}`", path=path, line=top_key_line(text, "rules"),
                         hint="rule sets: " + ", ".join(rulesets.names()))
    if "name" not in data:  # empty, cut short, half-written by an editor, or another program's TOML
        raise SheetError("not a crux sheet: it has no `name`", path=path,
                         hint="a sheet starts with name = \"...\" (crux sheet new FILE makes one); crux has left "
                              "the file as it was")
    return hero


def file_for(rules: object) -> SheetFile[Any]:
    """The sheet file of the rule set called `rules` (a sheet's `rules`, a hero's), else the default rule set's,
    which reads a sheet that names none, or one whose rules keep no file (and refuses an unknown name at its line).
    A built-in rule set's is remembered: a batch on a sheet asks at every change."""
    known = BUILT_IN_FILES.get(rules) if rules.__class__ is str else None
    if known is not None:
        return known
    from crux_cli import rulesets

    found = None
    if isinstance(rules, str) and (name := rules.strip().lower()) != rulesets.DEFAULT:
        try:
            found = rulesets.sheet_file(name)
        except CruxError:  # a plug-in that cannot be loaded: its sheet is read (and refused) as the default's
            found = None
    if found is None:
        found = rulesets.sheet_file(rulesets.DEFAULT)
        assert found is not None, "the default rule set keeps sheets"
    if isinstance(rules, str) and rules.strip().lower() in rulesets.BUILT_IN and len(BUILT_IN_FILES) < KEPT_SHEETS:
        BUILT_IN_FILES[rules] = found
    return found


BUILT_IN_FILES: dict[object, SheetFile[Any]] = {}  # by the name given (a built-in rule set's file never changes)


def updated_sheet(text: str, before: SheetHero, after: SheetHero, path: str) -> tuple[str, SheetHero]:
    """The sheet's text with the values that changed from `before` to `after` (its rule set's `write`), and the
    hero the new text holds (a `SheetError` when crux would refuse it).

    An edit in place is tried first, and one parse checks both the edit and the sheet
    (tests/bench/bench_batch.py, sheet mix).
    """
    file = file_for(after.rules)
    wanted = file.kept(after)
    if file.kept(before) == wanted:
        return text, parse_sheet(text, path)
    quick = file.edit(text, before, after)
    if quick is not None:
        try:
            hero: SheetHero | None = parse_sheet(quick, path)
        except SheetError:
            hero = None
        if hero is not None and file.kept(hero) == wanted:
            return quick, hero
    slow = file.write(text, before, after)
    return slow, parse_sheet(slow, path)


def load_hero(path: str | os.PathLike[str]) -> SheetHero:
    """The hero on a sheet, read without a lock: writes are atomic renames, never half a file. A sheet this
    process holds (`HeldRun`) gives the hero its statements left, written at the end of the run."""
    run = HELD_NAMES.get(path)  # a batch's dice line beside its sheet: the name it gives (a str)
    if run is not None:
        return run.hero
    shown = os.fspath(path)
    run = held_run(shown)
    if run is not None:
        return run.hero
    return read_sheet(resolve_again(shown), shown)[1]


def held_run(shown: str) -> HeldRun | None:
    """The run holding the sheet named `shown`, if one does: found by the name the run's statements give, else by
    the file it names."""
    run = HELD_NAMES.get(shown)
    if run is None and HELD_RUNS:
        run = HELD_RUNS.get(resolve_again(shown))
    return run


# What a batch on a sheet keeps between statements (tests/bench/bench_batch.py, sheet/sheetless, defends each):
# - RESOLVED: the real path behind each name given, while the name still leads to the same file
#   (a stat of the name, against realpath's stat of every component; none for a name that is its
#   own real path);
# - HELD: the lock file's descriptor, locked and unlocked at each statement rather than opened and closed,
#   while the lock file at its path is still the one opened;
# - PARSED: the sheet's text and hero while the file is the one read (same device, inode, size,
#   modification and change times); another crux's write replaces the inode, an edit by hand changes the
#   times, and either is read afresh, under the lock, at the next statement.
RESOLVED: dict[str, tuple[Path, tuple[int, int] | None]] = {}
HELD: dict[Path, tuple[int, str, tuple[int, int]]] = {}
PARSED: dict[Path, tuple[tuple[int, ...], str, SheetHero]] = {}
HEROES: dict[object, SheetHero] = {}  # one object for each state of a hero met, by its values and id (`interned`)
RACY_NS = 100_000_000  # a file changed this recently (ns) may change again unseen by its times
KEPT_SHEETS = 64  # sheets remembered in each (a REPL may switch between a few)
KEPT_HEROES = 512  # states of heroes remembered, twice each (`interned`)


def resolve_again(shown: str) -> Path:
    """`resolve(shown)`, remembered while `shown` names the same file.

    A name that is its own real path (absolute, no link on the way) is not checked again: every
    system call resolves it afresh, so the lock, the read and the write all follow whatever it names.
    """
    known = RESOLVED.get(shown)
    if known is not None and known[1] is None:
        return known[0]
    try:
        status = os.stat(shown)
    except (OSError, ValueError):  # missing, a NUL: resolve (and then the read) says so
        return resolve(shown)
    if known is not None and known[1] == (status.st_dev, status.st_ino):
        return known[0]
    real = resolve(shown)
    if len(RESOLVED) >= KEPT_SHEETS:
        RESOLVED.clear()
    RESOLVED[shown] = (real, None if os.fspath(real) == shown else (status.st_dev, status.st_ino))
    return real


def held_lock(sheet: Path) -> int:
    """A descriptor on the sheet's lock file (OSError when it cannot be opened), kept open between statements."""
    held = HELD.get(sheet)
    if held is not None:
        descriptor, path, identity = held
        try:
            status = os.stat(path, follow_symlinks=False)
            if (status.st_dev, status.st_ino) == identity:
                return descriptor
        except OSError:
            pass
        del HELD[sheet]  # the lock file was removed or replaced: lock the one there now
        os.close(descriptor)
    descriptor = open_lock(sheet)
    if len(HELD) >= KEPT_SHEETS:
        for old, *_ in HELD.values():
            os.close(old)
        HELD.clear()
    status = os.fstat(descriptor)
    HELD[sheet] = (descriptor, os.fspath(lock_path(sheet)), (status.st_dev, status.st_ino))
    return descriptor


def interned(hero: SheetHero) -> SheetHero:
    """The one object of `hero`'s state: a hero whose Grit goes 2, 3, 2 is the same object at each 2, so what is
    remembered by its identity (a statement's compiled request, rulesets/crux/compiler.py; the journal's heroes)
    is found again rather than worked out anew after every change (PERFORMANCE.md, "A batch holds its sheet")."""
    if HEROES.get(id(hero)) is hero:  # the one object already, kept by its id too: known without its values
        return hero
    key = hero.value_key() if isinstance(hero, Record) else hero  # a record's own hash would work it out twice
    known = HEROES.get(key)
    if known is not None:
        return known
    if len(HEROES) >= KEPT_HEROES:
        HEROES.clear()
    HEROES[key] = HEROES[id(hero)] = hero  # kept alive here: its id names no other meanwhile
    return hero


def signature(status: os.stat_result) -> tuple[int, ...]:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def trusted_signature(status: os.stat_result) -> tuple[int, ...]:
    """The signature a parse is kept under: trusted only when the file was already old when read (git's racily
    clean rule). A file written in the tick it is read in may be written again within it, on an inode freed and
    reused, with the same size and times; it keeps none (), so the next read compares its text (issue 37)."""
    return signature(status) if status.st_mtime_ns < time.time_ns() - RACY_NS else ()


def read_sheet(sheet: Path, shown: str) -> tuple[str, SheetHero]:
    """The text and hero of the sheet at the real path `sheet`, parsed again only when the file changed.

    A file changed in the last moments may change again within the same tick of the file system's
    clock, keeping its times and size: its text is read and compared then (as git does with racily
    clean files), and only the parse is saved.
    """
    try:
        status: os.stat_result | None = os.stat(sheet)
    except OSError:
        status = None  # read_text says why
    if status is not None and not stat.S_ISREG(status.st_mode):
        status = None
    known = PARSED.get(sheet)
    if known is not None and status is not None and known[0] == signature(status):
        return known[1], known[2]
    text = read_text(sheet, shown)  # read after the stat: a change in between is seen at the next stat
    hero = known[2] if known is not None and known[1] == text else interned(parse_sheet(text, shown))
    if status is not None:
        if len(PARSED) >= KEPT_SHEETS:
            PARSED.clear()
        PARSED[sheet] = (trusted_signature(status), text, hero)
    return text, hero



class SheetTransaction:
    """One locked read-modify-write of a sheet: read `hero`, then `save` the changed hero.

    `unlocked` says why the lock could not be taken (a read-only folder): the sheet
    is then read all the same, and only a save that changes it is refused.
    """

    def __init__(self, path: Path, shown: str, text: str, hero: SheetHero, unlocked: str | None = None) -> None:
        self.path = path
        self.shown = shown
        self.text = text
        self.hero = hero
        self.unlocked = unlocked

    def __enter__(self) -> SheetTransaction:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def save_changed(self, hero: SheetHero) -> None:
        """`save` a hero whose kept values the caller found to differ from those of the hero read (`roll_on_sheet`)."""
        self.save(hero)

    def save(self, hero: SheetHero) -> None:
        """Write `hero`'s kept values back (nothing is written when nothing changed)."""
        if hero is self.hero:
            return
        file = file_for(hero.rules)
        if file.kept(hero) == file.kept(self.hero):
            return
        text, parsed = updated_sheet(self.text, self.hero, hero, self.shown)  # never write one crux would refuse
        if self.unlocked is not None:
            raise SheetError(f"cannot change the sheet: {self.unlocked}", path=self.shown,
                             hint="crux needs to make a lock file in its state folder to change the sheet")
        PARSED.pop(self.path, None)
        written = write_atomically(self.path, text, self.shown, unchanged=self.text)  # still what was read
        self.text, self.hero = text, hero
        with contextlib.suppress(OSError):  # the file at the path is the one just written: keep it parsed
            now = os.stat(self.path)
            if (now.st_ino, now.st_size, now.st_mtime_ns) == (written.st_ino, written.st_size, written.st_mtime_ns):
                PARSED[self.path] = (trusted_signature(now), text, interned(parsed))


def sheet_transaction(path: str | os.PathLike[str]) -> contextlib.AbstractContextManager[SheetTransaction]:
    """Lock the sheet, read and check it, and let the body change it; the lock is held until the end.

    While a batch holds its sheets (`holding_sheets`), the lock taken here is kept after the body, and the
    statements that follow read and change the sheet in memory until the batch writes it (`HeldRun`)."""
    shown = os.fspath(path)
    run = held_run(shown)
    if run is not None:
        now = time.monotonic()
        if HOLDING.release is None or now <= HOLDING.until:
            if now >= run.next_check:  # a writer that ignores the lock is seen within CHECK_SECONDS
                run.check(shown)
                run.checked(now)
            return run  # the statement's transaction: its own `with`, with nothing to undo
        HOLDING.release()  # held long enough: the batch writes it now, and others get their turn at the lock
    return locked_transaction(resolve_again(shown), shown)


@contextlib.contextmanager
def locked_transaction(sheet: Path, shown: str) -> Iterator[SheetTransaction]:
    run = None
    try:
        descriptor: int | None = held_lock(sheet)
        unlocked = None
    except OSError as error:  # reading needs no lock: writes are atomic renames
        descriptor, unlocked = None, f"{lock_path(sheet)} {lock_problem(error)}"
    locked_now = False
    try:
        if descriptor is not None:
            wait_for(descriptor, shown)
            locked_now = True
            if sheet not in CLEARED:  # once a process: a folder of 20,000 files is not scanned per statement
                remove_leftovers(sheet)
                remove_sidecar(sheet)
                CLEARED.add(sheet)
        text, hero = read_sheet(sheet, shown)  # under the lock: stat, and read again if it changed
        if locked_now and HOLDING.release is not None and HOLD_SECONDS > 0 and holdable(sheet, shown):
            assert descriptor is not None
            if not HELD_RUNS:
                HOLDING.until = time.monotonic() + HOLD_SECONDS
            run = HELD_RUNS[sheet] = HELD_NAMES[shown] = HeldRun(sheet, shown, descriptor, text, hero,
                                                                 PARSED[sheet][0])
            locked_now = False  # kept until the batch writes the sheet (`HeldRun.release`)
        yield run if run is not None else SheetTransaction(sheet, shown, text, hero, unlocked)
    finally:
        if locked_now:
            assert descriptor is not None
            try:
                unlock(descriptor)  # the descriptor stays open for the next statement (HELD)
            except OSError:
                HELD.pop(sheet, None)
                os.close(descriptor)  # closing releases the lock


# -- a batch's sheets, held between its statements --------------------------------------------------------
#
# A batch whose input is already waiting holds its answers until the journal has them (running.modes). While it
# does, the sheet's lock is kept from the first statement on it to the batch's next `sync`, the statements read
# and change the sheet in memory, and the sheet is written once then: the journal first announces the run's
# changes (an intent, on disk before the write), the sheet is written (fsync, rename), and the run's entries
# are committed; a kill anywhere in between is settled as a single write's is (state.journal `settle_run`).
# PERFORMANCE.md, "A batch holds its sheet"; tests/test_journal_terminal.py kills batches at random.


class Holding:
    """Whether sheets are held (a batch's journal sets `release`: what writes them and lets them go)."""

    release: Callable[[], None] | None = None
    until = 0.0  # when the first sheet held now has been held long enough (time.monotonic)


HOLDING = Holding()
HOLD_SECONDS = 0.1  # the longest a batch keeps a sheet's lock from the others before writing it (0: never held)
HELD_RUNS: dict[Path, HeldRun] = {}
# the same, by the name the statements give (a held run keeps the file it locked)
HELD_NAMES: dict[str | os.PathLike[str], HeldRun] = {}
CHECK_SECONDS = 0.01  # a held sheet is looked at (stat) this often: at most once a statement (a tenth of the hold)
RACY_LOOKS = 10  # a held sheet written in the last moments has its text compared at one look in this many (`check`)


def holdable(sheet: Path, shown: str) -> bool:
    """May the sheet's writes wait for the end of the run? Only a file the write would be allowed to replace
    (checked now, so the write at the end meets the refusals a statement's own write would have met)."""
    try:
        return PARSED.get(sheet) is not None and existing_file(sheet, shown, "sheet") is not None
    except SheetError:
        return False


class HeldRun(SheetTransaction):
    """A sheet locked across a batch's statements: the text and hero on disk (`base_*`), and the hero the run's
    statements made of it (`hero`), written by `write` (its text made by `plan`) and let go by `release`. It
    is each of the statements' transaction: `save` changes the sheet in memory."""

    def __init__(self, path: Path, shown: str, descriptor: int, text: str, hero: SheetHero,
                 base_signature: tuple[int, ...]) -> None:
        super().__init__(path, shown, text, hero)
        self.descriptor = descriptor
        self.base_text, self.base_hero, self.base_signature = text, hero, base_signature
        self.planned: SheetHero | None = None
        self.file = file_for(hero.rules)
        self.found: dict[str, int | None] = {}  # what the sheet file keeps between edits in place (`SheetFile.edit`)
        self.started = self.next_check = self.quiet_until = time.monotonic()
        self.compared: tuple[int, ...] | None = None  # a signature its text was last found unchanged at, racy
        self.racy_looks = 0  # looks left before that text is compared again (`check`)

    def checked(self, now: float) -> None:
        """Looked at (`check`) at `now`: the statements before the next look, and within the hold, are quiet: a
        batch's usual statement on its sheet finds its run by name and rolls on it as it is, with one comparison
        (running.sheet_roll `roll_on_sheet`), and `sheet_transaction` does what is due after."""
        self.next_check = now + CHECK_SECONDS
        self.quiet_until = min(self.next_check, HOLDING.until) if HOLDING.release is not None else self.next_check

    def save(self, hero: SheetHero) -> None:
        if hero is not self.hero and self.file.kept(hero) != self.file.kept(self.hero):
            self.keep(hero)

    def keep(self, hero: SheetHero) -> None:
        """A statement changed the hero: kept in memory, its text made once for all the run's changes (`plan`)."""
        self.hero = interned(hero)

    save_changed = keep  # the caller compared the kept values already (running.sheet_roll `roll_on_sheet`)

    def check(self, shown: str) -> None:
        """A statement of the run: the file must be the one read. Changed by a writer that ignores the lock (an
        editor), it is read again, and the run's changes go on from it (`merge`).

        A file written in the last moments has no signature to trust (`trusted_signature`: the batch's own writes,
        a tenth of a second apart, always), so its text is compared; while its signature stays the one its text was
        found unchanged at, only one look in RACY_LOOKS compares it again (a read of the whole file at each look
        cost a batch on a sheet a tenth of its time). A change that keeps the size and times too is seen at most
        RACY_LOOKS looks later, and always before a write (`plan`); any other is seen at the next look."""
        try:
            now = signature(os.stat(self.path))
        except OSError:
            now = None
        if now == self.base_signature:
            return
        if now is not None and now == self.compared and self.racy_looks > 0:
            self.racy_looks -= 1
            return
        text = self.base_text
        self.merge(shown)
        if self.base_text is text:  # unchanged at `now`
            self.compared, self.racy_looks = now, RACY_LOOKS - 1

    def merge(self, shown: str) -> None:
        """The file as it is now, with the run's changes of the values its writer left as they were."""
        text = read_text(self.path, shown)
        if text == self.base_text:
            with contextlib.suppress(OSError):
                self.base_signature = trusted_signature(os.stat(self.path))
            return
        theirs = parse_sheet(text, shown)
        mine, base, their = self.file.kept(self.hero), self.file.kept(self.base_hero), self.file.kept(theirs)
        ours = {name: value for name, value in mine.items()
                if value != base[name] and their[name] == base[name]}  # what they changed stays theirs
        hero = interned(self.file.with_kept(theirs, ours) if ours else theirs)
        self.text, self.found = text, {}  # their lines: what was found in ours may have moved
        self.base_text, self.base_hero, self.hero = text, theirs, hero
        with contextlib.suppress(OSError):
            self.base_signature = trusted_signature(os.stat(self.path))

    def changes(self) -> tuple[dict[str, object], dict[str, object]]:
        """The kept values the run changed: before (on disk) and after (to be written)."""
        before, after = self.file.kept(self.base_hero), self.file.kept(self.hero)
        changed = [name for name in after if after[name] != before[name]]
        return {name: before[name] for name in changed}, {name: after[name] for name in changed}

    def plan(self) -> tuple[dict[str, object], dict[str, object]]:
        """Make the text to write, checked as any write is: the text on disk with the changed values edited in
        place, else what a write of all the changes at once makes (a `SheetError` when crux would refuse it).
        A writer that ignored the lock since the last statement is read and kept first. The values it changes,
        before and after."""
        self.merge(self.shown)
        before, after = self.changes()
        if not after:
            return before, after
        # `found` holds the lines of the text on disk: an edit in place moves none, so they stay true once written
        text = self.file.edit(self.base_text, self.base_hero, self.hero, self.found)
        parsed: SheetHero | None = None
        if text is not None:
            with contextlib.suppress(SheetError):
                parsed = planned_hero(text, self.shown)
        if text is None or parsed is None or self.file.kept(parsed) != self.file.kept(self.hero):
            text, parsed = updated_sheet(self.base_text, self.base_hero, self.hero, self.shown)
            self.found = {}  # the text is rewritten: its lines may move
        self.text, self.planned = text, parsed
        return before, after

    def write(self) -> None:
        """Write the text `plan` made (its lock still held): temporary file, fsync, rename, as every write."""
        text, parsed = self.text, self.planned
        assert parsed is not None
        PARSED.pop(self.path, None)
        written = write_atomically(self.path, text, self.shown, unchanged=self.base_text)  # what plan() read
        with contextlib.suppress(OSError):
            now = os.stat(self.path)
            if (now.st_ino, now.st_size, now.st_mtime_ns) == (written.st_ino, written.st_size, written.st_mtime_ns):
                PARSED[self.path] = (trusted_signature(now), text, interned(parsed))
                self.base_signature = trusted_signature(now)
        self.base_text, self.base_hero = text, interned(parsed)
        self.hero = self.base_hero

    def release(self) -> None:
        """Let the lock go (the descriptor stays open for the next statement, as `sheet_transaction` leaves it)."""
        HELD_RUNS.pop(self.path, None)
        for name in [name for name, run in HELD_NAMES.items() if run is self]:
            del HELD_NAMES[name]
        try:
            unlock(self.descriptor)
        except OSError:
            HELD.pop(self.path, None)
            os.close(self.descriptor)


def planned_hero(text: str, shown: str) -> SheetHero:
    """`parse_sheet(text, shown)`, remembered for the last few texts a held run planned to write: a batch on a sheet
    writes it once a chunk, and a hero whose Grit goes 4, 5, 4, 5 leaves the same text again and again (a parse of a
    sheet is a thousand lines of Python). A text refused is parsed again every time, for its refusal."""
    known = PLANNED.get((text, shown))
    if known is not None:
        return known
    hero = parse_sheet(text, shown)
    if len(PLANNED) >= KEPT_PLANS:
        PLANNED.clear()
    PLANNED[text, shown] = hero
    return hero


PLANNED: dict[tuple[str, str], SheetHero] = {}  # the hero of each text a held run planned (`planned_hero`)
KEPT_PLANS = 8


CLEARED: set[Path] = set()  # sheets whose leftovers this process has removed (tests/bench/bench_batch.py, sheet)


def create_sheet(path: str | os.PathLike[str], text: str) -> SheetHero:
    """Write a new sheet, refusing to replace an existing file; the text must be a valid sheet.

    The name itself is never followed: a dangling symbolic link is an existing
    name, not a way to create its target somewhere else.
    """
    shown = os.fspath(path)
    hero = parse_sheet(text, shown)
    if os.path.lexists(shown):
        raise SheetError("the sheet already exists" + (" (a symbolic link)" if os.path.islink(shown) else ""),
                         path=shown, hint="choose another file name, or remove that one first")
    sheet = resolve(os.path.dirname(shown) or ".") / os.path.basename(shown)
    with locked(sheet, shown):
        write_atomically(sheet, text, shown, exclusive=True)
    return hero
