"""Sheets that are not what crux expects: FIFOs, devices, huge files, links, other people's files.

Permissions only mean something to an ordinary user (root passes every check),
so the tests about them run crux as one: as root they drop to `nobody` in the
child process; as anyone else they run as that user. A test that needs root
to set up (a file owned by someone else, a device node) says so and is skipped
otherwise. Device nodes are made privately in a temporary folder, never taken
from /dev.
"""

from __future__ import annotations

import errno
import os
import pwd
import shutil
import stat
import struct
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pexpect
import pytest

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.state import store
from crux_cli.state.sheet import new_sheet_text
from crux_cli.state.store import create_sheet, load_hero, lock_path, sheet_transaction, write_atomically

CRUX = Path(sys.executable).parent / "crux"
SOURCE = Path(__file__).resolve().parent.parent
ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="needs root: a file owned by another user, or a device node")


def player_ids() -> tuple[int, int]:
    """The ordinary user the permission tests run as: `nobody` under root, else whoever runs the tests."""
    if ROOT:
        nobody = pwd.getpwnam("nobody")
        return nobody.pw_uid, nobody.pw_gid
    return os.getuid(), os.getgid()


def player_python() -> str:
    """An interpreter the player may run: under root the test's own may live in root's private home."""
    if not ROOT:
        return sys.executable
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        version = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True) if os.path.exists(candidate) else None
        if version is not None and version.stdout.strip() == str(sys.version_info[:2]):
            return candidate
    pytest.skip(f"needs a Python {sys.version_info[0]}.{sys.version_info[1]} that `nobody` may run")


def as_player(*args: str, cwd: Path, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """`crux ARGS` run by an ordinary user (permissions apply to them, unlike to root)."""
    uid, gid = player_ids()
    python = player_python()

    def drop() -> None:
        if ROOT:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)

    environment = {k: v for k, v in os.environ.items() if k not in ("CRUX_SHEET", "CRUX_RULES")}
    environment.update(HOME=str(cwd), PYTHONDONTWRITEBYTECODE="1", XDG_DATA_HOME=str(cwd / "data"),
                       XDG_STATE_HOME=str(player_state(cwd)),  # the player's own: their journal and lock files
                       PYTHONPATH=os.pathsep.join([str(SOURCE), sysconfig.get_paths()["purelib"]]))
    return subprocess.run([python, "-m", "crux_cli", *args], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=drop)


def player_state(cwd: Path) -> Path:
    """The player's state folder, beside (not in) the folder they play in."""
    state = cwd.parent / "player-state"
    if not state.exists():
        state.mkdir(mode=0o700)
        give(state)
    return state


def players_lock(cwd: Path, sheet: Path) -> Path:
    """The lock file the player's crux takes for `sheet` (in the player's state folder)."""
    with mock.patch.dict(os.environ, {"XDG_STATE_HOME": str(player_state(cwd))}):
        return lock_path(sheet)


