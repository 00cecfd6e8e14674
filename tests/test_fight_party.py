"""A party that lasts the evening (issue 36): heroes held by name (no sheet) keep their HP, Wounds and Grit
across `end`, `fight new` and a later session, come back by name as they were, and have their numbers set
by `hero NAME hp N`; `party` lists them. Wounds are long-term damage:

    ../shared/seeds/001_…: "9.2 Wounds … When your HP drops to 0: … Gain 1 Wound" and "6 Wounds = death"
    ../shared/seeds/001_…: "Safe Rest … Heal 1 Wound"
"""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest
from helpers import refused, said
from helpers.terminal import answered, start

from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner
from crux_cli.state.autosave import Autosave
from crux_cli.state.journal import Journal


def session() -> Session:
    """A session with the store, as `crux repl` has it (the journal and the autosave)."""
    made = Session(Runner(seed=3))
    made.journal = Journal.open()
    made.autosave = Autosave.start(made.journal)
    return made


def close(made: Session) -> None:
    assert made.autosave is not None and made.journal is not None
    made.autosave.close()
    made.journal.close()


def pip_in_a_fight(made: Session) -> None:
    said(made, "fight")
    said(made, "hero Pip Quickfingers")
    said(made, "enemy ogre hp 5")
    said(made, "init")


def test_a_held_hero_comes_back_as_they_were_after_end_and_in_a_later_session() -> None:
    first = session()
    pip_in_a_fight(first)
    assert "Wounds 0 → 2" in said(first, "wound pip 2")
    said(first, "end")
    said(first, "fight new")
    back = said(first, "hero Pip Quickfingers")
    assert "Pip Quickfingers is back as the party left them: HP 10/10 · Wounds 2/6" in back
    assert first.fight.heroes["Pip Quickfingers"].wounds == 2
    close(first)

    later = session()  # a later `crux repl`: the store keeps the party
    said(later, "fight")
    assert "back as the party left them: HP 10/10 · Wounds 2/6" in said(later, "hero pip quickfingers")
    assert [c.name for c in later.fight.encounter.combatants] == ["Pip Quickfingers"]
    close(later)


def test_hero_name_hp_sets_the_number_and_never_takes_a_keyword_into_the_name() -> None:
    made = session()
    said(made, "fight")
    joined = said(made, "hero Pip Quickfingers hp 7")
    assert "Pip Quickfingers joins the fight" in joined and "HP 10 → 7" in joined
    assert made.fight.heroes["Pip Quickfingers"].hp == 7
    assert "Grit 0 → 2" in said(made, "hero pip grit 2")  # in the fight: any beginning of the name
    assert "Wounds 0 → 3" in said(made, "hero Pip wounds 3 hp 9/12")
    pip = made.fight.heroes["Pip Quickfingers"]
    assert (pip.hp, pip.hp_max, pip.wounds, pip.grit) == (9, 12, 3, 2)
    assert "'goblin' is not a hero's number" in refused(made, "hero Pip hp 7 goblin")
    assert "grit holds 0 to 5" in refused(made, "hero Pip grit 6").lower()
    said(made, "enemy ogre hp 5")
    assert "ogre is not a hero" in refused(made, "hero ogre hp 3")
    assert "HP 9 → 0" in said(made, "hero Pip hp 0")  # HP 0 is Dying (§9.2), the ledger says so
    assert made.fight.encounter.find("Pip Quickfingers").dying
    close(made)


def test_party_lists_the_held_heroes_and_undo_takes_a_return_back() -> None:
    made = session()
    assert "no hero is held by name" in said(made, "party")
    pip_in_a_fight(made)
    said(made, "hero Bram hp 4")
    listed = said(made, "party")
    assert "Pip Quickfingers: HP 10/10 · Wounds 0/6 · Grit" in listed and "Bram: HP 4/10" in listed
    assert "in the fight" in listed
    said(made, "end")
    assert "in the fight" not in said(made, "party")  # the party outlives the fight
    said(made, "fight")
    said(made, "hero Bram")
    said(made, "hero Bram hp 9")
    said(made, "undo")
    said(made, "undo")
    assert made.fight.names() == ()
    assert "Bram: HP 4/10" in said(made, "party")  # the number set is taken back with its word
    close(made)


def test_a_held_hero_in_a_saved_fight_file_is_not_lost_with_the_party(tmp_path: Path) -> None:
    made = session()
    pip_in_a_fight(made)
    said(made, "hero Pip hp 6")
    said(made, f"save {tmp_path / 'f.toml'}")
    said(made, "end")
    said(made, f"load {tmp_path / 'f.toml'}")
    assert made.fight.heroes["Pip Quickfingers"].hp == 6
    close(made)


