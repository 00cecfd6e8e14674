"""Each ruling a fight makes, with the seed line it follows (seed 001 unless said; seed 002 for stepdice)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_repl_fight import make_sheet, refused, said

from crux_cli.core.errors import CruxError
from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import engine
from crux_cli.running.runner import Runner
from crux_cli.state.store import load_hero


def fighting(faces: list[int], *lines: str, sheet: Path | None = None) -> Session:
    session = Session(Runner(source=ScriptedSource(faces)))
    if sheet is not None:
        said(session, f"/load {sheet}")
    for line in ("fight", *lines):
        said(session, line)
    return session


def test_help_is_taken_by_the_next_roll_and_waits_through_actions_that_roll_nothing() -> None:
    """§6.2: "Help 🤝 | Give an ally +1 Boon on a roll" — the next roll: a test, a save or an attack."""
    session = fighting([5, 5, 2, 6], "hero Wren", "hero Bram", "enemy orc hp 20", "init")
    said(session, "react Bram help Wren")
    said(session, "move")
    said(session, "cast")
    assert session.fight.encounter.find("Wren").helped == 1  # moving and casting rolled nothing
    out = said(session, "DEX")
    assert "Wren: +1 Boon from Help" in out and "Wren: DEX help: success (6)" in out
    assert session.fight.encounter.find("Wren").helped == 0


def test_a_hero_dropping_to_dying_mid_turn_keeps_one_action_at_once(tmp_path: Path) -> None:
    """§9.3 Dying: "You can only take 1 action per turn." — capped as soon as they drop, reactions included."""
    sheet = make_sheet(tmp_path, hp=3)
    session = fighting([5, 5], "hero Bram", "enemy orc hp 20 atk d6", "init", sheet=sheet)
    assert session.fight.encounter.find("Wren").actions == 3
    out = said(session, "damage Wren 5")
    assert "Wren drops to Dying: 1 action left" in out
    assert session.fight.encounter.find("Wren").actions == 1
    said(session, "next")  # Bram's turn: Wren's one action is all she can react with
    said(session, "react Wren defend")
    assert "no actions left" in refused(session, "react Wren interpose")


def test_minions_do_not_crit_unless_the_gm_says_so_and_earn_no_grit() -> None:
    """§11: "Minions do not gain Grit and usually do not crit." Their max is a plain hit; `crits` restores it."""
    session = fighting([5, 4, 1, 1, 3], "hero Wren", "minions rats 3 atk d4", "init", "next")
    out = said(session, "atk Wren")  # a 4 on a d4: a plain 4, not an exploding crit
    assert "hit · 4 damage" in out and "their max is a plain hit" in out
    out = said(session, "atk Wren")  # rushed: a kept 1 misses, and no Grit is earned
    assert "miss" in out and "Grit" not in out
    session = fighting([5, 4, 2], "hero Wren", "minions wolves 2 atk d4 crits", "init", "next")
    assert "crit · 6 damage" in said(session, "atk Wren")


def test_enemies_have_no_grit_unless_the_gm_gives_an_elite_some() -> None:
    """§11: "Elite monsters can be given Grit and heroic reactions to feel closer to PCs." """
    session = fighting([5, 1, 1, 4], "hero Wren", "enemy orc hp 9 atk d6", "enemy duke hp 9 atk d6 grit 1",
                       "init", "next")
    assert "Grit" not in said(session, "atk Wren")  # the orc's 1 misses: no Grit line
    assert "has no Grit" in refused(session, "atk Wren grit")
    said(session, "next")
    assert "Grit +1 earned" in said(session, "atk Wren")  # the duke has Grit: a kept 1 earns one
    assert session.fight.encounter.find("duke").grit == 2
    said(session, "atk Wren grit")
    assert session.fight.encounter.find("duke").grit == 1


def test_minion_max_is_a_plain_hit_through_armour() -> None:
    """§11 minions "usually do not crit"; so §7.2's "Critical hits ignore armour" does not apply to them."""
    request = engine.AttackRequest(1, 6, armour="heavy")
    crit = engine.AttackResult(request, (6,), 6, (3,), (), "crit", 9, 9, 9, 9, None, engine.GritChange())
    plain = engine.without_crit(crit)
    assert (plain.outcome, plain.explosions, plain.damage) == ("hit", (), 3)  # half the dice in heavy armour