def crux(*args: str, cwd: Path, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("CRUX_SHEET", "CRUX_RULES")}
    return subprocess.run([str(CRUX), *args], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder the player owns, reachable by them (pytest's own tmp_path is private to root)."""
    base = Path(tempfile.mkdtemp(prefix="crux-files-"))
    base.chmod(0o755)
    inside = base / "campaign"
    inside.mkdir()
    give(inside)
    yield inside
    for path in (inside, *inside.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(base)


def give(path: Path) -> Path:
    """Make `path` the player's (a no-op unless the tests run as root)."""
    if ROOT:
        os.chown(path, *player_ids(), follow_symlinks=False)
    return path


def players_sheet(folder: Path, name: str = "wren.toml", mode: int = 0o644) -> Path:
    sheet = folder / name
    sheet.write_text(new_sheet_text(Hero(name="Wren", hp=10, hp_max=10)))
    sheet.chmod(mode)
    return give(sheet)


# --- not a regular file ------------------------------------------------------------------------


def test_a_fifo_given_as_a_sheet_is_refused_at_once_without_hanging(folder: Path) -> None:
    fifo = folder / "wren.toml"
    os.mkfifo(fifo)
    for args in (("--sheet", "wren.toml", "damage 1"), ("sheet", "check", "wren.toml")):
        done = crux(*args, cwd=folder, timeout=60)  # a hang is caught by the timeout alone
        assert done.returncode == 2 and "is a named pipe (FIFO), not a sheet" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not lock_path(fifo).exists() or lock_path(fifo).stat().st_size == 0


@needs_root
def test_a_device_node_given_as_a_sheet_is_refused_and_stays_a_device(folder: Path) -> None:
    null = folder / "null"  # a private copy of /dev/null's device numbers, in a temporary folder
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("needs the right to mknod")
    for statement in ("damage 1", "DEX", "show"):
        done = crux("--sheet", str(null), statement, cwd=folder)
        assert done.returncode == 2 and "is a character device, not a sheet" in done.stderr, done.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)


def test_crux_never_renames_a_sheet_over_something_that_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "wren.toml"  # say a FIFO took the sheet's place between the read and the write
    os.mkfifo(fifo)
    with pytest.raises(SheetError, match="is a named pipe"):
        write_atomically(fifo, new_sheet_text(Hero()), str(fifo))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["wren.toml"]  # no temporary file left either


def test_a_sheet_larger_than_1_mb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    sheet = tmp_path / "huge.toml"
    text = new_sheet_text(Hero(name="Wren"))
    sheet.write_text(text + "#" * (1_000_001 - len(text.encode())))
    from helpers import counting

    with counting() as work:
        with pytest.raises(SheetError, match="larger than 1 MB"):
            load_hero(sheet)
        with pytest.raises(SheetError, match="larger than 1 MB"), sheet_transaction(sheet):
            pass
    assert work.calls < 20_000  # refused before it is read: no line of it parsed
    sheet.write_text(text + "#" * (1_000_000 - len(text.encode())))  # exactly 1 MB is still read
    assert load_hero(sheet).name == "Wren"


def test_a_directory_or_a_nul_in_the_name_is_refused_in_plain_words(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match="is a directory, not a sheet"):
        load_hero(tmp_path)
    with pytest.raises(SheetError, match="NUL"):
        load_hero("wren\0.toml")


# --- links and names -----------------------------------------------------------------------------


def test_sheet_new_does_not_follow_a_dangling_symlink(folder: Path) -> None:
    (folder / "wren.toml").symlink_to(folder / "elsewhere.toml")
    done = crux("sheet", "new", "wren.toml", "--name", "Wren", "--no-ask", cwd=folder)
    assert done.returncode == 2 and "is a symbolic link" in done.stderr
    with pytest.raises(SheetError, match="already exists"):
        create_sheet(folder / "wren.toml", new_sheet_text(Hero(name="Wren")))
    assert not (folder / "elsewhere.toml").exists()


def test_a_sheet_with_several_names_is_not_split_by_a_write(tmp_path: Path) -> None:
    sheet = players_sheet(tmp_path)
    other = tmp_path / "party-wren.toml"
    os.link(sheet, other)
    before = sheet.read_text()
    with pytest.raises(SheetError, match="2 names"), sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(hp=3))
    assert sheet.read_text() == other.read_text() == before
    with sheet_transaction(other) as tx:  # reading and rolling without a change still work
        tx.save(tx.hero)


def test_only_this_sheets_own_leftovers_are_removed(tmp_path: Path) -> None:
    sheet = players_sheet(tmp_path, "x")
    mine = tmp_path / ".x.abcd1234.tmp"
    others = [tmp_path / ".x.y.toml.abcd1234.tmp", tmp_path / ".x.abcd1234.tmp.keep", tmp_path / ".x.toml.tmp"]
    for path in (mine, *others):
        path.write_text("half a sheet")
    with sheet_transaction(sheet):
        pass
    assert not mine.exists() and all(path.exists() for path in others)


# --- permissions ---------------------------------------------------------------------------------


def test_a_lock_file_the_player_cannot_write_does_not_lock_them_out(folder: Path) -> None:
    sheet = players_sheet(folder)
    lock = players_lock(folder, sheet)
    lock.parent.mkdir(parents=True, exist_ok=True)
    for made in (lock.parent.parent, lock.parent):
        give(made)
    lock.touch()
    lock.chmod(0o444)  # as root: root's lock, read-only to the player; else: the player's own, read-only
    done = as_player("--sheet", "wren.toml", "damage 2", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert load_hero(sheet).hp == 8


def test_a_new_lock_file_is_private_and_kept_in_the_state_folder(tmp_path: Path) -> None:
    sheet = players_sheet(tmp_path)  # issue 38: nothing of crux's beside the sheet; the lock is crux's own file
    with sheet_transaction(sheet):
        pass
    lock = lock_path(sheet)
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600 and lock.parent.name == "locks"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wren.toml"]


def test_a_sheet_in_a_read_only_folder_is_read_and_only_changes_are_refused(folder: Path) -> None:
    sheet = players_sheet(folder)
    folder.chmod(0o555)
    shown = as_player("--sheet", "wren.toml", "show", cwd=folder)
    assert shown.returncode == 0 and "Wren" in shown.stdout, shown.stderr
    odds = as_player("--sheet", "wren.toml", "odds", "DEX", cwd=folder)
    assert odds.returncode == 0, odds.stderr
    hurt = as_player("--sheet", "wren.toml", "damage 2", cwd=folder)
    # the lock is crux's own, in the player's state folder: the write itself is refused, in plain words
    assert hurt.returncode == 2 and "cannot write the sheet: Permission denied" in hurt.stderr, hurt.stderr
    assert "Traceback" not in hurt.stderr and "internal error" not in hurt.stderr
    again = as_player("--sheet", "wren.toml", "damage 2", cwd=folder)  # nothing left half done by the first
    assert again.returncode == 2 and "cut short" not in again.stderr and "settled" not in again.stderr, again.stderr
    assert load_hero(sheet).hp == 10 and sorted(p.name for p in folder.iterdir()) == ["wren.toml"]


@needs_root
def test_a_sheet_the_player_may_not_write_is_never_replaced(folder: Path) -> None:
    sheet = folder / "wren.toml"  # root's sheet, 0644, in the player's folder: the rename would be allowed
    sheet.write_text(new_sheet_text(Hero(name="Wren")))
    sheet.chmod(0o644)
    done = as_player("--sheet", "wren.toml", "damage 2", cwd=folder)
    assert done.returncode == 2 and "read-only" in done.stderr, done.stderr
    assert sheet.stat().st_uid == 0 and load_hero(sheet).hp == 10


@needs_root
def test_a_sheet_whose_owner_cannot_be_kept_is_not_replaced(folder: Path) -> None:
    sheet = folder / "wren.toml"  # root's, writable by everyone: the player could write it, not own it
    sheet.write_text(new_sheet_text(Hero(name="Wren")))
    sheet.chmod(0o666)
    done = as_player("--sheet", "wren.toml", "damage 2", cwd=folder)
    assert done.returncode == 2 and "cannot keep the sheet's owner" in done.stderr, done.stderr
    assert sheet.stat().st_uid == 0 and load_hero(sheet).hp == 10


@needs_root
def test_root_rolling_on_a_players_sheet_leaves_it_theirs(folder: Path) -> None:
    sheet = players_sheet(folder, mode=0o640)
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(hp=4))
    status = sheet.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (*player_ids(), 0o640)
    done = as_player("--sheet", "wren.toml", "show", cwd=folder)  # the owner can still read it
    assert done.returncode == 0 and "HP 4/10" in done.stdout, done.stderr


def test_a_sheets_access_acl_is_kept(tmp_path: Path) -> None:
    sheet = players_sheet(tmp_path, mode=0o640)
    entries = [(0x01, 6, 0xFFFFFFFF), (0x02, 6, 65534), (0x04, 4, 0xFFFFFFFF), (0x10, 6, 0xFFFFFFFF),
               (0x20, 0, 0xFFFFFFFF)]  # owner rw, user 65534 rw, group r, mask rw, others none
    acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
    try:
        os.setxattr(sheet, store.ACL, acl)
    except OSError as error:
        if error.errno in (errno.ENOTSUP, errno.EPERM):
            pytest.skip(f"no POSIX ACLs here: {error.strerror}")
        raise
    mode = stat.S_IMODE(sheet.stat().st_mode)
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(hp=4))
    assert os.getxattr(sheet, store.ACL) == acl and stat.S_IMODE(sheet.stat().st_mode) == mode
    assert load_hero(sheet).hp == 4


