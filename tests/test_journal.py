"""The journal (issue 13): every roll and change kept, undo and redo, the log, and nothing lost or overwritten."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from helpers import crux_here

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings, make_runner
from crux_cli.state.history import since_stamp
from crux_cli.state.journal import Journal
from crux_cli.state.recovery import read_entries
from crux_cli.state.sheet_undo import undo_sheet
from crux_cli.state.store import load_hero


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(path), "--name", "Ann", "--hp", "12", stdin="").returncode == 0
    return path


def journal_lines(state: Path) -> list[dict]:
    """The journal as `crux log --json` exports it (rolls kept as replays given their answers back)."""
    out = crux_here("log", "--json", env={"XDG_STATE_HOME": str(state)}).stdout
    return [json.loads(line) for line in out.splitlines()]


# -- the file -------------------------------------------------------------------------------------


def test_each_roll_is_one_private_entry(own_state_dir: Path) -> None:
    result = crux_here("--seed", "3", "DEX +1b; 4d6kh3")
    assert result.returncode == 0
    lines = journal_lines(own_state_dir)
    assert [line["statement"] for line in lines] == ["DEX +1b", "4d6kh3"]
    first = lines[0]
    assert first["v"] == 1 and first["kind"] == "roll" and first["session"] == lines[1]["session"]
    assert first["id"] == f"{first['session']}-1" and first["time"].endswith("Z")
    assert first["answers"][0]["kind"] == "test" and first["answers"][0]["seed"] == 3
    assert stat.S_IMODE((own_state_dir / "crux").stat().st_mode) == 0o700
    assert stat.S_IMODE((own_state_dir / "crux" / "crux.db").stat().st_mode) == 0o600


def test_entries_written_directly_read_back_in_order(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "crux", "s")
    journal.append(JournalEntry(kind="roll", statement="d6", answers=()))
    journal.append(JournalEntry(kind="roll", statement="d8", answers=()))
    journal.close()
    assert [e["statement"] for e in read_entries(tmp_path / "crux")] == ["d6", "d8"]


def test_a_journal_that_cannot_be_written_is_a_warning_not_a_lost_roll(tmp_path: Path) -> None:
    blocked = tmp_path / "state"
    blocked.write_text("a file where the folder should be")
    result = crux_here("d6", env={"XDG_STATE_HOME": str(blocked)})
    assert result.returncode == 0 and result.stdout.startswith("d6: ")
    assert "warning: the journal is not kept" in result.stderr


def test_since_reads_relative_and_local_times() -> None:
    assert since_stamp("2h", clock=7200.0) == "1970-01-01T00:00:00.000Z"
    assert since_stamp("1d", clock=86400.0 + 60) == "1970-01-01T00:01:00.000Z"
    assert since_stamp("2026-11-23 20:00").startswith("2026-11-2")


# -- one-shot and batch never drop an answer that changed state ------------------------------------


def test_a_line_whose_second_part_fails_still_shows_the_damage(sheet: Path) -> None:
    result = crux_here("--sheet", str(sheet), "damage 5; bogus")
    assert result.returncode == 2
    assert result.stdout.startswith("damage 5: 5 damage · HP 12 → 7")
    assert "'bogus' is not a statement" in result.stderr
    assert load_hero(sheet).hp == 7


def test_repeat_that_runs_out_of_grit_shows_the_rolls_that_spent_it(sheet: Path) -> None:
    sheet.write_text(sheet.read_text().replace("grit = 0", "grit = 2"))
    # Seeded: without a seed a kept 1 sometimes earns the Grit back and it never runs out.
    result = crux_here("--seed", "1", "--sheet", str(sheet), "--repeat", "3", "INT grit")
    assert result.returncode == 2
    assert result.stdout.count("INT grit #") == 2  # the two rolls that spent Grit, then the refusal
    assert load_hero(sheet).grit < 2


def test_json_batch_gives_one_line_per_input_line_errors_included() -> None:
    result = crux_here("--json", "-", stdin="DEX +1b\nsave XYZ\n4d6kh3\n")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 2 and len(records) == 3
    assert records[1] == {"input": "save XYZ", "line": 2,
                          "error": {"message": "unknown attribute 'XYZ'", "position": 5,
                                    "hint": records[1]["error"]["hint"]}}
    assert "line 2: error: unknown attribute" in result.stderr  # people still read the text


# -- crux sheet undo / redo, crux log -------------------------------------------------------------


def test_sheet_undo_takes_back_the_last_change_byte_for_byte(sheet: Path) -> None:
    before = sheet.read_bytes()
    crux_here("--sheet", str(sheet), "damage 3")
    result = crux_here("sheet", "undo", str(sheet))
    assert result.returncode == 0 and "took back `damage 3`" in result.stdout
    assert sheet.read_bytes() == before
    assert crux_here("sheet", "redo", str(sheet)).returncode == 0
    assert load_hero(sheet).hp == 9


def test_repeated_undo_goes_further_back(sheet: Path) -> None:
    crux_here("--sheet", str(sheet), "damage 1")
    crux_here("--sheet", str(sheet), "damage 2")
    crux_here("sheet", "undo", str(sheet))
    assert load_hero(sheet).hp == 11
    crux_here("sheet", "undo", str(sheet))
    assert load_hero(sheet).hp == 12
    result = crux_here("sheet", "undo", str(sheet))
    assert result.returncode == 2 and "nothing to undo" in result.stderr


def test_undo_never_clobbers_a_change_made_since(sheet: Path) -> None:
    crux_here("--sheet", str(sheet), "damage 3")  # HP 12 → 9
    sheet.write_text(sheet.read_text().replace("hp = 9", "hp = 4"))  # the GM edits it by hand
    edited = sheet.read_bytes()
    result = crux_here("sheet", "undo", str(sheet))
    assert result.returncode == 2
    assert "changed since `damage 3`: HP is 4, not 9" in result.stderr
    assert sheet.read_bytes() == edited


def test_log_json_lists_the_rolls_and_changes(sheet: Path) -> None:
    crux_here("--sheet", str(sheet), "damage 2")
    crux_here("DEX +1b")
    lines = [json.loads(line) for line in crux_here("log", "--json").stdout.splitlines()]
    assert [line["statement"] for line in lines] == ["damage 2", "DEX +1b"]
    assert lines[0]["sheets"] == [{"path": str(sheet.resolve()), "who": "Ann", "before": {"hp": 12},
                                   "after": {"hp": 10}}]
    only = crux_here("log", "--json", "--sheet", str(sheet)).stdout.splitlines()
    assert len(only) == 1
    text = crux_here("log").stdout
    assert "damage 2" in text and "Ann: HP 12 → 10" in text


def test_log_is_a_lazy_command_a_roll_never_imports(own_state_dir: Path) -> None:
    from crux_cli.cli import LAZY_COMMANDS

    assert LAZY_COMMANDS["log"] == ("crux_cli.cli.log", "log_command")
    probe = crux_here("--help")
    assert "log" in probe.stdout


# -- the REPL: undo, redo, fights ------------------------------------------------------------------


def session_on(sheet: Path, seed: int = 3) -> Session:
    session = Session(make_runner(Settings(sheet=str(sheet), seed=seed)))
    session.journal = Journal.open()
    return session


def say(session: Session, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += session.handle(line)
    return out


def test_undo_takes_back_a_damage_and_redo_makes_it_again(sheet: Path) -> None:
    session = session_on(sheet)
    before = sheet.read_bytes()
    say(session, "damage 5")
    assert load_hero(sheet).hp == 7
    assert say(session, "undo")[0] == "took back: damage 5"
    assert sheet.read_bytes() == before
    say(session, "/redo")
    assert load_hero(sheet).hp == 7
    assert say(session, "/undo", "/undo") == ["took back: damage 5", "  Ann: HP 7 → 12",
                                              "nothing to undo in this session"]


def test_undo_is_refused_when_another_process_changed_the_sheet(sheet: Path) -> None:
    session = session_on(sheet)
    say(session, "damage 5")
    crux_here("--sheet", str(sheet), "heal 2")  # someone else, meanwhile
    out = say(session, "undo")
    assert "changed since `damage 5`: HP is 9, not 7" in "\n".join(out)
    assert load_hero(sheet).hp == 9


def fight(session: Session) -> None:
    say(session, "fight", "enemy ogre hp 20 atk d10", "init")


def test_undo_takes_back_a_fight_word_with_the_heros_sheet(sheet: Path) -> None:
    session = session_on(sheet)
    fight(session)
    say(session, "next")  # the ogre's turn
    ledger, hp = session.fight.encounter, load_hero(sheet).hp
    out = say(session, "atk Ann")
    assert any(line.startswith("ogre → Ann: atk") for line in out)
    hit = load_hero(sheet).hp
    assert session.fight.encounter != ledger
    say(session, "undo")
    assert session.fight.encounter == ledger and load_hero(sheet).hp == hp  # ledger and sheet together
    say(session, "redo")
    assert load_hero(sheet).hp == hit and session.fight.encounter.find("ogre").actions == 2


def test_history_holds_the_fights_rolls(sheet: Path) -> None:
    session = session_on(sheet)
    fight(session)
    say(session, "atk ogre")
    history = "\n".join(say(session, "/history"))
    assert "Ann: init" in history and "Ann → ogre: atk" in history


def test_save_onto_a_sheet_is_refused_and_the_sheet_is_untouched(sheet: Path, tmp_path: Path) -> None:
    session = session_on(sheet)
    fight(session)
    before = sheet.read_bytes()
    for word in ("save", "save!"):
        out = say(session, f"{word} {sheet}")
        assert "is not a crux encounter: crux will not write over it" in "\n".join(out)
    assert sheet.read_bytes() == before


def test_save_asks_before_replacing_an_older_save(sheet: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.toml"
    first = session_on(sheet)
    fight(first)
    say(first, f"save {older}")
    kept = older.read_bytes()
    second = session_on(sheet)
    say(second, "fight", "enemy rat hp 3")
    assert "holds an earlier fight: replace it?" in say(second, f"save {older}")[0]
    assert say(second, "n") == ["left as it was"] and older.read_bytes() == kept
    say(second, f"save {older}", "y")
    assert b"rat" in older.read_bytes()
    say(second, "enemy bat hp 2", f"save {older}")  # this session's own save: no question
    assert b"bat" in older.read_bytes()
    say(first, f"save! {older}")
    assert b"rat" not in older.read_bytes()


def test_fight_during_a_fight_asks_and_undo_brings_the_old_one_back(sheet: Path) -> None:
    session = session_on(sheet)
    fight(session)
    old = session.fight.encounter
    assert "a fight is running (round 1" in say(session, "fight")[0]
    say(session, "no")
    assert session.fight.encounter == old
    say(session, "fight", "yes")
    assert session.fight.encounter != old
    say(session, "undo")
    assert session.fight.encounter == old
    say(session, "fight new")
    assert session.fight.encounter != old


def test_the_journal_keeps_the_fight_words_with_the_ledger(sheet: Path, own_state_dir: Path) -> None:
    session = session_on(sheet)
    fight(session)
    say(session, "atk ogre")
    lines = journal_lines(own_state_dir)
    attack = lines[-1]
    assert attack["statement"] == "atk ogre" and attack["in_fight"] and attack["who"] == "Ann"
    assert attack["answers"][0]["input"] == "Ann → ogre: atk"
    assert attack["fight"]["after"]["combatants"][0]["actions"] < attack["fight"]["before"]["combatants"][0][
        "actions"]
    assert "round" not in attack["fight"]["after"]  # only what changed: the round did not
    assert len(json.dumps(attack["fight"])) < 2000  # the two combatants that changed, not the ledger
    fight_rolls = crux_here("log", "--json", "--fight").stdout.splitlines()
    assert any('"Ann → ogre: atk' in line for line in fight_rolls)
    assert any('"init"' in line for line in fight_rolls)


def test_undo_from_the_shell_sees_a_repl_change(sheet: Path) -> None:
    session = session_on(sheet)
    say(session, "damage 4")
    target, _ = undo_sheet(Journal.open(), str(sheet))
    assert target.statement == "damage 4" and load_hero(sheet).hp == 12


def test_ctrl_c_cancels_the_statement_and_keeps_the_session(sheet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = session_on(sheet)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(session.runner, "odds", interrupted)
    assert say(session, "odds 100d20kh50") == ["cancelled"]
    assert not session.done and say(session, "damage 1")[0].startswith("damage 1:")


def test_a_state_dir_relative_to_nothing_is_home(monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.state.db import state_dir

    assert state_dir({"XDG_STATE_HOME": "relative", "HOME": "/h"}) == Path("/h/.local/state/crux")
    assert state_dir({"XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path("/x/crux")
    assert os.fspath(state_dir({"HOME": "/h"})) == "/h/.local/state/crux"


def test_a_fight_word_cut_short_by_a_kill_is_undone_at_resume(sheet: Path) -> None:
    """Seed 001's ledger and the sheet agree after a kill: the word's sheet write is taken back."""
    from crux_cli.state.autosave import Autosave, left_fights
    from crux_cli.state.encounter import load_fight

    session = session_on(sheet)
    session.autosave = Autosave.start(session.journal)
    fight(session)
    ledger, hp = session.fight.encounter, load_hero(sheet).hp
    session.journal.begin_word("damage 4")  # a word begins ...
    session.fighting.fight_runner(sheet=session.fight.sheets["Ann"]).answer("damage 4")  # ... writes the sheet ...
    assert load_hero(sheet).hp == hp - 4
    session.autosave.close()  # ... and the process dies before the word's entry and ledger are kept
    session.journal.store.close()
    later = Journal.open()
    left = left_fights(later)
    assert len(left) == 1 and load_hero(sheet).hp == hp  # the half-done word is undone
    assert any("was cut short" in warning for warning in later.take_warnings())
    assert load_fight(left[0].path).encounter == ledger
    resumed = session_on(sheet)
    resumed.pending = None
    assert any("fight loaded" in line for line in resumed.fight_word(f"load {left[0].path}"))
    assert resumed.fight.encounter == ledger
    assert "damage 4" not in [e["statement"] for e in read_entries()]  # the journal never shows it


def test_a_batch_fed_line_by_line_answers_each_line_before_the_next_arrives() -> None:
    """Answers are held back for one fsync only while more input is already waiting."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "crux_cli", "--seed", "1", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("d6\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("d6: ")  # shown while stdin is still open
    child.stdin.write("d8\n")
    child.stdin.close()
    assert child.stdout.readline().startswith("d8: ")
    assert child.wait(timeout=30) == 0


def test_log_in_the_session_shows_its_rolls_and_changes(sheet: Path) -> None:
    session = session_on(sheet)
    say(session, "damage 2", "DEX +1b", "undo")
    log = say(session, "/log")
    assert log[0].startswith("-- session ")
    assert "damage 2" in log[1] and "Ann: HP 12 → 10" in log[1]
    assert "DEX +1b: " in log[2]
    assert "undo of `damage 2`" in log[3] and "Ann: HP 10 → 12" in log[3]
    assert say(session, "/log fight") == ["nothing in the journal matches"]
    assert "does not take 'x'" in "\n".join(say(session, "/log x"))
