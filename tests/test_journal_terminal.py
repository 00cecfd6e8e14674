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
from helpers.terminal import PROMPT, crux_command
from helpers.terminal import say as send
from helpers.terminal import start as start_terminal

from crux_cli.state.recovery import read_entries
from crux_cli.state.sheet_undo import sheet_values
from crux_cli.state.store import load_hero


def start(environ: dict[str, str], *args: str, cwd: Path) -> pexpect.spawn:
    """`helpers.terminal.start` in a wide terminal, not waiting for the prompt (`send` does)."""
    return start_terminal(environ, *args, columns=160, timeout=20, cwd=cwd, prompt=None)


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
        print(statement, flush=True)  # done: what the parent counts after the kill
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
    kills, damaged = 20, 0
    for _ in range(kills):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(sheet)], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(pause.uniform(0.0, 0.2))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        damaged += writer.stdout.read().splitlines().count("damage 1")  # each one done before the kill
        writer.stdout.close()
        assert 0 <= load_hero(sheet).hp <= 12  # whole and valid, whenever the kill landed
    subprocess.run([*crux_command(), "log", "-n", "1"], check=True, capture_output=True)  # a start settles
    changes = [e for e in read_entries(own_state_dir / "crux") if e["kind"] == "change"]
    # every `damage 1` a writer finished before its kill is a change the journal kept (counted, not timed)
    assert sum(e["statement"] == "damage 1" for e in changes) >= damaged
    assert all(e["sheets"][0]["path"] == str(sheet.resolve()) for e in changes)
    assert_journal_agrees(start_values, changes, sheet_values(load_hero(sheet)))
    result = subprocess.run([*crux_command(), "sheet", "undo", str(sheet)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_sigkill_at_any_moment_of_a_batch_holding_its_sheet_leaves_journal_and_sheet_whole(
        tmp_path: Path, own_state_dir: Path) -> None:
    """A batch whose input waits keeps its sheet's lock and writes it once a run of statements, announced
    first (PERFORMANCE.md, "A batch holds its sheet"): killed at any instant, it leaves a valid sheet and a
    journal whose changes chain to it, as a write at every statement does."""
    sheet = tmp_path / "ann.toml"
    subprocess.run([*crux_command(), "sheet", "new", str(sheet), "--name", "Ann", "--hp", "12"],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    start_values = sheet_values(load_hero(sheet))
    lines = tmp_path / "lines.txt"
    lines.write_text("damage 1\nheal 1\nDEX +1b\nd20\ncond add prone\nsave STR\ncond remove prone\n" * 20_000)
    pause = random.Random(27)
    kills = 20
    for _ in range(kills):
        written = sheet.stat().st_mtime_ns
        with lines.open("rb") as stdin:
            writer = subprocess.Popen([*crux_command(), "--sheet", str(sheet), "-"], stdin=stdin,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            waited = 0
            while sheet.stat().st_mtime_ns == written and waited < 6000:  # until it has written once
                time.sleep(0.01)
                waited += 1
            time.sleep(pause.uniform(0.0, 1.0))
            writer.send_signal(signal.SIGKILL)
            writer.wait()
        assert 0 <= load_hero(sheet).hp <= 12  # whole and valid, whenever the kill landed
    subprocess.run([*crux_command(), "log", "-n", "1"], check=True, capture_output=True)  # a start settles
    changes = [e for e in read_entries(own_state_dir / "crux") if e["kind"] == "change"]
    assert len(changes) >= kills  # each batch wrote its sheet, and journaled it first, before its kill
    assert all(e["sheets"][0]["path"] == str(sheet.resolve()) for e in changes)
    assert_journal_agrees(start_values, changes, sheet_values(load_hero(sheet)))


@pytest.mark.slow
def test_two_batches_holding_one_sheet_lose_neither_ones_changes(tmp_path: Path, own_state_dir: Path) -> None:
    """Two batches on one sheet at once each hold it for a run, in turn: every change of both is on the sheet
    and in the journal, one after the other."""
    sheet = tmp_path / "ann.toml"
    subprocess.run([*crux_command(), "sheet", "new", str(sheet), "--name", "Ann", "--hp", "9999"],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    start_values = sheet_values(load_hero(sheet))
    lines = tmp_path / "lines.txt"
    lines.write_text("damage 1\nDEX +1b\nd20\n" * 3000)
    writers = []
    for _ in range(2):
        with lines.open("rb") as stdin:
            writers.append(subprocess.Popen([*crux_command(), "--sheet", str(sheet), "-"], stdin=stdin,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        # both make the new store at once: both keep it; a batch waiting for the other's lock says so (issue 37)
        said = [line for line in errors.decode().splitlines()
                if not line.startswith("crux: waiting for another crux holding ")]
        assert writer.returncode == 0 and not said, errors
    assert load_hero(sheet).hp == 9999 - 2 * 3000  # no damage lost to the other batch
    changes = [e for e in read_entries(own_state_dir / "crux") if e["kind"] == "change"]
    assert sum(e["statement"] == "damage 1" for e in changes) == 2 * 3000  # (and Grit earned by DEX +1b)
    assert len({e["session"] for e in changes}) == 2
    assert_journal_agrees(start_values, changes, sheet_values(load_hero(sheet)))  # in the journal's order


def assert_journal_agrees(start: dict, changes: list[dict], now: dict) -> None:
    """Each change starts from what the one before left, and the last leaves what the sheet holds."""
    values = dict(start)
    for entry in changes:
        change = entry["sheets"][0]
        assert {k: values[k] for k in change["before"]} == change["before"], entry["statement"]
        values.update(change["after"])
    assert values == now


FIGHTER = """
import sys
from crux_cli.repl.app import keep_journal
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings, make_runner

settings = Settings(sheet=sys.argv[1], seed=int(sys.argv[2]))
session = Session(make_runner(settings))
keep_journal(session, settings)
for line in ("fight new", "enemy ogre hp 9000 atk d6", "init"):
    session.handle(line)
print("ready", flush=True)
while True:  # each fight word writes the ledger; the ogre's attacks write Ann's sheet too
    for line in ("atk ogre", "next", "atk Ann", "next", "cond add ogre prone", "cond remove ogre prone"):
        session.handle(line)
        print(line, flush=True)  # done: the parent waits for a whole round before it kills
"""


def replayed_ledger(entries: list[dict]) -> dict | None:
    """The ledger the journal's fight entries add up to: the first whole, then each change applied."""
    ledger = None
    for entry in entries:
        change = entry.get("fight")
        if change is None:
            continue
        if change["before"] is None or change["after"] is None:
            ledger = change["after"]
            continue
        after = change["after"]
        ledger = {**ledger, **{k: v for k, v in after.items() if k != "combatants"}}
        if "combatants" in after or "combatants" in change["before"]:
            changed = {c["name"]: c for c in after.get("combatants", [])}
            gone = {c["name"] for c in change["before"].get("combatants", [])} - set(changed)
            ledger["combatants"] = [changed.pop(c["name"], c) for c in ledger["combatants"] if c["name"] not in gone]
            ledger["combatants"] += list(changed.values())
    return ledger


@pytest.mark.slow
def test_sigkill_during_fight_words_leaves_sheet_ledger_and_journal_in_agreement(tmp_path: Path,
                                                                                own_state_dir: Path) -> None:
    """Killed at any instant of a fight word, the next start's settling leaves the sheet, the kept fight
    and the journal telling one story: the journal's changes chain to the sheet on disk, and its fight
    entries add up to the ledger kept for resuming."""
    from crux_cli.state.autosave import left_fights
    from crux_cli.state.encounter import load_fight
    from crux_cli.state.journal import Journal

    sheet = tmp_path / "ann.toml"
    subprocess.run([*crux_command(), "sheet", "new", str(sheet), "--name", "Ann", "--hp", "999"],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    start = sheet_values(load_hero(sheet))
    pause = random.Random(22)
    for seed in range(12):
        fighter = subprocess.Popen([sys.executable, "-c", FIGHTER, str(sheet), str(seed)], stdout=subprocess.PIPE,
                                   text=True)
        assert fighter.stdout is not None and fighter.stdout.readline().strip() == "ready"
        while fighter.stdout.readline().strip() != "cond remove ogre prone":  # a whole round done, seeded
            pass
        time.sleep(pause.uniform(0.0, 0.3))
        fighter.send_signal(signal.SIGKILL)
        fighter.wait()
        fighter.stdout.close()
        journal = Journal.open()
        left = left_fights(journal)  # a new session starts: it settles the word cut short
        assert len(left) == 1
        session = left[0].session
        entries = [e for e in read_entries(own_state_dir / "crux") if e["session"] == session]
        kept = json.loads(json.dumps(load_fight(left[0].path).ledger_json()))
        assert replayed_ledger(entries) == kept
        left[0].forget()
        journal.close()
    changes = [e for e in read_entries(own_state_dir / "crux") if e.get("sheets")]
    assert changes  # the ogre really was hitting: twelve seeded rounds, each finished before its kill
    assert_journal_agrees(start, changes, sheet_values(load_hero(sheet)))
