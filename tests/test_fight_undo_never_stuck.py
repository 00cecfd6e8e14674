"""Undo is never stuck (issue 36): a word that only looks (`status`) is no undo step, though it refreshes the
ledger from the sheets; a sheet another crux changed since a step says what differs (the path as given) and
offers the fight's half alone or a skip; Dying's action cap follows the HP:

    ../shared/seeds/001_…: "9.3 Dying … While Dying: - You can only take 1 action per turn."
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from helpers import said
from helpers.terminal import answered, start
from test_repl_fight import make_sheet

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner


def second_shell(*args: str, cwd: Path) -> None:
    """Another crux, from another shell, on the same sheet."""
    done = subprocess.run([sys.executable, "-m", "crux_cli", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr


def wren_dying(tmp_path: Path) -> Session:
    make_sheet(tmp_path)
    os.chdir(tmp_path)
    made = Session(Runner(source=ScriptedSource([6, 6, 6, 6])))
    for line in ("fight", "hero wren.toml", "enemy ogre hp 9", "init"):
        said(made, line)
    said(made, "damage wren 12")
    return made


def test_status_is_no_undo_step_and_a_changed_sheet_offers_the_fight_alone(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    made = wren_dying(tmp_path)
    steps = made.steps
    second_shell("--sheet", "wren.toml", "heal 2", cwd=tmp_path)
    assert "HP 2/10" in said(made, "status")
    assert made.steps == steps  # refreshed from the sheet: no step to take back
    offered = said(made, "undo")
    assert offered.startswith("wren.toml: changed since `damage wren 12`: HP is 2, not 0")  # the path as given
    assert str(tmp_path) not in offered
    assert "y: undo the fight alone, the sheet staying as it is · skip: leave this step out of undo" in offered
    assert said(made, "y") == "took back: damage wren 12 (the fight alone: the sheet stays as it is)"
    assert "HP 2/10" in said(made, "show wren")  # the sheet as the other crux left it
    assert said(made, "undo") == "took back: init"  # and every older step can be taken


def test_a_step_left_out_of_undo_when_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    made = wren_dying(tmp_path)
    second_shell("--sheet", "wren.toml", "heal 2", cwd=tmp_path)
    said(made, "undo")
    assert said(made, "skip") == ("left out of undo: `damage wren 12` (the sheet and the fight stay as they "
                                  "are)")
    assert made.fight.encounter.round == 1
    assert said(made, "undo") == "took back: init"
    assert said(made, "undo") == "took back: enemy ogre hp 9"


def test_undo_of_a_sheets_hero_joining_takes_back_what_their_first_roll_wrote(tmp_path: Path) -> None:
    """A sheet brought into play by a word (`hero wren.toml` late in round 1) is rolled on before the word ends: its
    initiative's Grit is undone with the word, as a sheet in play when it began would be (../shared/seeds/001_…:
    "Roll a 1 → gain 1 Grit")."""
    from crux_cli.state.store import load_hero

    sheet = make_sheet(tmp_path, grit=0)
    made = Session(Runner(source=ScriptedSource([5, 1])))  # Pip's initiative 5; Wren's, late, a 1: +1 Grit
    for line in ("fight", "hero Pip", "enemy ogre hp 5", "init"):
        said(made, line)
    assert "Wren: Grit 0 → 1" in said(made, f"hero {sheet}")
    assert load_hero(sheet).grit == 1
    assert "Wren: Grit 1 → 0" in said(made, "undo")
    assert load_hero(sheet).grit == 0 and made.fight.names() == ("Pip", "ogre")


def test_dyings_action_cap_follows_the_hp(tmp_path: Path) -> None:
    made = Session(Runner(source=ScriptedSource([6, 6])))
    for line in ("fight", "hero Zed", "enemy ogre hp 9", "init"):
        said(made, line)
    assert "Zed drops to Dying: 1 action left" in said(made, "damage zed 10")
    said(made, "heal zed 3")  # above 0 HP before the turn ends: the actions the cap took come back
    assert made.fight.encounter.find("Zed").actions == 3
    said(made, "move")
    said(made, "damage zed 10")
    assert made.fight.encounter.find("Zed").actions == 1
    said(made, "heal zed 1")
    assert made.fight.encounter.find("Zed").actions == 2


@pytest.mark.slow
def test_a_second_shells_heal_never_leaves_undo_stuck_at_a_real_terminal(environ: dict[str, str],
                                                                         tmp_path: Path) -> None:
    make_sheet(tmp_path)
    child = start(environ, "repl", "--seed", "3", cwd=tmp_path)
    answered(child, "fight", "a fight begins")
    answered(child, "hero wren.toml", "Wren joins the fight")
    answered(child, "enemy ogre hp 9", "ogre (9 HP")
    answered(child, "init", "round 1")
    answered(child, "damage wren 12", "Dying no → yes")
    other = subprocess.run([sys.executable, "-m", "crux_cli", "--sheet", "wren.toml", "heal 2"], cwd=tmp_path,
                           env=environ, capture_output=True, text=True)
    assert other.returncode == 0, other.stderr
    answered(child, "status", "HP 2/10")
    answered(child, "undo", "wren.toml: changed since `damage wren 12`: HP is 2, not 0", "y: undo the fight alone")
    answered(child, "y", "took back: damage wren 12 (the fight alone")
    answered(child, "undo", "took back: init")
    answered(child, "undo", "took back: enemy ogre hp 9")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
