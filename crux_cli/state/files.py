"""Opening the files crux keeps (sheets, encounters, history, aliases) only when they are plain files.

A sheet named on the command line may be anything: a FIFO (reading it would
hang), a device (/dev/zero never ends; renaming over /dev/null replaces it), a
huge file. Every file crux reads or appends to is checked with `stat` before it
is opened (opening a device can have effects of its own), opened with
`O_NONBLOCK` (a FIFO swapped in meanwhile cannot hang the open) and checked
again with `fstat` on the descriptor, and read up to a size limit.

crux runs wherever Python does. The POSIX-only flags and calls (`O_NOFOLLOW`, `O_NONBLOCK`, `O_NOCTTY`,
`O_CLOEXEC`, `O_DIRECTORY`, `fchmod`, `geteuid`) are read here, once, as 0 or None where the platform
lacks them (Windows): there a name is still checked with `stat` before it is opened, a folder's
entries are made durable by the file system's own journal, and files are private by the user's profile.

The user's folders follow the XDG base-directory rule (`user_folder`), the one home of that rule.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

NONBLOCK = getattr(os, "O_NONBLOCK", 0)
NOCTTY = getattr(os, "O_NOCTTY", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
DIRECTORY = getattr(os, "O_DIRECTORY", 0)
fchmod = getattr(os, "fchmod", None)
geteuid = getattr(os, "geteuid", None)
XDG_DEFAULTS = {"CONFIG": (".config",), "DATA": (".local", "share"), "STATE": (".local", "state")}

MAX_FILE_BYTES = 1_000_000  # a sheet is about 1.5 KB; anything above 1 MB is not one
KINDS = {stat.S_IFDIR: "a directory", stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket", stat.S_IFLNK: "a symbolic link"}


class NotAFile(OSError):
    """The path names something other than a regular file; `strerror` says what it is."""

    def __init__(self, mode: int) -> None:
        self.kind = kind_of(mode)
        super().__init__(errno.EINVAL, f"is {self.kind}, not a regular file")


class TooLarge(OSError):
    def __init__(self, limit: int) -> None:
        super().__init__(errno.EFBIG, f"is larger than {limit // 1_000_000} MB")
        self.limit = limit


def kind_of(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def check_regular(status: os.stat_result) -> os.stat_result:
    if not stat.S_ISREG(status.st_mode):
        raise NotAFile(status.st_mode)
    return status


def open_regular(path: str | os.PathLike[str], flags: int, mode: int = 0o600, *, follow: bool = True) -> int:
    """A descriptor on the regular file at `path`, or `NotAFile`; never blocks on a FIFO.

    With `follow=False` a symbolic link is refused too (`O_NOFOLLOW`): crux's own
    data folder holds its own files, not links to someone's .bashrc.
    """
    try:
        check_regular(os.stat(path, follow_symlinks=follow))
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    nofollow = 0 if follow else NOFOLLOW
    try:
        descriptor = os.open(path, flags | NONBLOCK | NOCTTY | CLOEXEC | nofollow, mode)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow:  # created as a link after the check above
            raise NotAFile(stat.S_IFLNK) from None
        raise
    try:
        check_regular(os.fstat(descriptor))
        if NONBLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def read_regular(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, *, follow: bool = True) -> bytes:
    """The bytes of the regular file at `path`, refused (`TooLarge`) beyond `limit` without reading it all."""
    descriptor = open_regular(path, os.O_RDONLY, follow=follow)
    try:
        if os.fstat(descriptor).st_size > limit:
            raise TooLarge(limit)
        chunks, size = [], 0
        while size <= limit:  # the file may grow while it is read
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise TooLarge(limit)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def fsync_directory(directory: str | os.PathLike[str]) -> None:
    """Make a rename or a new name in `directory` durable (its entry is on disk, not only the file).

    Where a folder cannot be opened (Windows, no `O_DIRECTORY`) the file system journals its entries itself."""
    if not DIRECTORY:
        return
    descriptor = os.open(directory, os.O_RDONLY | DIRECTORY | CLOEXEC)
    try:
        os.fsync(descriptor)
    except OSError as error:  # some file systems cannot fsync a directory; the rename is still atomic
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(descriptor)


def user_folder(kind: str, environ: Mapping[str, str] = os.environ) -> str:
    """crux's folder of one XDG kind ("CONFIG", "DATA", "STATE"): `$XDG_<KIND>_HOME/crux`, or the spec's
    default under the home folder when the variable is unset or relative (the spec says to ignore it).

    A plain string: pathlib costs a one-shot command 6 ms to import, and the config path is read by every one."""
    base = environ.get(f"XDG_{kind}_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(environ.get("HOME") or os.path.expanduser("~"), *XDG_DEFAULTS[kind])
    return os.path.join(base, "crux")


def owned_here(status: os.stat_result) -> bool:
    """Is the file this user's? (Always, where files have no owner id: Windows.)"""
    return geteuid is None or status.st_uid == geteuid()


def private_dir(folder: Path) -> Path:
    """Make `folder` (and its parents, mode 0700) if it is missing, and close it to others if it is the user's.

    A folder of another user's is refused, never chmod-ed. The mode is changed on a descriptor of the folder
    itself, not through its name, which could be swapped for a link meanwhile."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not DIRECTORY or fchmod is None:  # Windows: the user's profile is private already; no modes to set
        return folder
    descriptor = os.open(folder, os.O_RDONLY | DIRECTORY | CLOEXEC)
    try:
        status = os.fstat(descriptor)
        if not owned_here(status):
            raise PermissionError(errno.EPERM, "the folder belongs to another user")
        if stat.S_IMODE(status.st_mode) != 0o700:
            fchmod(descriptor, 0o700)
    finally:
        os.close(descriptor)
    return folder


def private_file(path: Path) -> Path:
    """Create `path` (and its folder) private to the user: rolls and sheet names are nobody else's.

    Never through a symbolic link, and only a regular file of the user's own with one name: the mode is
    changed on the descriptor opened, not on whatever the name points to.
    """
    private_dir(path.parent)
    descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600, follow=False)
    try:
        status = os.fstat(descriptor)
        if not owned_here(status):
            raise PermissionError(errno.EPERM, "the file belongs to another user")
        if status.st_nlink > 1:
            raise PermissionError(errno.EPERM, "the file has other names (hard links)")
        if fchmod is not None and stat.S_IMODE(status.st_mode) != 0o600:
            fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)
    return path