def test_a_failed_str_save_while_dying_is_one_more_wound(tmp_path: Path) -> None:
    """§9.3: "Strenuous actions may force a STR save; on failure you gain 1 extra Wound." """
    sheet = make_sheet(tmp_path, hp=0, dying=True, wounds=1)
    session = Session(Runner(source=ScriptedSource([2, 5])))
    said(session, f"/load {sheet}")
    assert "failed STR save while Dying: Wounds 1 → 2" in said(session, "save STR")
    said(session, "save STR")  # a success costs nothing
    assert load_hero(sheet).wounds == 2
    assert "1 Wound" in said(session, "wound 1")
    assert load_hero(sheet).wounds == 3


@pytest.mark.parametrize(("condition", "line", "boon"), [
    ("prone", "atk goblin", True),  # "Prone 🤕 | … Boon to melee attacks against you"
    ("prone", "atk goblin ranged", False),  # only melee
    ("blinded", "atk goblin ranged", True),  # "Blinded 🙈 | … others may have Boon to hit you"
])
def test_the_targets_conditions_give_a_boon_to_hit_it(condition: str, line: str, boon: bool) -> None:
    """§10.3: "Prone 🤕 | Bane to melee attacks you make; Boon to melee attacks against you";
    "Blinded 🙈 | Bane on attacks and perception; others may have Boon to hit you"."""
    session = fighting([5, 4, 2], "hero Wren", "enemy goblin hp 20", "init", f"cond add goblin {condition}")
    out = said(session, line + " d6")
    assert (f"goblin is {condition}: +1 Boon" in out) is boon
    assert ("+1b" in out) is boon


def test_an_enemys_own_conditions_hinder_its_attack() -> None:
    """§10.3: "Restrained ⛓️ | Speed 0; Banes on attacks and DEX saves"."""
    session = fighting([5, 3, 4], "hero Wren", "enemy goblin hp 20 atk d6", "init", "next",
                       "cond add goblin restrained")
    out = said(session, "atk Wren")
    assert "goblin is restrained: +1 Bane on the attack" in out and "-1B" in out


def test_a_save_on_a_sheet_cannot_contradict_its_save_types(tmp_path: Path) -> None:
    """§4: "One advantaged save type — starts with +1 Boon", "One disadvantaged save type — starts with
    +1 Bane", "Situational Boons/Banes stack on top of this." — so adv/dis follow the sheet; help is +1b."""
    sheet = make_sheet(tmp_path, advantaged_save="DEX", disadvantaged_save="WIL")
    session = Session(Runner(source=ScriptedSource([5, 5, 5])))
    said(session, f"/load {sheet}")
    out = refused(session, "save WIL adv")
    assert "contradicts the sheet: WIL is Wren's disadvantaged save" in out and "+1b" in out
    assert "Wren's advantaged save is DEX" in refused(session, "save INT adv")
    said(session, "save WIL +1b")  # situational help stacks on the sheet's Bane
    said(session, "save DEX adv")  # saying what the sheet says is fine


def test_an_ambush_rolls_nothing_so_no_grit_is_spent() -> None:
    """§3.2 Steady the Roll: "Cost: 1 Grit Timing: Declared before rolling"; §5 ambushers "all count as
    5–6" — no roll, so nothing to steady."""
    with pytest.raises(CruxError, match="an ambush rolls nothing"):
        Runner(source=ScriptedSource([])).answer("init ambush grit")


def test_the_dead_roll_no_dice(tmp_path: Path) -> None:
    """§9.2: "6 Wounds = death" — the dead make no attacks, tests or saves, and so earn no Grit."""
    sheet = make_sheet(tmp_path, wounds=6, dead=True, hp=0)
    session = Session(Runner(source=ScriptedSource([1])))
    said(session, f"/load {sheet}")
    for line in ("DEX", "save STR", "atk", "init"):
        assert "Wren is dead: the dead roll no dice" in refused(session, line)
    assert load_hero(sheet).grit == 2


def test_position_and_effect_labels_stay_on_attacks() -> None:
    """§2.3: "These do not change the die result — they guide narration." — so they are kept, not dropped."""
    answer = Runner(source=ScriptedSource([4])).answer("atk d6 risky great")
    from crux_cli.core.style import PLAIN
    from crux_cli.render.jsonl import line
    from crux_cli.render.text import answer_line

    assert answer_line(answer, PLAIN).endswith("risky great")
    assert json.loads(line(answer))["labels"] == {"position": "risky", "effect": "great"}


