"""The smaller things seen at the table (issue 36), each fixed or a ruling stated in grammar/encounters.md."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import refused, said
from test_repl_fight import Entries, make_sheet

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.repl.toolbar import toolbar_fragments
from crux_cli.running.runner import Runner


def test_atk_by_a_beginning_never_offers_the_attacker() -> None:
    made = Session(Runner(source=ScriptedSource([6, 4])))
    for line in ("fight", "hero Wren of Ash", "enemy ashling hp 9", "init"):
        said(made, line)
    assert "Wren of Ash → ashling" in said(made, "atk ash")  # Wren's turn: `ash` is the ashling


def test_the_journals_who_for_react_is_the_reactor() -> None:
    made = Session(Runner(source=ScriptedSource([6, 6])))
    made.journal = journal = Entries()
    for line in ("fight", "hero Bram", "hero Wren", "enemy ogre hp 9", "init", "next"):
        said(made, line)
    said(made, "react Bram help Wren")  # Bram is first in the ledger, and Wren changed too
    assert journal.entries[-1].who == "Bram"
    said(made, "next")
    said(made, "next")
    said(made, "react Wren defend Bram")
    assert journal.entries[-1].who == "Wren"  # the reactor, though Bram comes first in the ledger


def test_loading_a_sheet_during_a_fight_refuses_without_asking_to_replace_the_fight(tmp_path: Path) -> None:
    sheet = make_sheet(tmp_path)
    made = Session(Runner(seed=1))
    said(made, "fight")
    said(made, "enemy ogre hp 9")
    out = refused(made, f"load {sheet}")
    assert "is a character sheet (Wren), not a saved fight" in out
    assert "replace it" not in out and made.pending is None


def test_the_toolbar_after_a_win_shows_the_loaded_hero(tmp_path: Path) -> None:
    sheet = make_sheet(tmp_path)
    made = Session(Runner(source=ScriptedSource([6])))
    for line in (f"/load {sheet}", "fight", "enemy ogre hp 2", "init", "damage ogre 2"):
        said(made, line)
    assert made.fight.over
    bar = "".join(piece for _, piece in toolbar_fragments(made, 200))
    assert "hero Wren" in bar and "fight won" in bar


def test_a_late_hero_after_init_with_banes_rolls_plain_initiative() -> None:
    """Ruling (grammar/encounters.md): the Boons and Banes given to `init` were for the heroes rolling then; a
    hero joining later in round 1 rolls plain initiative (../shared/seeds/001_…: "Initiative uses a DEX attribute
    test and determines how many actions you start with in the first round.")."""
    made = Session(Runner(source=ScriptedSource([6, 1, 6])))  # Bram's 2d6 keep lowest; Wren's one d6
    for line in ("fight", "hero Bram", "enemy ogre hp 9"):
        said(made, line)
    assert "Bram: init -1B:" in said(made, "init -1B")
    late = said(made, "hero Wren")
    assert "Wren: init: 3 actions (6)" in late and "-1B" not in late


def test_heal_at_full_hp_and_a_field_rest_at_full_hp_say_the_same(tmp_path: Path) -> None:
    """../shared/seeds/001_…: "Field Rest … Spend Hit Dice to restore HP." At full HP there is nothing to
    restore: a heal says so (it spends nothing), a Field Rest is refused (it would spend Hit Dice for nothing)."""
    sheet = make_sheet(tmp_path, "Zoë")
    made = Session(Runner(seed=1))
    said(made, f"/load {sheet}")
    healed = said(made, "heal 1")
    assert "at full HP: nothing to restore" in healed and "healed 0 HP" not in healed
    assert "Zoë is at full HP (10/10): a Hit Die would restore nothing" in refused(made, "rest field")
    said(made, "fight")
    said(made, "enemy ogre hp 9")
    assert "at full HP: nothing to restore" in said(made, "heal zoe 1")


@pytest.mark.slow
def test_a_resumed_fight_names_the_store_not_a_file_that_is_gone(environ: dict[str, str]) -> None:
    import signal

    import pexpect
    from helpers.terminal import PROMPT, start

    child = start(environ, "repl")
    for line in ("fight", "hero Zed", "enemy ogre hp 9"):
        child.sendline(line)
        child.expect_exact(PROMPT)
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    again = start(environ, "repl")
    again.sendline("y")
    again.expect_exact("fight loaded from ")
    again.expect_exact(PROMPT)
    shown = again.before
    assert "crux.db (the fight left running)" in shown.replace("\r\n", "")
    assert "fights/" not in shown
    again.sendline("/quit")
    again.expect(pexpect.EOF)


def test_two_defends_on_one_target_stack_and_an_interpose_from_a_hero_who_drops_stays() -> None:
    """Rulings (grammar/encounters.md): ../shared/seeds/001_…: "Defend: Protect yourself or an ally from an
    attack" twice is +2 Banes; "Interpose: Move into harm's way for an ally" from a hero who then drops to Dying
    still answers the attack."""
    made = Session(Runner(source=ScriptedSource([6, 6, 6, 3, 2, 1])))
    for line in ("fight", "hero Bram", "hero Wren", "hero Pip", "enemy ogre hp 30 atk d6", "init",
                 "next", "next", "next"):
        said(made, line)
    said(made, "react Bram defend Pip")
    said(made, "react Wren defend Pip")
    assert made.fight.encounter.find("Pip").defended == 2
    said(made, "react Bram interpose Wren")
    said(made, "damage bram 10")  # Bram drops to Dying, his Interpose waiting
    attacked = said(made, "atk wren")
    assert "Bram interposes: the attack on Wren hits Bram" in attacked


@pytest.mark.slow
def test_the_smaller_things_at_a_real_terminal(environ: dict[str, str], tmp_path: Path) -> None:
    """At a real terminal, as the GM met them: `atk ash` on Wren of Ash's turn is the ashling; the journal's
    who for `react` is the reactor, whole however long; an ambush is journaled as no roll; a sheet loaded
    during a fight is refused unasked; a heal at full HP says there is nothing to restore; margins print −."""
    import pexpect
    from helpers.terminal import answered, start

    make_sheet(tmp_path)
    long = "Bramwell Ironfoot of the Deep"
    child = start(environ, "repl", cwd=tmp_path)
    answered(child, "/pager off", "pager: off")
    answered(child, "fight", "a fight begins")
    answered(child, "hero Wren of Ash", "Wren of Ash joins the fight")
    answered(child, f"hero {long}", f"{long} joins the fight")
    answered(child, "enemy ashling hp 30", "ashling (30 HP")
    answered(child, "init ambush", "3 actions", "round 1")
    answered(child, "react bram help wren", "Bramwell Ironfoot of the Deep")
    answered(child, "atk ash", "Wren of Ash → ashling")
    child.sendline("load wren.toml")
    child.expect_exact("wren.toml is a character sheet (Wren), not a saved fight")
    child.expect_exact("crux> ")
    assert "replace it" not in child.before
    answered(child, "heal wren 1", "at full HP: nothing to restore")
    answered(child, "/log", "init ambush: 3 actions, no roll", f"{long} react bram help wren")
    answered(child, "1d20+5 vs 30", "fail −")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