@pytest.mark.slow
def test_pips_wounds_survive_end_fight_and_a_kill_9_at_a_real_terminal(environ: dict[str, str]) -> None:
    import os
    import signal

    child = start(environ, "repl", "--seed", "3")
    answered(child, "fight", "a fight begins")
    answered(child, "hero Pip Quickfingers hp 7", "Pip Quickfingers joins the fight", "HP 10 → 7")
    answered(child, "enemy ogre hp 5", "ogre (5 HP")
    answered(child, "init", "round 1")
    answered(child, "wound pip 4", "Wounds 0 → 4")
    answered(child, "end", "the fight is over")
    answered(child, "fight", "a fight begins")
    answered(child, "hero Pip Quickfingers", "Pip Quickfingers is back as the party left them: HP 7/10 · Wounds 4/6")
    answered(child, "end")
    os.kill(child.pid, signal.SIGKILL)  # no goodbye between the fights
    child.expect(pexpect.EOF)
    child.close()

    again = start(environ, "repl")
    answered(again, "party", "Pip Quickfingers: HP 7/10 · Wounds 4/6")
    answered(again, "fight", "a fight begins")
    answered(again, "hero Pip Quickfingers", "back as the party left them: HP 7/10 · Wounds 4/6")
    answered(again, "hero Pip Quickfingers hp 9", "HP 7 → 9")
    again.sendline("/quit")
    again.expect(pexpect.EOF)


# -- every change shown ------------------------------------------------------------------------------


def scripted(faces: list[int]) -> Session:
    from crux_cli.core.rng import ScriptedSource

    return Session(Runner(source=ScriptedSource(faces)))


def test_a_held_heros_failed_dying_str_save_prints_its_wound_and_the_journal_brackets_it() -> None:
    """../shared/seeds/001_…: "9.3 Dying … Strenuous actions may force a STR save; on failure you gain 1 extra
    Wound." The same words as for a hero on a sheet (`sheet_suffix`)."""
    from test_repl_fight import Entries

    made = scripted([5, 1])  # initiative 5; the STR save 1: a failure
    made.journal = journal = Entries()
    for line in ("fight", "hero Zed", "enemy ogre hp 9", "init", "damage zed 10"):
        said(made, line)
    saved = said(made, "save zed STR")
    assert "Zed: Grit 0 → 1 · failed STR save while Dying: Wounds 1 → 2" in saved
    assert made.fight.heroes["Zed"].wounds == 2
    assert journal.entries[-1].sheets == ({"path": None, "who": "Zed", "before": {"grit": 0, "wounds": 1},
                                           "after": {"grit": 1, "wounds": 2}},)


def test_an_elites_grit_says_what_is_left_and_a_miss_takes_no_0() -> None:
    """../shared/seeds/001_…: "Elite monsters can be given Grit and heroic reactions to feel closer to PCs." (§11);
    a held hero's roll says their Grit total, as a sheet hero's does."""
    made = scripted([5, 4, 1, 1])  # init 5; the boss's Grit attack 4, 1; Zed's attack misses on 1
    for line in ("fight", "hero Zed", "enemy boss hp 20 grit 2 atk d6", "init", "next"):
        said(made, line)
    attacked = said(made, "atk zed grit")
    assert "Grit −1 spent" in attacked and "boss: Grit 2 → 1" in attacked
    said(made, "next")
    missed = said(made, "atk boss")
    assert "miss" in missed and "Zed: Grit 0 → 1" in missed
    assert "takes 0" not in missed and "boss takes" not in missed


@pytest.mark.slow
def test_a_held_heros_failed_dying_str_save_at_a_real_terminal(environ: dict[str, str]) -> None:
    """../shared/seeds/001_…: "Strenuous actions may force a STR save; on failure you gain 1 extra Wound."
    Seed 3 rolls a 1 on the save."""
    child = start(environ, "repl", "--seed", "3")
    answered(child, "fight", "a fight begins")
    answered(child, "hero Zed", "Zed joins the fight")
    answered(child, "enemy ogre hp 9", "ogre (9 HP")
    answered(child, "init", "round 1")
    answered(child, "damage zed 10", "Dying no → yes")
    answered(child, "save zed STR", "Zed: save STR: full effect (1)", "failed STR save while Dying: Wounds 1 → 2")
    answered(child, "party", "Zed: HP 0/10 · Wounds 2/6")
    child.sendline("/quit")
    child.expect(pexpect.EOF)


# -- after a win --------------------------------------------------------------------------------------


