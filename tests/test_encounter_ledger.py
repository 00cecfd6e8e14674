"""The encounter ledger: a scripted three-round fight checked after every step, and each refusal."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.rulesets.crux import encounter as fight


def ledger(encounter: fight.Encounter) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    """name → (actions left, attacks this turn, reactions used this round)."""
    return {c.name: (c.actions, c.attacks, c.reactions) for c in encounter.combatants}


def setup() -> fight.Encounter:
    e = fight.Encounter()
    for step in (lambda e: fight.add_hero(e, "Wren"), lambda e: fight.add_hero(e, "Bram"),
                 lambda e: fight.add_enemy(e, "goblin", 7, "heavy"), lambda e: fight.add_minions(e, "rats", 6)):
        e = step(e).encounter
    return e


def test_a_three_round_fight():
    e = setup()
    assert [c.name for c in e.order()] == ["Wren", "Bram", "goblin", "rats"]

    step = fight.start(e, {"Wren": 2, "Bram": 1})
    e = step.encounter
    assert (e.round, e.active().name) == (1, "Wren")
    assert ledger(e) == {"Wren": (2, 0, ()), "Bram": (1, 0, ()), "goblin": (3, 0, ()), "rats": (3, 0, ())}

    step = fight.act(e, "attack")  # first attack: not rushed
    e = step.encounter
    assert step.rushed == 0 and ledger(e)["Wren"] == (1, 1, ())
    e = fight.hit_enemy(e, "goblin", 4).encounter
    assert e.find("goblin").hp == 3

    step = fight.act(e, "attack")  # second attack: rushed 1
    e = step.encounter
    assert step.rushed == 1 and ledger(e)["Wren"] == (0, 2, ())
    with pytest.raises(CruxError, match="0 actions left"):
        fight.act(e, "attack")

    e = fight.react(e, "Bram", "help", ally="Wren").encounter  # Bram helps off-turn, from initiative actions
    assert ledger(e)["Bram"] == (0, 0, ("help",)) and e.find("Wren").helped == 1

    e = fight.next_turn(e).encounter  # Bram: round 1 keeps what is left (0)
    assert (e.active().name, e.active().actions) == ("Bram", 0)
    e = fight.next_turn(e).encounter  # goblin
    assert e.active().name == "goblin"
    with pytest.raises(CruxError, match="no actions left"):  # Wren spent both on attacks
        fight.react(e, "Wren", "defend")
    e = fight.next_turn(e).encounter  # rats
    e = fight.hit_enemy(e, "rats", 5, caught=2).encounter
    assert e.find("rats").minions == 4

    step = fight.next_turn(e)  # round 2: Wren again, 3 actions, reactions refresh
    e = step.encounter
    assert "round 2" in step.events and (e.round, e.active().name, e.active().actions) == (2, "Wren", 3)
    assert all(c.reactions == () for c in e.combatants)
    step = fight.act(e, "attack")
    assert step.boons == 1 and step.rushed == 0  # Bram's Help is used on this roll
    e = step.encounter
    e = fight.hit_enemy(e, "goblin", 3).encounter
    assert e.find("goblin").down
    e = fight.act(e, "cast", 2).encounter
    assert ledger(e)["Wren"] == (0, 1, ())

    e = fight.next_turn(e).encounter  # Bram
    e = fight.act(e, "move").encounter
    e = fight.next_turn(e).encounter  # the goblin is down: straight to the rats
    assert e.active().name == "rats"
    step = fight.next_turn(e)  # round 3
    e = step.encounter
    assert (e.round, e.active().name, e.active().actions) == (3, "Wren", 3)
    for _ in range(3):
        e = fight.act(e, "attack").encounter
    assert ledger(e)["Wren"] == (0, 3, ())


def test_the_third_attack_is_rushed_2():
    e = fight.start(setup(), {"Wren": 3}).encounter
    rushed = []
    for _ in range(3):
        step = fight.act(e, "attack")
        rushed.append(step.rushed)
        e = step.encounter
    assert rushed == [0, 1, 2]


def test_a_reaction_kind_once_per_round():
    e = fight.start(setup(), {"Wren": 3, "Bram": 3}).encounter
    e = fight.react(e, "Bram", "defend").encounter
    with pytest.raises(CruxError, match="used Defend this round"):
        fight.react(e, "Bram", "defend")
    e = fight.react(e, "Bram", "interpose", "Wren").encounter  # another kind is fine (for an ally, §6.2)
    assert e.find("Bram").actions == 1


def test_no_actions_no_reaction():
    e = fight.start(setup(), {"Wren": 3, "Bram": 1}).encounter
    e = fight.react(e, "Bram", "defend").encounter
    with pytest.raises(CruxError, match="no actions left"):
        fight.react(e, "Bram", "opportunity")


def test_no_reaction_on_your_own_turn():
    e = fight.start(setup(), {"Wren": 3}).encounter
    with pytest.raises(CruxError, match="own turn"):
        fight.react(e, "Wren", "defend")


def test_dying_allows_one_action_a_turn():
    e = setup()
    e = fight.set_hero_state(e, "Wren", dying=True, dead=False, dazed=False)
    e = fight.start(e, {"Wren": 3}).encounter
    assert e.active().actions == 1
    e = fight.act(e, "move").encounter
    with pytest.raises(CruxError, match="Dying: one action a turn"):
        fight.act(e, "attack")


def test_dazed_loses_an_action_on_the_next_turn_only():
    e = fight.start(setup(), {"Wren": 3, "Bram": 3}).encounter
    e = fight.set_hero_state(e, "Bram", dying=False, dead=False, dazed=True)
    step = fight.next_turn(e)
    assert step.encounter.active().actions == 2 and any("dazed" in said for said in step.events)
    e = step.encounter
    for _ in range(4):  # goblin, rats, Wren (round 2), Bram
        e = fight.next_turn(e).encounter
    assert (e.active().name, e.active().actions) == ("Bram", 3)


def test_ambush_and_enemies_start_with_three():
    e = fight.start(setup(), {"Wren": 3, "Bram": 3}).encounter
    assert {c.name: c.actions for c in e.combatants} == {"Wren": 3, "Bram": 3, "goblin": 3, "rats": 3}


def test_before_initiative_nothing_acts():
    with pytest.raises(CruxError, match="has not started"):
        fight.act(setup(), "attack")


def test_unknown_names_and_duplicates_are_refused():
    e = setup()
    with pytest.raises(CruxError, match="no 'orc'"):
        e.find("orc")
    with pytest.raises(CruxError, match="already in the fight"):
        fight.add_hero(e, "wren")


def test_a_minion_group_loses_one_to_any_damaging_hit_and_none_to_zero():
    e = setup()
    e = fight.hit_enemy(e, "rats", 1).encounter
    assert e.find("rats").minions == 5
    e = fight.hit_enemy(e, "rats", 0).encounter
    assert e.find("rats").minions == 5
    e = fight.hit_enemy(e, "rats", 9, caught=10).encounter
    assert e.find("rats").minions == 0 and e.find("rats").down


def test_spells_cost_one_to_three():
    e = fight.start(setup(), {"Wren": 3}).encounter
    with pytest.raises(CruxError, match="1, 2 or 3"):
        fight.act(e, "cast", 4)
    e = fight.act(e, "cast", 3).encounter
    assert e.active().actions == 0


def test_a_reaction_spends_an_action_left_from_your_own_last_turn_in_every_round():
    """Seed §6.2: "Each reaction costs 1 action from your unused actions this turn. If you have no actions
    left, you cannot react." One ruling for every round: what you left unused on your own last turn (in
    round 1, from initiative) waits for reactions until your next turn begins."""
    e = fight.start(setup(), {"Wren": 3, "Bram": 3}).encounter
    e = fight.act(e, "move").encounter  # Wren keeps 2
    for _ in range(4):  # Bram (keeps 3), goblin, rats, then Wren in round 2
        e = fight.next_turn(e).encounter
    assert (e.round, e.find("Bram").actions) == (2, 3)
    e = fight.react(e, "Bram", "defend").encounter  # round 2, before his turn: from his round-1 leftovers
    assert e.find("Bram").actions == 2
    e = fight.next_turn(e).encounter
    assert (e.active().name, e.active().actions) == ("Bram", 3)  # his turn: 3 fresh, nothing banked
    for _ in range(2):
        e = fight.next_turn(e).encounter  # goblin: Wren has what she left on her round-2 turn (all 3)
    assert e.find("Wren").actions == 3
    e = fight.react(e, "Wren", "defend").encounter  # a hero reacts to an enemy, in round 2
    assert e.find("Wren").actions == 2
