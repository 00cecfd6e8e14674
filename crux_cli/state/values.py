"""The store's errors and small values: time stamps ("2026-11-23T17:02:03.123Z", made quickly: a batch stamps
thousands a second), text as SQLite and JSON can hold it, written and read, and a file's identity."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from crux_cli.core.errors import CruxError, SheetError


def stamp() -> str:
    return now()


def now() -> str:
    """The time stamp of now, as the journal writes it ("2026-11-23T17:02:03.123Z")."""
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


def text_or_none(value: Any) -> str | None:
    return None if value is None else clean(str(value))


def clean(text: str) -> str:
    """Text SQLite and JSON can hold: a lone surrogate (an undecodable byte) becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def decoded(data: bytes) -> str:
    """A TEXT value as read: UTF-8, or with U+FFFD where a byte is not (a row written by another tool)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, None when there is none."""
    try:
        status = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return status.st_dev, status.st_ino


class StoreError(CruxError):
    """The store cannot be used now (locked, unwritable): said as a warning, the roll goes on."""


class NewerStore(StoreError):
    """A store made by a newer crux (its schema has more steps than `STEPS`): left as it is, file and intents."""


class StoreDamaged(StoreError):
    """Damage met while reading the store (a malformed page): said plainly, with the way to set the store aside."""


def newer(path: Path, version: int, steps: int) -> NewerStore:
    """The refusal of a store made by a newer crux: its schema had `version` steps, this crux knows `steps`."""
    return NewerStore(f"the state store {path} was made by a newer crux (its schema at step {version}; this crux "
                      f"knows {steps}): this crux keeps no journal, and leaves the store as it is",
                      hint="use the newer crux, or set CRUX_JOURNAL=off to roll without a journal")


def unjournaled(path: str, error: BaseException) -> SheetError:
    """The refusal of a sheet write whose journal entry could not be written: made, it could not be taken back."""
    reason = error.message if isinstance(error, CruxError) else str(error)
    return SheetError(f"the change cannot be journaled ({reason}); the sheet is left as it was", path=path,
                      hint="crux changes a sheet only when its journal can take the change back")


def reason(error: BaseException, path: Path) -> str:
    """What went wrong with the store, in a user's words: a full disk says so, whichever way it was met."""
    if is_full(error, path):
        return f"no space left on the device holding {path.parent}"
    if isinstance(error, OSError):
        return str(error.strerror or error)
    return str(error)


def is_full(error: BaseException, path: Path) -> bool:
    """A full disk: ENOSPC, SQLITE_FULL, or an I/O error where the device has no space left."""
    if isinstance(error, OSError):
        return error.errno == errno.ENOSPC
    if not isinstance(error, sqlite3.Error):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "disk is full" in str(error).lower():
        return True
    if (code is not None and code & 0xFF == sqlite3.SQLITE_IOERR) or "disk i/o error" in str(error).lower():
        with contextlib.suppress(OSError, AttributeError):
            space = os.statvfs(path.parent)
            return space.f_bavail * space.f_frsize < 1 << 20
    return False


GENERATOR = 0x20  # inspect.CO_GENERATOR


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """A read of the store (a method of state.db `Store`) whose SQLite errors are said plainly (`read_failure`):
    damage found only at read time (a malformed page) is "the state store is damaged", never a crash."""
    if method.__code__.co_flags & GENERATOR:  # inspect.isgeneratorfunction, without importing inspect (30 M
        # instructions, ast and dis with it, on every journaled one-shot: bench_startup.py)
        @functools.wraps(method)
        def rows(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            try:
                yield from method(self, *args, **kwargs)
            except sqlite3.DatabaseError as error:
                raise read_failure(self.path, error) from None
        return rows

    @functools.wraps(method)
    def read(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            raise read_failure(self.path, error) from None
    return read


@contextlib.contextmanager
def reading(path: Path) -> Iterator[None]:
    """`guarded` for a reader that pages through the store itself (state.history's streams, `crux log`)."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise read_failure(path, error) from None


def read_failure(path: Path, error: sqlite3.DatabaseError) -> StoreError:
    """What a failed read of the store says: busy, a full disk, or damage, with the way to set it aside."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return StoreError(f"the state store {path} is held by another crux: try again in a moment")
    if is_full(error, path):
        return StoreError(f"cannot read the state store {path}: {reason(error, path)}")
    return StoreDamaged(f"the state store {path} is damaged ({error})",
                        hint="`crux log --set-aside` keeps it under another name and starts a new one")


def sheet_paths(entry: Mapping[str, Any]) -> set[str | bytes]:
    """The sheets an entry changed (the `sheet_entries` index), each as `path_key` stores it."""
    return {path_key(str(change.get("path"))) for change in entry.get("sheets", ())
            if isinstance(change, dict) and change.get("path") is not None}  # None: a hero held by name


def path_key(path: str) -> str | bytes:
    """A sheet's path as `sheet_entries` keeps it: its text, or, for a name that is not UTF-8 (a folder named in
    Latin-1, which Python reads with surrogate escapes), its very bytes as a BLOB: kept and found again without
    loss, where text would be refused (or, with U+FFFD, would name another file)."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path)


def refuse_odd_file(path: Path) -> None:
    """The store is a regular file crux made: never a link to elsewhere, a FIFO (which would hang) or a device."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise StoreError(f"cannot use the state store {path}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
        raise StoreError(f"the state store {path} is {what}: crux leaves it alone and keeps no journal",
                         hint="remove or rename it, and crux makes a new one")


def shifted(ident: str, step: int) -> str:
    """The id `step` numbers on ("game-2", 3 → "game-5")."""
    if not step:
        return ident
    prefix, _, number = ident.rpartition("-")
    return f"{prefix}-{int(number) + step}"


def whole(db: sqlite3.Connection) -> bool:
    """Has the store every table of its first step, and `meta`'s count of rolls as a number (state.damage
    `repair` makes again what it lacks)?"""
    tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                        "('entries', 'sheet_entries', 'fights', 'intents', 'meta')").fetchone()[0]
    return tables == 5 and db.execute("SELECT 1 FROM meta WHERE key = 'rolls' AND "
                                      "CAST(value AS INTEGER) || '' = value").fetchone() is not None