def test_after_a_win_the_party_is_patched_up_by_name_until_end() -> None:
    """../shared/seeds/001_…: "Field Rest (short rest) ⛺ - Spend Hit Dice to restore HP." — after the fight, by
    name, without `fight on`."""
    made = scripted([6, 6, 4, 6])
    for line in ("fight", "hero Pip", "hero Tom", "enemy ogre hp 2", "init", "damage pip 5", "damage tom 4"):
        said(made, line)
    assert "the fight is won" in said(made, "damage ogre 2")
    assert "HP 5 → 8" in said(made, "heal pip 3")
    assert "HP 6 → 10" in said(made, "rest tom field 1")
    assert "prone" in said(made, "cond add pip prone")
    assert "Wounds 0 → 1" in said(made, "wound pip 1")
    assert "Pip" in said(made, "show pip")
    assert "ogre is out of it" in refused(made, "heal ogre 2")
    assert "`fight on` goes on with the last" in refused(made, "next")
    said(made, "end")
    assert "'heal' does not take 'pip' here" in refused(made, "heal pip 1")
    assert "Pip: HP 8/10 · Wounds 1/6 · Grit 0 · Hit Dice 1/1 · prone" in said(made, "party")


@pytest.mark.slow
def test_heal_pip_after_a_win_at_a_real_terminal(environ: dict[str, str]) -> None:
    child = start(environ, "repl", "--seed", "3")
    answered(child, "fight", "a fight begins")
    answered(child, "hero Pip", "Pip joins the fight")
    answered(child, "enemy ogre hp 2", "ogre (2 HP")
    answered(child, "init", "round 1")
    answered(child, "damage pip 5", "HP 10 → 5")
    answered(child, "damage ogre 2", "the fight is won")
    answered(child, "heal pip 3", "Pip: heal 3", "HP 5 → 8")
    child.sendline("/quit")
    child.expect(pexpect.EOF)


# -- a held hero given a sheet ------------------------------------------------------------------------


def test_a_held_hero_given_a_new_sheet_keeps_their_numbers_and_leaves_the_party(tmp_path: Path) -> None:
    """`hero NAME sheet FILE`: the sheet made of them holds their HP, Wounds, Grit and conditions; from then on the
    sheet keeps them (their next change is written there), and the party no longer holds them by name."""
    from crux_cli.state.store import load_hero

    made = session()
    pip_in_a_fight(made)
    said(made, "hero pip hp 6 wounds 3 grit 2")
    said(made, "cond add pip prone")
    sheet = tmp_path / "pip.toml"
    out = said(made, f"hero pip sheet {sheet}")
    assert f"Pip Quickfingers keeps a sheet from now on: {sheet} (a new one: fill in its attributes and attack)" in out
    assert "Pip Quickfingers: HP 6/10 · Wounds 3/6 · Grit 2 · Hit Dice 1/1 · prone" in out
    pip = load_hero(sheet)
    assert (pip.name, pip.hp, pip.wounds, pip.grit, pip.conditions) == ("Pip Quickfingers", 6, 3, 2, ("prone",))
    assert made.fight.sheets == {"Pip Quickfingers": str(sheet)} and "Pip Quickfingers" not in made.fight.heroes
    assert "no hero is held by name" in said(made, "party")
    assert "Wounds 3 → 4" in said(made, "wound pip 1")
    assert load_hero(sheet).wounds == 4  # the sheet keeps them now
    said(made, "end")
    said(made, "fight")
    assert "no hero is held by name" in said(made, "party")  # a later fight brings them by their sheet
    close(made)


def test_a_held_hero_given_their_own_sheet_carries_their_state_onto_it_and_undo_puts_it_back(tmp_path: Path) -> None:
    """An existing sheet of theirs keeps its attributes and maxima and takes the held numbers (HP within its most);
    one of the party alone joins the fight from it; `undo` gives the sheet its numbers back and the party its hero."""
    from helpers import crux_here

    from crux_cli.state.store import load_hero

    sheet = tmp_path / "tom.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Tom", "--hp", "14", "--attr", "STR=+2/1",
                     stdin="").returncode == 0
    made = session()
    said(made, "fight")
    said(made, "hero Tom hp 4 wounds 2")
    said(made, "end")
    said(made, "fight")
    out = said(made, f"hero tom sheet {sheet}")
    assert f"Tom keeps a sheet from now on: {sheet}\nTom: HP 14 → 4 · Wounds 0 → 2 · HP 4/14 · Wounds 2/6" in out
    assert "Tom joins the fight" in out and made.fight.sheets == {"Tom": str(sheet)}
    tom = load_hero(sheet)
    assert (tom.hp, tom.hp_max, tom.wounds, tom.attribute("STR").modifier) == (4, 14, 2, 2)
    assert "Tom: HP 4 → 14" in said(made, "undo")  # the sheet's numbers back, with the word
    assert load_hero(sheet).hp == 14 and "Tom: HP 4/10 · Wounds 2/6" in said(made, "party")
    assert "Tom: HP 14 → 4" in said(made, "redo")
    close(made)


