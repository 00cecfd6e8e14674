"""Issue 13 end to end through a real terminal: a fight survives kill -9, Ctrl-C cancels only a statement,
and SIGKILL at any moment leaves journal and sheet whole."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from crux_cli.state.journal import read_entries, sheet_values
from crux_cli.state.store import load_hero

PROMPT = "crux> "


def crux_command() -> list[str]:
    script = Path(sys.executable).parent / "crux"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crux_cli"]


@pytest.fixture
def environ(tmp_path: Path, own_state_dir: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(own_state_dir),
            "TERM": "xterm-256color", "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1"}


def start(environ: dict[str, str], *args: str, cwd: Path) -> pexpect.spawn:
    command, *rest = crux_command()
    return pexpect.spawn(command, [*rest, *args], env=environ, encoding="utf-8", timeout=20,
                         dimensions=(30, 160), cwd=str(cwd))


def send(child: pexpect.spawn, line: str, *expected: str) -> None:
    child.expect_exact(PROMPT)
    child.sendline(line)
    for text in expected:
        child.expect_exact(text)


@pytest.mark.slow
def test_a_fight_killed_with_sigkill_resumes_with_sheets_and_ledger_consistent(
        environ: dict[str, str], tmp_path: Path, own_state_dir: Path) -> None:
    sheet = tmp_path / "ann.toml"
    subprocess.run([*crux_command(), "sheet", "new", str(sheet), "--name", "Ann", "--hp", "12"], env=environ,
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    child = start(environ, "repl", "--seed", "5", "--sheet", str(sheet), cwd=tmp_path)
    send(child, "fight", "Ann joins the fight")
    send(child, "enemy ogre hp 30 atk d10", "ogre (30 HP")
    send(child, "init", "round 1")
    send(child, "atk ogre", "Ann → ogre")
    send(child, "next", "ogre's turn")
    send(child, "atk Ann", "ogre → Ann")
    send(child, "damage 2", "HP")  # the sheet's own statement, mid-fight
    child.expect_exact(PROMPT)
    hero = load_hero(sheet)
    os.kill(child.pid, signal.SIGKILL)  # no goodbye, no save: the terminal is gone
    child.expect(pexpect.EOF)
    child.close()

    again = start(environ, "repl", "--sheet", str(sheet), cwd=tmp_path)
    again.expect_exact("a fight was left running (round 1, ogre's turn: Ann, ogre): resume it?")
    send(again, "y", "fight loaded from")
    send(again, "status", "ogre")
    again.expect_exact(PROMPT)
    status = again.before
    assert f"HP {hero.hp}/12" in status  # the ledger reads the sheet as the kill left it
    assert "ogre         2 actions" in status  # the ogre's attack stayed spent
    again.sendline("undo")  # resuming is no step undo takes back: the fight stays (issue 22)
    again.expect_exact("nothing to undo in this session")
    send(again, "status", "ogre         2 actions")
    send(again, "/quit")
    again.expect(pexpect.EOF)
    entries = read_entries(own_state_dir / "crux")
    rolls = [a["input"] for e in entries for a in e.get("answers", ())]
    assert "Ann → ogre: atk" in rolls and any(r.startswith("ogre → Ann: atk") for r in rolls)
    listed = subprocess.run([*crux_command(), "log", "--json", "--fight"], env=environ, capture_output=True,
                            text=True, check=True).stdout
    assert all(json.loads(line)["in_fight"] for line in listed.splitlines())
    assert "Ann: init" in listed and "Ann → ogre: atk" in listed and "ogre → Ann: atk" in listed


@pytest.mark.slow
def test_the_goodbye_says_where_the_fight_is_kept(environ: dict[str, str], tmp_path: Path,
                                                  own_state_dir: Path) -> None:
    child = start(environ, "repl", cwd=tmp_path)
    send(child, "fight", "a fight begins")
    send(child, "enemy rat hp 3", "rat (3 HP")
    child.expect_exact(PROMPT)
    child.sendcontrol("d")
    child.expect_exact(f"the fight is kept in {own_state_dir}/crux/crux.db")
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_ctrl_c_during_a_long_odds_keeps_the_session(environ: dict[str, str], tmp_path: Path) -> None:
    child = start(environ, "repl", "--seed", "1", cwd=tmp_path)
    send(child, "/countdown add Cd8 torch", "countdown added")
    child.expect_exact(PROMPT)
    child.sendline("odds 100d20kh50")
    time.sleep(1.0)  # it is working, or (it takes 0.1 s now) its table is in the pager
    child.sendintr()
    # still working: "cancelled"; in the pager: less quits on Ctrl-C (LESS=FRXK) and the prompt comes back
    child.expect_exact(["cancelled", PROMPT])
    send(child, "/countdown", "Cd8 torch")  # the session and its state are still there
    child.expect_exact(PROMPT)
    child.send("\x1b[A")  # the cancelled line is in the history
    child.expect_exact("/countdown")
    child.send("\x1b[A")
    child.expect_exact("100d20kh50")
    child.sendcontrol("c")  # clears the recalled line
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


WRITER = """
import sys
from crux_cli.running.modes import journaled_runner
from crux_cli.running.settings import Settings
runner = journaled_runner(Settings(sheet=sys.argv[1]))
for statement in ("damage 1", "heal 1", "DEX +1b", "cond add prone", "cond remove prone"):
    list(runner.each(statement))  # the grammars are built: from here on it only writes
print("ready", flush=True)
while True:
    for statement in ("damage 1", "heal 1", "DEX +1b", "cond add prone", "cond remove prone"):
        list(runner.each(statement))
"""


@pytest.mark.slow
def test_sigkill_at_any_moment_leaves_journal_and_sheet_whole(tmp_path: Path, own_state_dir: Path) -> None:
    """Killed between any two instructions, a writer leaves a valid sheet and a journal whose changes,
    applied in order from the new sheet, give exactly the sheet on disk (the store settles the write
    a kill cut off from its entry)."""
    sheet = tmp_path / "ann.toml"
    subprocess.run([*crux_command(), "sheet", "new", str(sheet), "--name", "Ann", "--hp", "12"],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    start_values = sheet_values(load_hero(sheet))
    pause = random.Random(13)
    kills = 20
    for _ in range(kills):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(sheet)], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(pause.uniform(0.0, 0.2))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        assert 0 <= load_hero(sheet).hp <= 12  # whole and valid, whenever the kill landed
    subprocess.run([*crux_command(), "log", "-n", "1"], check=True, capture_output=True)  # a start settles
    changes = [e for e in read_entries(own_state_dir / "crux") if e["kind"] == "change"]
    assert len(changes) > kills  # the writers really were writing
    assert all(e["sheets"][0]["path"] == str(sheet.resolve()) for e in changes)
    assert_journal_agrees(start_values, changes, sheet_values(load_hero(sheet)))
    result = subprocess.run([*crux_command(), "sheet", "undo", str(sheet)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def assert_journal_agrees(start: dict, changes: list[dict], now: dict) -> None:
    """Each change starts from what the one before left, and the last leaves what the sheet holds."""
    values = dict(start)
    for entry in changes:
        change = entry["sheets"][0]
        assert {k: values[k] for k in change["before"]} == change["before"], entry["statement"]
        values.update(change["after"])
    assert values == now
