"""A sheet's lock (and the lock of any file crux replaces: a fight file, the aliases, an autosave), kept in crux's
state folder, never beside the user's file (issue 38): `locks/` there, each named by a hash of the file's real
path. The lock file holds the id of the process that holds it, so a wait longer than NOTICE_AFTER says whom it
waits for, and one holder keeping it `CRUX_LOCK_WAIT` seconds (a process stopped or stuck) is refused in plain
words (issue 37). The `.NAME.lock` files older crux left beside sheets are removed when met (`remove_sidecar`).
Locks go through state.locking (POSIX locks, or msvcrt's on Windows).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from crux_cli.core.errors import SheetError
from crux_cli.state.files import NotAFile, open_regular, owned_here, private_dir, user_folder
from crux_cli.state.locking import acquire, holder, mark_holder, try_acquire

try:  # the hash random has loaded already (hashlib costs a one-shot 17 ms): as random.py itself finds it
    from _sha2 import sha512  # type: ignore[import-not-found, unused-ignore]
except ImportError:
    try:
        from _sha512 import sha512  # type: ignore[import-not-found, no-redef, unused-ignore]
    except ImportError:
        from hashlib import sha512  # type: ignore[assignment, unused-ignore]

LOCKS = "locks"  # the folder of the state folder that holds the lock files of sheets and crux's own files
NOTICE_AFTER = 1.0  # seconds a lock is waited for before saying who holds it
LOCK_WAIT = 10.0  # seconds a lock is waited for before the command gives up (CRUX_LOCK_WAIT)
TEMPORARY_NAME = "[a-z0-9_]{8}"  # what state.files.new_temporary (as tempfile.mkstemp) puts between prefix and suffix


def lock_folder() -> Path:
    """Where the lock files are: `locks` in crux's state folder (state.db `state_dir`: the same folder)."""
    return Path(user_folder("STATE", os.environ)) / LOCKS


def lock_path(sheet: Path) -> Path:
    """The lock file of the file at the real path `sheet`: named by a hash of the path's bytes, so any name
    (not UTF-8, very long) gives a short one, and two sheets never share one."""
    return lock_folder() / f"{sha512(os.fsencode(sheet)).hexdigest()[:32]}.lock"


def open_lock(sheet: Path) -> int:
    """A descriptor on the file's lock file in the state folder (made, private, when missing)."""
    path = lock_path(sheet)
    try:
        return open_regular(path, os.O_RDWR | os.O_CREAT, 0o600, follow=False)
    except FileNotFoundError:
        private_dir(path.parent)
        return open_regular(path, os.O_RDWR | os.O_CREAT, 0o600, follow=False)
    except PermissionError:  # a lock file this user may only read locks all the same (`flock` needs no more)
        return open_regular(path, os.O_RDONLY, 0o600, follow=False)


def lock_wait(environ: dict[str, str] | os._Environ[str] = os.environ) -> float:
    """How long a lock is waited for: `CRUX_LOCK_WAIT` seconds (0 or more), else LOCK_WAIT."""
    try:
        wanted = float(environ.get("CRUX_LOCK_WAIT", LOCK_WAIT))
    except ValueError:
        return LOCK_WAIT
    return wanted if 0 <= wanted < 1e9 else LOCK_WAIT


def wait_for(descriptor: int, shown: str, what: str = "sheet") -> None:
    """Take the lock at `descriptor`, waiting while another crux holds it: after NOTICE_AFTER seconds saying so
    on stderr (and its process id); when one holder has kept it `lock_wait()` seconds (a process stopped or
    stuck), refusing in plain words (a SheetError). A lock that passes from crux to crux (fifty at once) is
    waited for as long as it moves."""
    if try_acquire(descriptor):
        mark_holder(descriptor)
        return
    limit, pause, said = lock_wait(), 0.001, False
    started = since = time.monotonic()
    pid = holder(descriptor)
    while True:
        time.sleep(pause)
        pause = min(2 * pause, 0.05)
        if try_acquire(descriptor):
            mark_holder(descriptor)
            return
        now, was = time.monotonic(), pid
        pid = holder(descriptor)
        if pid != was:
            since = now  # another holder: the lock moves
        if not said and now - started >= min(NOTICE_AFTER, limit):
            sys.stderr.write(f"crux: waiting for another crux holding {shown}{f' (pid {pid})' if pid else ''}…\n")
            sys.stderr.flush()
            said = True
        if now - since >= limit:
            raise SheetError(f"another crux{f' (pid {pid})' if pid else ''} has held the {what} for more than "
                             f"{limit:g} s: crux gives up", path=shown,
                             hint="let that crux finish (or stop it), then try again; CRUX_LOCK_WAIT sets the wait")


@contextlib.contextmanager
def locked(sheet: Path, shown: str, what: str = "sheet", *, wait: bool = True) -> Iterator[None]:
    """Hold the file's exclusive lock (waiting for it as `wait_for` does, or with `wait` False raising OSError
    when it is held) for the body of the `with`."""
    try:
        descriptor = open_lock(sheet)
    except OSError as error:
        raise SheetError(f"cannot lock the {what}: {lock_path(sheet)} {lock_problem(error)}", path=shown,
                         hint="crux needs to make a lock file in its state folder") from None
    try:
        if wait:
            wait_for(descriptor, shown, what)
        else:
            acquire(descriptor, wait)
            mark_holder(descriptor)
        remove_sidecar(sheet)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def lock_problem(error: OSError) -> str:
    return str(error.strerror) if isinstance(error, NotAFile) else f"cannot be opened: {error.strerror}"


def sidecar_path(target: Path) -> Path:
    """The lock file older crux made beside a file (`.NAME.lock`)."""
    return target.with_name(f".{target.name}.lock")


def remove_sidecar(target: Path) -> None:
    """Remove the `.NAME.lock` an older crux left beside `target`: only a file crux made (that very name, empty, a
    regular file of this user's), and only when no older crux holds it now."""
    path = sidecar_path(target)
    try:
        status = os.lstat(path)
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(status.st_mode) or status.st_size or not owned_here(status):
        return
    removable = False
    with contextlib.suppress(OSError):
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            removable = try_acquire(descriptor) and os.fstat(descriptor).st_size == 0
            if removable:
                os.unlink(path)  # while held: an older crux waiting for it locks a file no longer there
        finally:
            os.close(descriptor)
    if removable and os.path.lexists(path):
        with contextlib.suppress(OSError):
            os.unlink(path)  # Windows removes no file held open: once closed


def remove_leftovers(sheet: Path) -> None:
    """Delete temporary files of writers killed before their rename (only lock holders write them).

    The name is matched exactly: `.x.y.toml.abcd1234.tmp` is sheet `x.y.toml`'s, not sheet `x`'s.
    """
    leftover = re.compile(rf"\.{re.escape(sheet.name)}\.{TEMPORARY_NAME}\.tmp")
    with contextlib.suppress(OSError), os.scandir(sheet.parent) as entries:
        for entry in entries:
            if leftover.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