def test_a_sheets_own_extended_attributes_are_kept(tmp_path: Path) -> None:
    """The write is a new file renamed over the sheet: a user's xattrs (a tag, a sync tool's mark) were lost."""
    sheet = players_sheet(tmp_path)
    try:
        os.setxattr(sheet, "user.crux.test", b"keep me")
        os.setxattr(sheet, "user.colour", b"red")
    except (OSError, AttributeError) as error:
        pytest.skip(f"no user extended attributes here: {error}")
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(hp=4))
    assert os.getxattr(sheet, "user.crux.test") == b"keep me" and os.getxattr(sheet, "user.colour") == b"red"
    assert load_hero(sheet).hp == 4


# --- failures around the write -------------------------------------------------------------------


def test_a_folder_that_cannot_be_synced_after_the_rename_is_a_warning(tmp_path: Path, monkeypatch,
                                                                       capsys) -> None:
    sheet = players_sheet(tmp_path)
    real_fsync = os.fsync

    def failing_for_folders(descriptor: int) -> None:
        if stat.S_ISDIR(os.fstat(descriptor).st_mode):
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(descriptor)

    monkeypatch.setattr(store.os, "fsync", failing_for_folders)
    with sheet_transaction(sheet) as tx:  # no error: the damage is on the sheet, a retry would apply it twice
        tx.save(tx.hero.with_changes(hp=3))
    assert load_hero(sheet).hp == 3
    assert "crux: warning:" in capsys.readouterr().err


