"""No wait without a word, no wait for ever (issue 37), and nothing of crux's beside a sheet (issue 38).

A process stopped while it holds a sheet's lock: the next crux says whom it waits for after a second and
refuses plainly after CRUX_LOCK_WAIT seconds. A process stopped inside a store transaction: the next command's
steps fail once, not a WAIT each. Lock files live in crux's state folder; old `.NAME.lock` sidecars go.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from crux_cli.rulesets.crux.hero import Hero
from crux_cli.state import db
from crux_cli.state.db import Store, StoreError
from crux_cli.state.sheet import new_sheet_text
from crux_cli.state.store import load_hero, lock_path, remove_sidecar, sheet_transaction, sidecar_path

HOLDER = """
import sys, time
from crux_cli.state.store import locked, resolve
with locked(resolve(sys.argv[1]), sys.argv[1]):
    print("held", flush=True)
    time.sleep(600)
"""

STORE_HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
connection.execute("UPDATE meta SET value = value WHERE key = 'rolls'")
print("held", flush=True)
time.sleep(600)
"""


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "w.toml"
    path.write_text(new_sheet_text(Hero(name="Wren", hp=10, hp_max=10)))
    return path


def stopped(script: str, *args: str, cwd: Path) -> Iterator[subprocess.Popen[str]]:
    """A process that takes a lock, says so, and is then stopped (SIGSTOP) while it holds it."""
    holder = subprocess.Popen([sys.executable, "-c", script, *args], cwd=cwd, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        holder.send_signal(signal.SIGSTOP)
        yield holder
    finally:
        holder.send_signal(signal.SIGCONT)
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_a_stopped_lock_holder_is_named_while_crux_waits_and_refused_plainly(sheet: Path) -> None:
    for holder in stopped(HOLDER, str(sheet), cwd=sheet.parent):
        waiter = subprocess.Popen([sys.executable, "-m", "crux_cli", "--sheet", "w.toml", "damage 1"],
                                  cwd=sheet.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, "CRUX_LOCK_WAIT": "4", "NO_COLOR": "1"})
        assert waiter.stderr is not None
        first = waiter.stderr.readline()  # the first line it says: the wait, and whom for
        assert first == f"crux: waiting for another crux holding w.toml (pid {holder.pid})…\n"
        # said while it waits (after a second of its own clock), not with the refusal (at four): the crux is
        # still waiting when the line arrives, however busy the machine, for both are timed by the same process
        assert waiter.poll() is None
        out, rest = waiter.communicate(timeout=30)  # and a plain refusal when the limit is reached
        assert waiter.returncode == 2, rest
        assert f"another crux (pid {holder.pid}) has held the sheet for more than 4 s: crux gives up" in rest
        assert "Traceback" not in rest and "internal error" not in rest and out == ""
    assert load_hero(sheet).hp == 10
    done = subprocess.run([sys.executable, "-m", "crux_cli", "--sheet", "w.toml", "damage 1"], cwd=sheet.parent,
                          capture_output=True, text=True, timeout=60)  # the holder gone, the lock is free at once
    assert done.returncode == 0 and "waiting" not in done.stderr, done.stderr
    assert load_hero(sheet).hp == 9


