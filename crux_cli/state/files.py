"""Opening the files crux keeps (sheets, encounters, history, aliases) only when they are plain files.

A sheet named on the command line may be anything: a FIFO (reading it would
hang), a device (/dev/zero never ends; renaming over /dev/null replaces it), a
huge file. Every file crux reads or appends to is checked with `stat` before it
is opened (opening a device can have effects of its own), opened with
`O_NONBLOCK` (a FIFO swapped in meanwhile cannot hang the open) and checked
again with `fstat` on the descriptor, and read up to a size limit.
"""

from __future__ import annotations

import errno
import os
import stat

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
    nofollow = 0 if follow else os.O_NOFOLLOW
    try:
        descriptor = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC | nofollow, mode)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow:  # created as a link after the check above
            raise NotAFile(stat.S_IFLNK) from None
        raise
    try:
        check_regular(os.fstat(descriptor))
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
    """Make a rename or a new name in `directory` durable (its entry is on disk, not only the file)."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    except OSError as error:  # some file systems cannot fsync a directory; the rename is still atomic
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(descriptor)