def test_a_wound_cap_above_six_is_refused(tmp_path: Path) -> None:
    """§9.2: "6 Wounds = death (or a lower cap for a grittier game)." — the cap only goes down."""
    sheet = make_sheet(tmp_path)
    sheet.write_text(sheet.read_text().replace("wound_cap = 6", "wound_cap = 8"))
    with pytest.raises(CruxError, match="from 1 to 6"):
        load_hero(sheet)


def test_stepdice_direct_damage_can_go_to_dex_or_wil() -> None:
    """Seed 002: "attacks that seek to entangle or slow would deal Direct Damage to DEX"; at zero dice,
    "Paralysis for DEX." "Catatonia for WIL." """
    runner = Runner(rules="stepdice", source=ScriptedSource([6, 2]))
    result = runner.answer("attack d6 dex d4").result
    assert (result.request.attribute, result.consequence, result.strength_after) == ("DEX", "incapacitated", 0)
    result = Runner(rules="stepdice", source=ScriptedSource([6])).answer("attack d6 wil 0").result
    assert result.consequence == "catatonic"


@pytest.mark.parametrize(("face", "marked"), [(3, True), (5, True), (1, False)])
def test_stepdice_death_says_the_hero_is_now_marked(face: int, marked: bool) -> None:
    """Seed 002: "If you return to life after meeting Death, you are Marked by Death in some way." """
    from crux_cli.core.style import PLAIN
    from crux_cli.render.text import answer_line

    answer = Runner(rules="stepdice", source=ScriptedSource([face])).answer("death")
    assert ("now Marked by Death" in answer_line(answer, PLAIN)) is marked


def test_reactions_follow_one_ruling_in_every_round() -> None:
    """§6.2: "Each reaction costs 1 action from your unused actions this turn." An enemy can react to a hero
    in round 2 with what it left on its own turn; a hero left with none cannot."""
    e = ledger.Encounter()
    for step in (lambda e: ledger.add_hero(e, "Wren"), lambda e: ledger.add_enemy(e, "orc", 9)):
        e = step(e).encounter
    e = ledger.start(e, {"Wren": 3}).encounter
    for _ in range(3):
        e = ledger.act(e, "move").encounter  # Wren uses all 3
    e = ledger.next_turn(e).encounter  # the orc's turn
    e = ledger.act(e, "attack").encounter  # leaves 2
    e = ledger.next_turn(e).encounter  # round 2, Wren
    assert e.round == 2 and e.find("orc").actions == 2
    e = ledger.react(e, "orc", "defend").encounter  # during Wren's round-2 turn
    assert e.find("orc").actions == 1
    for _ in range(3):
        e = ledger.act(e, "move").encounter  # Wren spends her whole turn
    e = ledger.next_turn(e).encounter  # the orc's turn: 3 fresh actions; Wren left none to react with
    assert e.find("orc").actions == 3
    with pytest.raises(CruxError, match="no actions left"):
        ledger.react(e, "Wren", "defend")


@pytest.mark.parametrize(("line", "said_"), [
    ("atk d8 rushed 2 boons", "'rushed 2 boons' could be rushed 2 and one boon, or rushed and 2 boons"),
    ("atk d8 rushed 3 banes", "'rushed 3 banes' could be rushed 3 and one bane, or rushed and 3 banes"),
    ("DEX boons", "'boons' needs how many"),
    ("save STR banes", "'banes' needs how many"),
])
def test_a_plural_boon_word_needs_its_count(line: str, said_: str) -> None:
    """§7.3 "Rushed attacks: roll your attack dice with +1 Bane": `rushed 2 boons` must not read as rushed 2 and
    a boon nobody counted; crux-notation(7)'s spellings are `N boon(s)` and `boon`, so `boons` alone is refused."""
    from crux_cli.rulesets.crux import grammar

    for fast in (True, False):
        grammar.FAST_PATH = fast
        try:
            with pytest.raises(CruxError, match=said_.replace("(", r"\(")):
                Runner(seed=1).answer(line)
        finally:
            grammar.FAST_PATH = True
    assert Runner(seed=1).answer("atk d8 rushed 2 2 boons").result.request.net == 0
    assert Runner(seed=1).answer("DEX 2 boons bane").result.request.net == 1


def test_an_ambush_refuses_boons_and_banes_it_would_drop_and_init_takes_them_otherwise() -> None:
    """§5: "Ambushes and surprise are handled with Boons and Banes on the Initiative roll. If the heroes are
    clearly ambushing, give them extra Boons or just decide they all count as 5–6." — `ambush` rolls nothing."""
    with pytest.raises(CruxError, match="an ambush rolls nothing"):
        Runner(seed=1).answer("init ambush -2B")
    session = fighting([2, 6], "hero Wren", "enemy orc hp 9")
    assert "an ambush rolls nothing" in refused(session, "init ambush -2B")
    assert not session.fight.encounter.started
    out = said(session, "init +1b")  # every hero's roll takes the Boon
    assert "Wren: init +1b: 3 actions (6)" in out