def test_a_zero_wait_refuses_at_once_and_says_who_holds_the_sheet(sheet: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRUX_LOCK_WAIT", "0")
    for holder in stopped(HOLDER, str(sheet), cwd=sheet.parent):
        from crux_cli.core.errors import SheetError

        refused = pytest.raises(SheetError, match=rf"another crux \(pid {holder.pid}\) has held the sheet")
        with refused, sheet_transaction(sheet):
            pass


def test_the_lock_file_is_in_the_state_folder_and_holds_the_holders_pid(sheet: Path) -> None:
    with sheet_transaction(sheet):
        lock = lock_path(sheet)
        assert lock.parent == Path(os.environ["XDG_STATE_HOME"]) / "crux" / "locks"
        assert lock.read_bytes().split(b"\n")[1] == str(os.getpid()).encode()
    assert sorted(p.name for p in sheet.parent.iterdir()) == ["w.toml"]


def test_an_old_sidecar_is_removed_only_when_crux_made_it(sheet: Path) -> None:
    sidecar = sidecar_path(sheet)
    assert sidecar.name == ".w.toml.lock"
    sidecar.write_text("")
    with sheet_transaction(sheet):  # met once a process: gone
        pass
    assert not sidecar.exists()
    other = sheet.with_name("v.toml")
    other.write_text(new_sheet_text(Hero(name="Vex")))
    kept = sidecar_path(other)
    kept.write_text("a note of the user's")  # not empty: not crux's
    remove_sidecar(other)
    assert kept.read_text() == "a note of the user's"
    kept.unlink()
    kept.symlink_to(sheet)  # a link, whatever it points at: not crux's
    remove_sidecar(other)
    assert kept.is_symlink()


def test_an_old_sidecar_an_older_crux_holds_stays(sheet: Path) -> None:
    from crux_cli.state.locking import acquire

    sidecar = sidecar_path(sheet)
    sidecar.write_text("")
    other = os.open(sidecar, os.O_RDONLY)
    try:
        acquire(other)
        remove_sidecar(sheet)
        assert sidecar.exists()
    finally:
        os.close(other)
    remove_sidecar(sheet)
    assert not sidecar.exists()


def test_a_write_that_gave_up_on_a_held_store_makes_the_next_steps_fail_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "WAIT", 0.2)
    monkeypatch.setattr(db, "GAVE_UP", {})
    store = Store.open(tmp_path)
    other = sqlite3.connect(db.store_path(tmp_path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="held by another crux"):
            store.trim(10)
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 0  # the next step: no wait
        later = Store.open(tmp_path)  # another step of the same command, on a store of its own
        with pytest.raises(StoreError, match="held by another crux"):
            later.trim(10)
        assert later.db.execute("PRAGMA busy_timeout").fetchone()[0] == 0
        db.GAVE_UP[str(store.path)] -= db.GIVE_UP_FOR  # long after: a REPL waits for the store again
        with pytest.raises(StoreError):
            store.trim(10)
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 0  # it gave up again, just now
    finally:
        other.execute("ROLLBACK")
        other.close()
    db.GAVE_UP.clear()
    assert store.trim(10) == 0 and store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 200
    store.close()
    later.close()


# crux, telling on stderr each time a statement of its store waited for the lock (its busy timeout set) and was
# refused: a count of waits, where a clock would measure the machine's load as well
COUNTING_WAITS = """
import sqlite3, sys

class Counting(sqlite3.Connection):
    def execute(self, sql, *args):
        try:
            return super().execute(sql, *args)
        except sqlite3.OperationalError as error:
            if "locked" in str(error) and super().execute("PRAGMA busy_timeout").fetchone()[0] > 0:
                sys.stderr.write("waited for the store\\n")
            raise

connect = sqlite3.connect
sqlite3.connect = lambda *args, **options: connect(*args, factory=Counting, **options)
sys.argv = ["crux", *sys.argv[1:]]
from crux_cli.__main__ import main
main()
"""


@pytest.mark.slow
def test_a_command_meeting_a_stopped_store_holder_waits_once(sheet: Path, own_state_dir: Path) -> None:
    first = subprocess.run([sys.executable, "-m", "crux_cli", "--sheet", "w.toml", "damage 1"], cwd=sheet.parent,
                           capture_output=True, text=True, timeout=60)  # the store made
    assert first.returncode == 0, first.stderr
    for _ in stopped(STORE_HOLDER, str(own_state_dir / "crux" / "crux.db"), cwd=sheet.parent):
        done = subprocess.run([sys.executable, "-c", COUNTING_WAITS, "--sheet", "w.toml", "damage 1"],
                              cwd=sheet.parent, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "NO_COLOR": "1"})
        assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
        # the refusal, and the journal's own warning that it kept nothing: never one message per step tried
        assert done.stderr.count("crux: error") <= 1 and done.stderr.count("held by another crux") <= 2, done.stderr
        # one wait of the store's own WAIT, then the steps after it fail at once: not three stacked (15.5 s)
        assert done.stderr.count("waited for the store") == 1, done.stderr


@pytest.mark.slow
def test_the_locks_wait_and_refuse_where_fcntl_does_not_exist(sheet: Path, own_state_dir: Path) -> None:
    from test_state_store import NO_FCNTL  # crux with msvcrt's locks (played with flock underneath)

    def windows_crux(*args: str, wait: str = "10") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", NO_FCNTL, *args], cwd=sheet.parent, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "NO_COLOR": "1", "CRUX_LOCK_WAIT": wait})

    for holder in stopped(HOLDER, str(sheet), cwd=sheet.parent):
        refused = windows_crux("--sheet", "w.toml", "damage 1", wait="2")
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.startswith(f"crux: waiting for another crux holding w.toml (pid {holder.pid})…\n")
        assert f"another crux (pid {holder.pid}) has held the sheet for more than 2 s" in refused.stderr
    sheet_removed = sidecar_path(sheet)
    sheet_removed.write_text("")  # an older crux's sidecar: removed when met
    done = windows_crux("--sheet", "w.toml", "damage 1")
    assert done.returncode == 0 and "waiting" not in done.stderr, done.stderr
    assert load_hero(sheet).hp == 9
    assert sorted(p.name for p in sheet.parent.iterdir()) == ["w.toml"]
    assert [p.suffix for p in (own_state_dir / "crux" / "locks").iterdir()] == [".lock"]


@pytest.mark.slow
def test_no_lock_file_beside_a_sheet_after_a_session_of_rolls_changes_and_a_fight(
        environ: dict[str, str], tmp_path: Path, own_state_dir: Path) -> None:
    from helpers.terminal import answered, leave_now, start
    from test_repl_fight import make_sheet

    party = tmp_path / "party"
    party.mkdir()
    sheet = make_sheet(party, "Wren")
    (party / ".wren.toml.lock").write_text("")  # an older crux's sidecar: removed when met
    for args in (("--sheet", "wren.toml", "DEX"), ("--sheet", "wren.toml", "damage 2"),
                 ("sheet", "undo", "wren.toml"), ("--sheet", "wren.toml", "heal 1")):
        done = subprocess.run([sys.executable, "-m", "crux_cli", *args], cwd=party, capture_output=True, text=True,
                              timeout=60, env=environ)
        assert done.returncode == 0, (args, done.stderr)
    child = start(environ, "repl", "--seed", "3", cwd=party, timeout=30)
    for line, answer in (("/load wren.toml", "Wren loaded"), ("STR", "Wren: Grit"), ("damage 1", "HP 9/10"),
                         ("fight", "Wren joins the fight"), ("enemy rat hp 30 atk d4", "joins the fight"),
                         ("init", "round 1"), ("atk rat", "Wren → rat"),
                         ("save fight.toml", "fight saved to fight.toml"), ("undo", "took back: atk rat"),
                         ("end", "the fight is over")):
        answered(child, line, answer)
    assert leave_now(child) == 0
    assert sorted(p.name for p in party.iterdir()) == ["fight.toml", "wren.toml"]
    assert not [p for p in own_state_dir.rglob("*") if p.name.startswith(".") and p.name.endswith(".lock")]
    assert load_hero(sheet).name == "Wren"