def test_a_sheet_is_given_only_to_a_held_hero_and_only_their_own(tmp_path: Path) -> None:
    from helpers import crux_here

    wren = tmp_path / "wren.toml"
    assert crux_here("sheet", "new", str(wren), "--name", "Wren", stdin="").returncode == 0
    made = session()
    said(made, "fight")
    said(made, "hero Pip")
    said(made, "enemy ogre hp 5")
    assert "the party holds no hero called Zed" in refused(made, f"hero Zed sheet {tmp_path / 'z.toml'}")
    assert not (tmp_path / "z.toml").exists()
    assert "ogre is not a hero" in refused(made, f"hero ogre sheet {tmp_path / 'o.toml'}")
    assert f"{wren} is Wren's sheet, not Pip's" in refused(made, f"hero pip sheet {wren}")
    assert "which sheet? a FILE.toml after `sheet`" in refused(made, "hero pip sheet")
    said(made, f"hero {wren}")
    assert "Wren keeps a sheet already" in refused(made, f"hero wren sheet {tmp_path / 'w2.toml'}")
    close(made)


def test_between_fights_the_partys_hero_is_given_a_sheet_and_undo_gives_them_back(tmp_path: Path) -> None:
    """With no fight running (or after a win), `hero NAME sheet FILE` gives the party's hero a sheet, joining no
    fight; it is a step of its own (undo gives the party the hero back), and the store keeps the party as it left
    it, so a later session does not bring them back by name."""
    from crux_cli.state.store import load_hero

    made = session()
    said(made, "fight")
    said(made, "hero Tom wounds 2")
    said(made, "hero Ann")
    said(made, "end")
    sheet = tmp_path / "tom.toml"
    out = said(made, f"hero tom sheet {sheet}")
    assert f"Tom keeps a sheet from now on: {sheet}" in out and made.fight is None
    assert load_hero(sheet).wounds == 2
    listed = said(made, "party")
    assert "Ann:" in listed and "Tom:" not in listed
    assert said(made, "undo") == f"took back: hero tom sheet {sheet}"
    assert "Tom: HP 10/10 · Wounds 2/6" in said(made, "party")
    assert said(made, "redo") == f"made again: hero tom sheet {sheet}"
    close(made)
    later = session()
    listed = said(later, "party")
    assert "Ann:" in listed and "Tom:" not in listed
    close(later)


def test_after_a_win_a_hero_in_the_won_fight_is_given_a_sheet(tmp_path: Path) -> None:
    made = scripted([6])
    for line in ("fight", "hero Pip hp 5", "enemy ogre hp 2", "init", "damage ogre 2"):
        said(made, line)
    sheet = tmp_path / "pip.toml"
    assert "Pip: HP 5/10" in said(made, f"hero pip sheet {sheet}")
    assert made.fight.over and made.fight.sheets == {"Pip": str(sheet)}
    assert "HP 5 → 8" in said(made, "heal pip 3")  # patched up by name, on the sheet now
    assert "HP 5 → 8" not in said(made, "show pip") and "HP 8/10" in said(made, "show pip")


@pytest.mark.slow
def test_hero_name_sheet_file_at_a_real_terminal(environ: dict[str, str], tmp_path: Path) -> None:
    child = start(environ, "repl", cwd=tmp_path)
    answered(child, "fight", "a fight begins")
    answered(child, "hero Pip hp 7 wounds 4", "Pip joins the fight", "HP 10 → 7")
    answered(child, "hero pip sheet pip.toml", "Pip keeps a sheet from now on: pip.toml (a new one",
             "Pip: HP 7/10 · Wounds 4/6")
    answered(child, "status", "Pip", "HP 7/10 · Wounds 4/6")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    assert 'name = "Pip"' in (tmp_path / "pip.toml").read_text() and "wounds = 4" in (tmp_path / "pip.toml").read_text()


def test_hero_name_hd_sets_hit_dice_as_hp_is_set_and_hd_is_never_a_name() -> None:
    """Every number `party` lists can be set: Hit Dice too (`hd N[/MAX]`), within what a sheet holds."""
    made = session()
    said(made, "fight")
    assert "Hit Dice 1 → 0" in said(made, "hero Pip hd 0/3")
    assert "Hit Dice 0 → 2 · HP 10/10 · Wounds 0/6 · Grit 0 · Hit Dice 2/3" in said(made, "hero pip hd 2")
    pip = made.fight.heroes["Pip"]
    assert (pip.hit_dice, pip.hit_dice_max) == (2, 3)
    assert "Hit Dice 4 is more than the most, 3" in refused(made, "hero pip hd 4/3")
    assert "more than a sheet holds" in refused(made, "hero pip hd 1/101")
    assert "more than a sheet holds" in refused(made, "hero pip hp 100001")
    assert "cannot name a combatant" in refused(made, "hero hd")
    assert [c.name for c in made.fight.encounter.combatants] == ["Pip"]
    close(made)