def test_a_hero_joining_from_round_two_rolls_no_initiative_and_earns_no_grit() -> None:
    """§5: "Initiative uses a DEX attribute test and determines how many actions you start with in the first
    round." "From the second round onwards, everyone gets 3 actions at the start of their turn"."""
    session = fighting([5, 5, 1], "hero Wren", "enemy orc hp 9", "init", "next", "next")
    assert session.fight.encounter.round == 2
    out = said(session, "hero Bram")  # nothing rolled: no 1 that would have earned Grit
    assert "init" not in out and "Bram joins the fight with 3 actions" in out
    assert session.fight.encounter.find("Bram").actions == 3
    said(session, "remove Bram")
    said(session, "fight new")
    for line in ("hero Wren", "enemy orc hp 9", "init"):
        said(session, line)
    assert "Bram: init: 1 action (1)" in said(session, "hero Bram")  # round 1: rolled, as before


def test_dazed_and_dying_together_leave_one_action() -> None:
    """§10.3 "Dazed 😵 | Lose 1 action on your next turn"; "Dying ☠️ | 1 action per turn" — together (the seed is
    silent, grammar/encounters.md): Dazed comes out of the turn's three before Dying's cap, so 1 action."""
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy orc hp 9", "init", "damage Bram 10",
                       "cond add Bram dazed")
    out = said(session, "next")
    assert "Bram is dazed and dying: 1 action this turn (Dazed ends)" in out
    assert session.fight.encounter.find("Bram").actions == 1
    assert "dazed" not in said(session, "show Bram").split("·")[-1]


def test_dying_comes_with_zero_hp(tmp_path: Path) -> None:
    """§9.2: "When your HP drops to 0: Set HP to 0. Gain 1 Wound. Gain the Dying condition." — so `cond add
    dying` sets HP to 0, and damage to a hero made Dying by hand above 0 HP takes the HP down too."""
    sheet = make_sheet(tmp_path, hp=10)
    session = fighting([5], "enemy orc hp 9", "init", sheet=sheet)
    assert "HP set to 0" in said(session, "cond add Wren dying")
    assert load_hero(sheet).hp == 0
    from crux_cli.rulesets.crux import wounds
    from crux_cli.rulesets.crux.hero import Hero

    hand_made = Hero(name="Zed", hp=10, hp_max=10, dying=True)  # an older sheet
    after = wounds.damage(hand_made, 4).after
    assert (after.hp, after.wounds, after.dying) == (6, 2, True)


def test_rest_is_the_active_heros_and_a_hit_die_is_not_spent_at_full_hp() -> None:
    """§9.4 Field Rest: "Spend Hit Dice to restore HP." — as the active hero (or the one named), like heal; at
    full HP there is no HP to restore, so no Hit Die is spent."""
    session = fighting([5, 5, 4], "hero Wren", "hero Bram", "enemy orc hp 9", "init")
    assert "Wren is at full HP (10/10): a Hit Die would restore nothing" in refused(session, "rest field 1")
    said(session, "damage Bram 5")
    out = said(session, "rest Bram field 1")
    assert "Bram: rest field 1" in out and "HP 5 → 9" in out and "Hit Dice 1 → 0" in out
    assert "has no Hit Dice" in refused(session, "rest orc safe")


def test_after_a_win_status_and_end_give_the_summary_and_fight_on_skips_the_fallen() -> None:
    """The end: every enemy down wins; the summary can be seen again, `end` gives it, and `fight on` does not
    hand the turn to the enemy that just fell."""
    session = fighting([5], "hero Wren", "enemy orc hp 4", "init", "next", "damage orc 9")
    out = said(session, "status")
    assert "the fight is won after 1 round" in out and "fell: orc" in out and "orc          down" in out
    out = said(session, "fight on")
    assert "Wren's turn" in out and session.fight.acting() == "Wren"
    out = said(session, "end")
    assert "the fight is over after 2 rounds" in out and "enemies: dealt 0, took 9" in out
    assert session.fight is None
    session = fighting([5], "hero Wren", "enemy orc hp 4", "init", "damage orc 9")
    assert "the fight is won after 1 round" in said(session, "end") and session.fight is None