def test_a_temporary_file_that_cannot_be_made_is_a_plain_refusal(tmp_path: Path, monkeypatch) -> None:
    sheet = players_sheet(tmp_path)

    def no_room(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    from crux_cli.state import files

    monkeypatch.setattr(files, "new_temporary", no_room)  # the sheet's new file beside it (tempfile's way)
    with pytest.raises(SheetError, match="cannot write the sheet: No space left"), sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(hp=3))
    assert load_hero(sheet).hp == 10


def test_the_sheets_temporary_file_is_new_private_and_named_as_leftovers_are_found(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    """tempfile's way without tempfile (its import cost every sheet-changing one-shot 9 M instructions): a
    name `.NAME.XXXXXXXX.tmp` the leftover sweep knows, mode 0600, never an existing file (O_EXCL: a name
    taken is drawn again)."""
    import re

    from crux_cli.state import files
    from crux_cli.state.sheet_locks import TEMPORARY_NAME

    target = tmp_path / "w.toml"
    draws = iter([b"\x00" * 8, b"\x00" * 8, b"\x01" * 8])
    monkeypatch.setattr(files.os, "urandom", lambda n: next(draws))
    first, first_name = files.new_temporary(target)
    second, second_name = files.new_temporary(target)  # the first draw again: taken, so a second draw
    os.close(first), os.close(second)
    assert first_name != second_name
    for name in (first_name, second_name):
        assert re.fullmatch(rf"\.w\.toml\.{TEMPORARY_NAME}\.tmp", os.path.basename(name))
        assert os.path.dirname(name) == str(tmp_path)
        if os.name == "posix":
            assert stat.S_IMODE(os.stat(name).st_mode) == 0o600


# --- the data folder: history and aliases ----------------------------------------------------------


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / "crux"
    folder.mkdir(parents=True, mode=0o700)
    return folder


def a_users_file(tmp_path: Path, name: str = ".bashrc") -> Path:
    target = tmp_path / name
    target.write_text("export PATH=$HOME/bin:$PATH\n")
    target.chmod(0o644)
    return target


@pytest.mark.parametrize("make", ["symlink", "hard link", "fifo"])
def test_a_history_that_is_not_crux_own_file_is_never_chmod_ed_or_appended_to(tmp_path: Path, data: Path,
                                                                             make: str) -> None:
    from prompt_toolkit.history import InMemoryHistory

    from crux_cli.repl.history import open_history

    bashrc = a_users_file(tmp_path)
    history = data / "history"
    if make == "symlink":
        history.symlink_to(bashrc)
    elif make == "hard link":
        os.link(bashrc, history)
    else:
        os.mkfifo(history)
    kept, warning = open_history({"XDG_DATA_HOME": str(tmp_path / "data")})
    assert isinstance(kept, InMemoryHistory) and warning is not None and "history is not kept" in warning
    kept.append_string("DEX +1b")
    assert stat.S_IMODE(bashrc.stat().st_mode) == 0o644
    assert bashrc.read_text() == "export PATH=$HOME/bin:$PATH\n"


def test_a_history_that_cannot_be_appended_mid_session_is_said_once(tmp_path: Path, data: Path) -> None:
    from crux_cli.repl.history import KeptHistory, open_history

    kept, warning = open_history({"XDG_DATA_HOME": str(tmp_path / "data")})
    assert isinstance(kept, KeptHistory) and warning is None
    kept.append_string("DEX")
    (data / "history").unlink()
    (data / "history").symlink_to(a_users_file(tmp_path))  # swapped for a link mid-session
    for line in ("save WIL", "init", "atk d8"):
        kept.append_string(line)
    warnings = kept.take_warnings()
    assert len(warnings) == 1 and "history is no longer kept" in warnings[0] and "symbolic link" in warnings[0]
    assert kept.take_warnings() == [] and kept.get_strings()[-1] == "atk d8"  # still kept in memory
    assert (tmp_path / ".bashrc").read_text() == "export PATH=$HOME/bin:$PATH\n"


def test_the_session_prints_a_history_failure_once_and_goes_on(tmp_path: Path) -> None:
    from test_repl_pipe import CTRL_D, drive

    from crux_cli.repl.history import KeptHistory

    broken = tmp_path / "history"
    broken.mkdir()  # neither readable nor appendable as a history file
    _, lines = drive("DEX\r", "init\r", "save WIL\r", CTRL_D, history=KeptHistory(broken))
    assert sum("history is no longer kept" in line for line in lines) == 1
    assert [line.split(":")[0] for line in lines if not line.startswith("history")] == ["DEX", "init", "save WIL"]


def test_a_long_history_is_cut_to_its_last_entries(tmp_path: Path, data: Path) -> None:
    from crux_cli.repl.history import HISTORY_LIMIT, KEEP_BYTES, KEEP_ENTRIES, KeptHistory, open_history

    history = data / "history"
    entry = "\n# 2026-11-23 12:00:00.000000\n+atk d8+2 heavy # entry {}\n"
    with history.open("w") as file:
        file.write("".join(entry.format(number) for number in range(60_000)))
    history.chmod(0o600)
    assert history.stat().st_size > HISTORY_LIMIT
    from helpers import counting

    with counting() as work:
        kept, warning = open_history({"XDG_DATA_HOME": str(tmp_path / "data")})
        strings = list(kept.load_history_strings())
    assert warning is None and isinstance(kept, KeptHistory)
    assert history.stat().st_size <= KEEP_BYTES and stat.S_IMODE(history.stat().st_mode) == 0o600
    assert len(strings) == KEEP_ENTRIES
    assert strings[0] == "atk d8+2 heavy # entry 59999" and strings[-1] == "atk d8+2 heavy # entry 50000"
    assert work.calls < 600_000, work.calls  # about 60,000: the entries kept, not all 60,000 read one by one


def test_a_history_cut_in_the_middle_of_an_entry_keeps_whole_entries(tmp_path: Path, data: Path) -> None:
    from crux_cli.repl.history import KEEP_BYTES, open_history

    history = data / "history"
    long_entry = "\n# 2026-11-23\n" + "".join(f"+line {n} of a long multi-line entry\n" for n in range(80_000))
    history.write_text(long_entry + "\n# 2026-11-24\n+DEX\n+# two lines\n")
    history.chmod(0o600)
    kept, _ = open_history({"XDG_DATA_HOME": str(tmp_path / "data")})
    assert list(kept.load_history_strings()) == ["DEX\n# two lines"]
    assert history.stat().st_size <= KEEP_BYTES


def test_aliases_never_write_through_a_link_left_in_the_data_folder(tmp_path: Path, data: Path) -> None:
    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Runner

    notes = a_users_file(tmp_path, "notes.txt")
    (data / "aliases.tmp").symlink_to(notes)  # the old fixed temporary name
    session = Session(Runner(seed=1))
    session.aliases_file = data / "aliases"
    assert session.handle("/alias sneak = DEX +1b") == ["sneak = DEX +1b"]
    assert notes.read_text() == "export PATH=$HOME/bin:$PATH\n"
    assert "sneak = DEX +1b" in (data / "aliases").read_text()

    (data / "aliases").unlink()
    (data / "aliases").symlink_to(notes)
    said = session.handle("/alias loud = STR +2b")
    assert said[0] == "loud = STR +2b" and "symbolic link" in said[1]
    assert notes.read_text() == "export PATH=$HOME/bin:$PATH\n" and (data / "aliases").is_symlink()


def test_a_linked_aliases_file_is_not_read_at_the_start(tmp_path: Path, data: Path) -> None:
    from crux_cli.repl.app import keep_aliases_in
    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Runner

    (data / "aliases").symlink_to(a_users_file(tmp_path, "secrets.txt"))
    session = Session(Runner(seed=1))
    warnings = keep_aliases_in(session, data / "aliases")
    assert len(warnings) == 1 and "symbolic link" in warnings[0] and session.aliases == {}


def test_two_sessions_at_once_keep_each_others_aliases(data: Path) -> None:
    from crux_cli.repl.aliases import load_aliases
    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Runner

    first, second = Session(Runner(seed=1)), Session(Runner(seed=1))
    first.aliases_file = second.aliases_file = data / "aliases"
    first.handle("/alias sneak = DEX +1b")
    second.handle("/alias loud = STR +2b")  # loaded before `sneak` was kept
    first.handle("/alias quiet = WIL")
    assert load_aliases(data / "aliases") == {"sneak": "DEX +1b", "loud": "STR +2b", "quiet": "WIL"}
    assert "loud" in first.aliases and "sneak" in second.aliases
    second.handle("/alias sneak =")
    assert load_aliases(data / "aliases") == {"loud": "STR +2b", "quiet": "WIL"}


ALIAS_WRITER = """
import sys
from pathlib import Path
from crux_cli.repl.aliases import update_aliases
for n in range(int(sys.argv[3])):
    update_aliases(Path(sys.argv[1]), {f"a{sys.argv[2]}x{n}": "DEX"})
"""


@pytest.mark.slow
def test_many_processes_adding_aliases_at_once_lose_none(data: Path) -> None:
    from crux_cli.repl.aliases import load_aliases

    processes, each = 8, 10
    writers = [subprocess.Popen([sys.executable, "-c", ALIAS_WRITER, str(data / "aliases"), str(p), str(each)])
               for p in range(processes)]
    assert [writer.wait(timeout=60) for writer in writers] == [0] * processes
    assert len(load_aliases(data / "aliases")) == processes * each
    assert stat.S_IMODE((data / "aliases").stat().st_mode) == 0o600
    assert sorted(p.name for p in data.iterdir()) == ["aliases"]  # its lock is in the state folder (issue 38)


# --- malformed encounter files through a real terminal ----------------------------------------------

SAVED_FIGHT = """# A crux encounter
format = 2
round = 2
turn = 1

[[combatant]]
name = "Bram"
side = "hero"
opening = 2
actions = 1
reactions = ["help"]

[[combatant]]
name = "goblin"
side = "enemy"
hp = 4
hp_max = 7
armour = "heavy"
resist = true
attack = "d6"
actions = 3
attacks = 1

[[combatant]]
name = "rats"
side = "enemy"
minions = 3
attack = "d4"
helped = 1
"""
ODD_VALUES = ['5', '-1', '"x"', 'inf', 'nan', '-inf', 'true', '[]', '[1, "a"]', '{}', '{ a = 1 }', '"hero"',
              '"enemy"', '99999999999999999999', '""', '"d6; DEX"', '1.5', '"Bram"', '["help", "help"]',
              '"\\u0000"', '"\\u001b[31m"', '2026-11-23', '"heavy"', '0', '3', '4', "'''multi\nline'''",
              "9" * 5000]


def mangled(text: str, chooser) -> str:
    """`text` with one to three random changes: a value swapped, a line dropped or doubled, a cut."""
    lines = text.split("\n")
    for _ in range(chooser.randint(1, 3)):
        where = chooser.randrange(len(lines))
        change = chooser.choice(["value", "value", "value", "drop", "double", "cut", "noise", "comment", "comment",
                                 "comment"])
        if change == "comment":  # a hand edit crux must still accept
            lines.insert(where, chooser.choice(["# the goblin fled", "", "   "]))
        elif change == "value" and "=" in lines[where]:
            lines[where] = lines[where].split("=")[0] + "= " + chooser.choice(ODD_VALUES)
        elif change == "drop":
            del lines[where]
        elif change == "double":
            lines.insert(where, lines[where])
        elif change == "cut":
            lines = [*lines[:where], lines[where][: chooser.randrange(len(lines[where]) + 1)]]
        else:
            lines.insert(where, "".join(chooser.choice("[]{}=\"'# x1\t") for _ in range(chooser.randint(1, 8))))
        if not lines:
            lines = [""]
    return "\n".join(lines)


def load_and_play(folder: Path, name: str, text: str) -> tuple[str, ...]:
    """Write a mangled file, then the lines that load it, play a turn and end the fight (`end` closes a
    fight that did load, so the next `load` replaces nothing and asks nothing)."""
    (folder / name).write_text(text)
    return (f"load {name}", "status", "next", "atk goblin d6", "end")


@pytest.mark.slow  # 240 files, six lines each
def test_hundreds_of_malformed_encounter_files_end_no_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line goes through `Session.handle`, what the REPL runs for a line typed; with CRUX_DEBUG an internal
    error raises here instead of being said, so the test fails with its traceback."""
    import random

    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Runner

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRUX_DEBUG", "1")
    chooser = random.Random(17)
    sessions, loads, outcomes = 4, 60, {"loaded": 0, "refused": 0}
    for number in range(sessions):
        session = Session(Runner(seed=1))
        for load in range(loads):
            said = [line for typed in load_and_play(tmp_path, f"fight-{number}-{load}.toml",
                                                    mangled(SAVED_FIGHT, chooser))
                    for line in session.handle(typed)]
            assert not [line for line in said if "internal error" in line or "Traceback" in line], said
            loaded = any("fight loaded from" in line for line in said)
            outcomes["loaded" if loaded else "refused"] += 1
        assert session.handle("DEX +2b")[0].startswith("DEX +2b: ")
    assert outcomes["refused"] > 100 and outcomes["loaded"] > 10, outcomes  # both kinds were really tried


@pytest.mark.slow  # a real terminal
def test_malformed_encounter_files_end_no_terminal_session(tmp_path: Path) -> None:
    """The same through a real terminal, fewer of them: the session answers after each and leaves with 0."""
    import random

    from helpers.terminal import environ, start

    chooser = random.Random(23)
    child = start(environ(tmp_path), "repl", "--seed", "1", columns=200, timeout=15, cwd=tmp_path)
    seen = []
    for load in range(12):
        for line in load_and_play(tmp_path, f"fight-{load}.toml", mangled(SAVED_FIGHT, chooser)):
            child.sendline(line)
        child.sendline(f"/seed {load + 1000}")  # its answer marks the end of those lines' output
        child.expect_exact(f"seed: {load + 1000}")
        seen.append(child.before)
    child.sendline("DEX +2b")
    child.expect("DEX \\+2b: (success|partial|failure)")
    child.expect_exact("crux> ")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    said = "".join(seen)
    assert "internal error" not in said and "Traceback" not in said
    assert "fight loaded from" in said or "crux:" in said  # the files were really read
