"""Reading and writing sheets so that a crash or two processes at once lose nothing.

- Every change is a transaction: an exclusive `fcntl.flock` on a sidecar lock
  file (`.NAME.lock` beside the sheet) is held from the read to the write, so
  two `crux --sheet` runs spending Grit never both start from the same value.
  The lock is on a sidecar, not on the sheet, because the sheet's inode is
  replaced by every write.
- A write goes to a temporary file in the sheet's directory, is flushed and
  fsynced, takes the sheet's file mode, and is renamed over the sheet with
  `os.replace` (atomic); the directory is then fsynced. A reader, or a process
  killed at any moment, sees the old sheet or the new one, never half of one.
- A sheet that does not parse or breaks a rule is refused with its line and
  reason before anything is written, so it stays exactly as the player left it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.state.sheet import parse_sheet, update_sheet_text


def resolve(path: str | os.PathLike[str]) -> Path:
    """The real file behind `path`: writing through a symlink must replace its target, not the link."""
    return Path(os.path.realpath(os.fspath(path)))


def read_text(path: Path, shown: str) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SheetError("no such sheet", path=shown,
                         hint="create one with: crux sheet new " + shown) from None
    except IsADirectoryError:
        raise SheetError("is a directory, not a sheet", path=shown) from None
    except OSError as error:
        raise SheetError(f"cannot read the sheet: {error.strerror}", path=shown) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SheetError("the sheet is not UTF-8 text", path=shown, line=line) from None


def load_hero(path: str | os.PathLike[str]) -> Hero:
    """The hero on a sheet, read without a lock: writes are atomic renames, never half a file."""
    shown = os.fspath(path)
    return parse_sheet(read_text(resolve(path), shown), shown)


def lock_path(sheet: Path) -> Path:
    return sheet.with_name(f".{sheet.name}.lock")


@contextlib.contextmanager
def locked(sheet: Path, shown: str) -> Iterator[None]:
    """Hold the sheet's exclusive lock (waiting for it) for the body of the `with`."""
    try:
        descriptor = os.open(lock_path(sheet), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise SheetError(f"cannot lock the sheet: {error.strerror}", path=shown,
                         hint="crux needs to create a lock file in the sheet's folder") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    except OSError as error:  # some file systems cannot fsync a directory; the rename is still atomic
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(descriptor)


def write_atomically(sheet: Path, text: str, shown: str, *, exclusive: bool = False) -> None:
    """Put `text` at `sheet` all at once: temp file, fsync, rename (or link, to refuse an existing file)."""
    try:
        mode = stat.S_IMODE(sheet.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~current_umask()
    descriptor, temporary = tempfile.mkstemp(prefix=f".{sheet.name}.", suffix=".tmp", dir=sheet.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fchmod(file.fileno(), mode)
            os.fsync(file.fileno())
        if exclusive:
            os.link(temporary, sheet)  # fails if the sheet exists: never overwrite one by surprise
            os.unlink(temporary)
        else:
            os.replace(temporary, sheet)
        fsync_directory(sheet.parent)
    except FileExistsError:
        raise SheetError("the sheet already exists", path=shown,
                         hint="choose another file name, or remove that one first") from None
    except OSError as error:
        raise SheetError(f"cannot write the sheet: {error.strerror}", path=shown) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@dataclass
class SheetTransaction:
    """One locked read-modify-write of a sheet: read `hero`, then `save` the changed hero."""

    path: Path
    shown: str
    text: str
    hero: Hero

    def save(self, hero: Hero) -> None:
        """Write `hero`'s kept values back (nothing is written when nothing changed)."""
        text = update_sheet_text(self.text, self.hero, hero)
        if text == self.text:
            return
        parse_sheet(text, self.shown)  # never write a sheet crux itself would refuse
        if not self.path.stat().st_mode & stat.S_IWUSR:  # a rename would get past the file's own mode
            raise SheetError("the sheet is read-only: crux will not change it", path=self.shown,
                             hint="make it writable (chmod u+w), or roll without --sheet")
        write_atomically(self.path, text, self.shown)
        self.text, self.hero = text, hero


@contextlib.contextmanager
def sheet_transaction(path: str | os.PathLike[str]) -> Iterator[SheetTransaction]:
    """Lock the sheet, read and check it, and let the body change it; the lock is held until the end."""
    shown = os.fspath(path)
    sheet = resolve(path)
    with locked(sheet, shown):
        remove_leftovers(sheet)
        text = read_text(sheet, shown)
        yield SheetTransaction(sheet, shown, text, parse_sheet(text, shown))


def remove_leftovers(sheet: Path) -> None:
    """Delete temporary files of writers killed before their rename (only lock holders write them)."""
    for leftover in sheet.parent.glob(f".{glob.escape(sheet.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def create_sheet(path: str | os.PathLike[str], text: str) -> Hero:
    """Write a new sheet, refusing to replace an existing file; the text must be a valid sheet."""
    shown = os.fspath(path)
    hero = parse_sheet(text, shown)
    sheet = resolve(path)
    with locked(sheet, shown):
        write_atomically(sheet, text, shown, exclusive=True)
    return hero
