"""The store's errors and small values: time stamps ("2026-11-23T17:02:03.123Z", made quickly: a batch stamps
thousands a second), text as SQLite and JSON can hold it, written and read, and a file's identity."""

from __future__ import annotations

import os
import time
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
