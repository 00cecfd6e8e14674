"""Exclusive file locks that work wherever Python does: `fcntl.flock` on POSIX, `msvcrt.locking` on Windows.

Every lock crux takes (a sheet's lock file in the state folder, the session's liveness file, the REPL history) goes
through `acquire`, so no module imports `fcntl` and crux rolls on Windows too. The lock belongs to
the open descriptor: closing it (or the process ending, however it ends) releases it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time

try:  # POSIX
    import fcntl as _fcntl
except ImportError:  # Windows: no fcntl, and msvcrt instead (a module only Windows has)
    _fcntl = None  # type: ignore[assignment]
    import msvcrt  # type: ignore[import-not-found, unused-ignore]


def acquire(descriptor: int, wait: bool = True) -> None:
    """Lock `descriptor` exclusively; with `wait` False, raise OSError at once when someone holds it."""
    if _fcntl is not None:
        _fcntl.flock(descriptor, _fcntl.LOCK_EX | (0 if wait else _fcntl.LOCK_NB))
        return
    _windows_lock(descriptor, wait)


HELD = (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK)  # what a lock another process holds raises


def try_acquire(descriptor: int) -> bool:
    """Lock `descriptor` exclusively if nobody holds it (True), else False at once; OSError for anything else."""
    try:
        acquire(descriptor, wait=False)
    except OSError as error:
        if error.errno in HELD:
            return False
        raise
    return True


def mark_holder(descriptor: int) -> None:
    """Write this process's id into the lock file it now holds (read by `holder`): after byte 0, which
    Windows' byte-range lock keeps from every other process."""
    with contextlib.suppress(OSError):  # a lock file opened read-only (another user's): it says no holder
        os.lseek(descriptor, 0, os.SEEK_SET)
        os.write(descriptor, b"\n%d\n" % os.getpid())


def holder(descriptor: int) -> int | None:
    """The id of the process that last held the lock file open at `descriptor` (None when it says none)."""
    try:
        os.lseek(descriptor, 1, os.SEEK_SET)
        text = os.read(descriptor, 24)
    except OSError:
        return None
    first = text.split(b"\n", 1)[0].strip()
    return int(first) if first.isdigit() else None


def _windows_lock(descriptor: int, wait: bool) -> None:
    """msvcrt locks a byte range: byte 0 of the file, from its start (the file may be empty)."""
    os.lseek(descriptor, 0, os.SEEK_SET)
    while True:
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined, unused-ignore]
            return
        except OSError as error:
            if not wait or error.errno not in (errno.EACCES, errno.EDEADLK, errno.EAGAIN):
                raise  # taken and not waiting, or not a lock someone holds: say so, never spin
            time.sleep(0.05)  # LK_LOCK gives up after ten seconds; a sheet's lock may be held longer


def unlock(descriptor: int) -> None:
    """Release the lock but keep the descriptor open, to lock it again (a batch on a sheet, statement after
    statement)."""
    if _fcntl is not None:
        _fcntl.flock(descriptor, _fcntl.LOCK_UN)
        return
    os.lseek(descriptor, 0, os.SEEK_SET)
    msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined, unused-ignore]


def release(descriptor: int) -> None:
    """Close the descriptor, which releases its lock on every platform."""
    with contextlib.suppress(OSError):
        os.close(descriptor)
