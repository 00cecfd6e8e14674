"""Opening the files crux keeps (sheets, encounters, history, aliases) only when they are plain files, and
replacing one all at once (`write_atomically`).

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

The user's folders are where each platform keeps them (`user_folder`, the one home of that rule): XDG on
Linux and other POSIX systems, the platform's own on macOS and Windows, an XDG variable set
honoured everywhere, and an older crux's folder at the XDG place kept where it exists.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from crux_cli.core.errors import SheetError

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
    """crux's folder of one kind ("CONFIG", "DATA", "STATE"), where the platform keeps such folders:

    - `$XDG_<KIND>_HOME/crux` when the variable is set to an absolute path, on every platform;
    - on Linux and other POSIX systems, the XDG default under the home folder (`~/.config/crux`,
      `~/.local/share/crux`, `~/.local/state/crux`): unchanged, so existing stores keep working;
    - on macOS `~/Library/Application Support/crux`; on Windows `%APPDATA%\\crux` (config and data, which
      roam with the user) and `%LOCALAPPDATA%\\crux` (state: the store) -- unless an older crux made its
      folder at the XDG default already: that one is kept, store, history and tables with it.

    A plain string: pathlib costs a one-shot command 6 ms to import, and the config path is read by every one."""
    base = environ.get(f"XDG_{kind}_HOME", "")
    if os.path.isabs(base):
        return os.path.join(base, "crux")
    xdg = os.path.join(environ.get("HOME") or os.path.expanduser("~"), *XDG_DEFAULTS[kind], "crux")
    if PLATFORM not in NATIVE_FOLDERS or os.path.isdir(xdg):
        return xdg
    return native_folder(kind, PLATFORM, environ)


PLATFORM = sys.platform  # read once; the Windows simulation (tests/test_state_store.py) sets "win32"
NATIVE_FOLDERS = ("win32", "darwin")
# Windows: the variable the shell sets for each kind (APPDATA roams with the user's profile, LOCALAPPDATA stays on
# the machine), and the profile's folder it names when unset
WINDOWS_FOLDERS = {"CONFIG": ("APPDATA", "Roaming"), "DATA": ("APPDATA", "Roaming"), "STATE": ("LOCALAPPDATA", "Local")}


def native_folder(kind: str, platform: str, environ: Mapping[str, str] = os.environ) -> str:
    """crux's folder of one kind as macOS or Windows keeps it, by the rule platformdirs follows without its import
    (20 ms: every command reads the config's path): macOS one folder for all three kinds, Windows
    `%APPDATA%\\crux` or `%LOCALAPPDATA%\\crux` (`~\\AppData\\Roaming` or `~\\AppData\\Local` when unset)."""
    home = environ.get("USERPROFILE" if platform == "win32" else "HOME") or os.path.expanduser("~")
    if platform != "win32":
        return os.path.join(home, "Library", "Application Support", "crux")
    variable, fallback = WINDOWS_FOLDERS[kind]
    return os.path.join(environ.get(variable) or os.path.join(home, "AppData", fallback), "crux")


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
    if os.path.islink(folder):  # a link the user made (the state on another disk): used, never chmod-ed through
        if not owned_here(os.stat(folder)):
            raise PermissionError(errno.EPERM, "the folder a link leads to belongs to another user")
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


# -- replacing a file all at once ---------------------------------------------------------------------

ACL = "system.posix_acl_access"


def article(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def warn(message: str) -> None:
    """A problem after the change was made: said on the standard error, never as a failure."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"crux: warning: {message}\n")
        sys.stderr.flush()


def existing_file(target: Path, shown: str, what: str) -> os.stat_result | None:
    """The status of the file a write would replace (None when there is none), or a refusal.

    A rename would get past the file's own mode, split a file with several names
    into two, and replace a device or a FIFO with a file: none of that is allowed.
    """
    try:
        status = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SheetError(f"cannot write the {what}: {error.strerror}", path=shown) from None
    if not stat.S_ISREG(status.st_mode):
        raise SheetError(f"{NotAFile(status.st_mode).strerror}: crux will not replace it with {article(what)}",
                         path=shown)
    writable = os.access(target, os.W_OK, effective_ids=os.access in os.supports_effective_ids)
    if not writable or not status.st_mode & 0o222:  # a file nobody may write stays so, even for root
        raise SheetError(f"the {what} is read-only: crux will not change it", path=shown,
                         hint="make it writable for you (chmod), or roll without --sheet"
                         if what == "sheet" else "make it writable for you (chmod)")
    if status.st_nlink > 1:
        raise SheetError(f"the {what} has {status.st_nlink} names (hard links): replacing it would split them",
                         path=shown, hint=f"give the {what} a file of its own (cp), then use that")
    return status


def keep_owner(descriptor: int, status: os.stat_result, shown: str, what: str) -> None:
    """Give the new file the old one's owner and group: a change by root leaves the owner's sheet theirs."""
    mine = os.fstat(descriptor)
    if (mine.st_uid, mine.st_gid) == (status.st_uid, status.st_gid):
        return
    try:
        os.fchown(descriptor, status.st_uid, status.st_gid)
    except PermissionError:
        raise SheetError(f"crux cannot keep the {what}'s owner and group, so it will not replace it",
                         path=shown, hint=f"a write replaces the {what} with a new file: let its owner "
                         "roll on it, or copy it (cp) and use the copy") from None


def keep_attributes(descriptor: int, target: Path, shown: str, what: str) -> None:
    """Copy the old file's extended attributes, which a rename over it would drop: its access ACL (the
    mode alone would lose it) and the user's own (`user.*`: a tag, a checksum, a sync tool's mark).
    `security.*` and `trusted.*` are the system's to set. Where the platform has them (os.listxattr)."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(target, follow_symlinks=False)
    except OSError:  # a file system without them
        return
    lost = []
    for name in names:
        if name != ACL and not name.startswith("user."):
            continue
        try:
            os.setxattr(descriptor, name, os.getxattr(target, name, follow_symlinks=False))
        except OSError:
            if name == ACL:
                raise  # as ever: the ACL says who may read the sheet, and a copy without it is refused
            lost.append(name)
    if lost:
        warn(f"{shown}: the {what} is written without its extended attributes {', '.join(lost)}: "
             "the file system took them on the old file but not on the new")


TEMPORARY_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # as tempfile's; sheet_locks.TEMPORARY_NAME finds them
NEW_FILE = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def new_temporary(target: Path) -> tuple[int, str]:
    """A new private file `.NAME.XXXXXXXX.tmp` beside `target`, as tempfile.mkstemp makes it (O_EXCL, 0600),
    without importing tempfile: with random, shutil and the compressors, 9 M instructions on every one-shot
    that changes a sheet (bench_startup.py)."""
    for _ in range(100):
        letters = "".join(TEMPORARY_LETTERS[byte % len(TEMPORARY_LETTERS)] for byte in os.urandom(8))
        name = os.path.join(target.parent, f".{target.name}.{letters}.tmp")
        try:
            return os.open(name, NEW_FILE, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))


def written_beside(target: Path, text: str, shown: str, what: str, status: os.stat_result | None,
                   mode: int) -> tuple[str, os.stat_result]:
    """`text` in a new temporary file beside `target`, with the mode, owner and attributes it is to keep,
    synced to disk: its name and status (a failure removes it)."""
    descriptor, temporary = new_temporary(target)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            if status is not None:
                keep_owner(file.fileno(), status, shown, what)
            if fchmod is not None:  # Windows has no modes to set
                fchmod(file.fileno(), mode)
            if status is not None:
                keep_attributes(file.fileno(), target, shown, what)
            os.fsync(file.fileno())
            return temporary, os.fstat(file.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_atomically(target: Path, text: str, shown: str, *, what: str = "sheet", exclusive: bool = False,
                     new_mode: int | None = None, unchanged: str | None = None) -> os.stat_result:
    """Put `text` at `target` all at once: temp file, fsync, rename (or link, to refuse an existing file).

    A new file gets `new_mode` (default 0666 less the umask); a replaced one keeps
    its mode, owner, group, ACL and the user's extended attributes. Returns the status of the file
    written, taken before its rename. With `unchanged` (the text crux read), the file must still hold it just
    before the rename: an editor's save, even one keeping size and times, is never replaced without a word."""
    status = None if exclusive else existing_file(target, shown, what)
    if status is not None:
        mode = stat.S_IMODE(status.st_mode)
    else:
        mode = new_mode if new_mode is not None else 0o666 & ~current_umask()
    temporary = None
    try:
        temporary, written = written_beside(target, text, shown, what, status, mode)
        if unchanged is not None:
            refuse_if_changed(target, unchanged, shown, what)
        if exclusive:
            os.link(temporary, target)  # fails if the name exists: never overwrite one by surprise
        else:
            os.replace(temporary, target)
            temporary = None
    except FileExistsError:
        raise SheetError(f"the {what} already exists", path=shown,
                         hint="choose another file name, or remove that one first") from None
    except OSError as error:
        raise SheetError(f"cannot write the {what}: {error.strerror}", path=shown,
                         hint=f"crux writes a new copy beside the {what} and renames it: "
                         "the folder must be writable and have room") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    try:
        fsync_directory(target.parent)
    except OSError as error:  # the rename is done: the change is made, and a retry would make it twice
        warn(f"{shown}: the {what} was written, but its folder could not be synced to disk: {error.strerror}")
    return written


def refuse_if_changed(target: Path, text: str, shown: str, what: str) -> None:
    """A SheetError unless the file at `target` holds exactly `text` (what crux read of it, and changed)."""
    try:
        same = read_regular(target, follow=False) == text.encode("utf-8", "surrogateescape")
    except OSError:  # gone, swapped for something else, grown past any sheet: not what was read
        same = False
    if not same:
        raise SheetError(f"the {what} changed while crux was changing it (another program wrote it): crux has "
                         "not written over it", path=shown, hint=f"run the statement again: crux reads the {what} "
                         "as it is now")


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
