"""Crux seed §3 (Grit) and §9 (HP, Wounds, Dying, rests) and §10.3 (conditions) on a hero."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.rulesets.crux.compiler import grit_before
from crux_cli.rulesets.crux.engine import GritChange, PoolRequest, Source, roll_pool
from crux_cli.rulesets.crux.grit import apply_grit
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.rulesets.crux.wounds import (
    add_condition,
    condition_sources,
    damage,
    heal,
    remove_condition,
    rest_field,
    rest_safe,
)

HERO = Hero(name="Wren", hp=10, hp_max=12, hit_dice=3, hit_dice_max=3, hit_die=8)


def dice(*faces: int) -> Roller:
    return Roller(ScriptedSource(faces))


# --- §9.1-9.3 damage -----------------------------------------------------------------------------


def test_damage_reduces_hp() -> None:
    change = damage(HERO, 4)
    assert (change.after.hp, change.after.wounds, change.after.dying) == (6, 0, False)
    assert change.events == ()
    assert change.changes == (("hp", 10, 6),)


def test_hp_dropping_to_zero_gives_a_wound_and_dying_and_never_goes_below_zero() -> None:
    change = damage(HERO, 25)
    assert (change.after.hp, change.after.wounds, change.after.dying) == (0, 1, True)
    assert change.events == ("dropped to 0 HP: +1 Wound, Dying",)


def test_exactly_to_zero_counts_as_dropping_to_zero() -> None:
    assert damage(HERO, 10).after.dying


def test_a_crit_that_drops_you_to_zero_still_gives_one_wound() -> None:
    assert damage(HERO, 30, crit=True).wounds_gained == 1


def test_damage_while_dying_gives_two_wounds() -> None:
    dying = damage(HERO, 10).after
    change = damage(dying, 1)
    assert (change.after.hp, change.after.wounds, change.after.dying) == (0, 3, True)
    assert change.events == ("damage while Dying: +2 Wounds",)


def test_a_crit_while_dying_gives_three_wounds() -> None:
    change = damage(HERO.with_changes(hp=0, dying=True, wounds=1), 2, crit=True)
    assert change.after.wounds == 4
    assert change.events == ("damage while Dying (crit): +3 Wounds",)


def test_reaching_the_wound_cap_is_death_and_wounds_stop_at_the_cap() -> None:
    change = damage(HERO.with_changes(hp=0, dying=True, wounds=5), 1, crit=True)
    assert (change.after.wounds, change.after.dead) == (6, True)
    assert "6 Wounds: dead" in change.events


def test_a_lower_wound_cap_makes_death_come_sooner() -> None:
    gritty = HERO.with_changes(wound_cap=3, wounds=2)
    change = damage(gritty, 50)
    assert (change.after.wounds, change.after.dead) == (3, True)
    assert change.events == ("dropped to 0 HP: +1 Wound, Dying", "3 Wounds: dead")


def test_six_wounds_by_default_is_death() -> None:
    hero = damage(HERO, 10).after  # 1 Wound
    hero = damage(hero, 1).after  # 3
    assert not hero.dead
    hero = damage(hero, 1).after  # 5
    assert not hero.dead
    assert damage(hero, 1).after.dead  # 7, capped at 6


def test_damage_to_the_dead_changes_nothing() -> None:
    dead = HERO.with_changes(hp=0, wounds=6, dead=True)
    change = damage(dead, 5)
    assert change.after == dead and change.events == ("already dead",)


def test_zero_damage_is_no_damage_even_while_dying() -> None:
    dying = HERO.with_changes(hp=0, dying=True, wounds=1)
    assert damage(dying, 0).after == dying


def test_negative_damage_is_refused() -> None:
    with pytest.raises(CruxError, match="cannot be negative"):
        damage(HERO, -3)


# --- healing and §9.4 rests ----------------------------------------------------------------------


def test_heal_restores_hp_up_to_the_maximum() -> None:
    assert heal(HERO, 1).after.hp == 11
    change = heal(HERO, 50)
    assert change.after.hp == 12 and "HP full" in change.events


def test_healing_above_zero_ends_dying_but_keeps_the_wounds() -> None:
    change = heal(HERO.with_changes(hp=0, dying=True, wounds=2), 3)
    assert (change.after.hp, change.after.dying, change.after.wounds) == (3, False, 2)
    assert "back above 0 HP: no longer Dying" in change.events


def test_the_dead_are_not_healed() -> None:
    with pytest.raises(CruxError, match="is dead"):
        heal(HERO.with_changes(dead=True, hp=0, wounds=6), 5)


def test_field_rest_spends_hit_dice_and_restores_what_they_roll() -> None:
    change = rest_field(HERO.with_changes(hp=2), 2, dice(5, 3))
    assert change.rolls == (5, 3)
    assert (change.after.hp, change.after.hit_dice) == (10, 1)
    assert change.events[0] == "spent 2 Hit Dice (d8): 8 HP"


def test_field_rest_rolls_the_sheets_hit_die_and_stops_at_max_hp() -> None:
    change = rest_field(HERO.with_changes(hit_die=12), 1, dice(12))
    assert change.after.hp == 12 and change.hp_restored == 2


def test_field_rest_gets_a_dying_hero_up() -> None:
    change = rest_field(HERO.with_changes(hp=0, dying=True, wounds=1), 1, dice(4))
    assert (change.after.hp, change.after.dying, change.after.wounds) == (4, False, 1)


def test_field_rest_refuses_more_hit_dice_than_remain() -> None:
    with pytest.raises(CruxError, match="only 1 Hit Die left") as caught:
        rest_field(HERO.with_changes(hit_dice=1), 2, dice())
    assert caught.value.hint == "rest field 1"
    with pytest.raises(CruxError, match="only 0 Hit Dice left"):
        rest_field(HERO.with_changes(hit_dice=0), 1, dice())


def test_safe_rest_restores_all_hp_and_hit_dice_and_heals_one_wound() -> None:
    worn = HERO.with_changes(hp=0, dying=True, wounds=3, hit_dice=0)
    change = rest_safe(worn)
    after = change.after
    assert (after.hp, after.hit_dice, after.wounds, after.dying) == (12, 3, 2, False)
    assert "1 Wound healed" in change.events


def test_safe_rest_with_no_wounds_heals_none() -> None:
    assert rest_safe(HERO).after.wounds == 0


# --- §10.3 conditions ----------------------------------------------------------------------------


def test_conditions_are_added_and_removed_by_name() -> None:
    hero = add_condition(HERO, "Frightened").after
    assert hero.conditions == ("frightened",)
    assert add_condition(hero, "frightened").events == ("already frightened",)
    assert remove_condition(hero, "frightened").after.conditions == ()
    assert remove_condition(HERO, "prone").events == ("was not prone",)


def test_dying_as_a_condition_is_the_dying_flag() -> None:
    hero = add_condition(HERO, "dying").after
    assert hero.dying and hero.conditions == ()
    assert not remove_condition(hero, "dying").after.dying


def test_unknown_conditions_are_refused_with_a_suggestion() -> None:
    with pytest.raises(CruxError, match="unknown condition") as caught:
        add_condition(HERO, "frightend")
    assert (caught.value.hint or "").startswith("did you mean frightened?")


def with_conditions(*names: str) -> Hero:
    return HERO.with_changes(conditions=names)


def banes(hero: Hero, kind: str, attribute: str | None = None, melee: bool = True) -> list[str]:
    sources = condition_sources(hero, kind, attribute, melee)
    assert all(s.net == -1 for s in sources)
    return [s.what for s in sources]


def test_frightened_puts_a_bane_on_every_roll() -> None:
    hero = with_conditions("frightened")
    for kind in ("test", "save", "initiative", "attack"):
        assert banes(hero, kind, "STR") == ["frightened"]


def test_blinded_puts_a_bane_on_attacks_only() -> None:
    hero = with_conditions("blinded")
    assert banes(hero, "attack") == ["blinded"]
    assert banes(hero, "test", "INT") == [] and banes(hero, "save", "DEX") == []


def test_restrained_puts_a_bane_on_attacks_and_dex_saves() -> None:
    hero = with_conditions("restrained")
    assert banes(hero, "attack") == ["restrained"]
    assert banes(hero, "save", "DEX") == ["restrained"]
    assert banes(hero, "save", "STR") == [] and banes(hero, "test", "DEX") == []


def test_prone_puts_a_bane_on_melee_attacks_only() -> None:
    hero = with_conditions("prone")
    assert banes(hero, "attack", melee=True) == ["prone"]
    assert banes(hero, "attack", melee=False) == []
    assert banes(hero, "test", "DEX") == []


def test_conditions_stack_one_bane_each_and_the_rest_add_none() -> None:
    hero = with_conditions("frightened", "blinded", "restrained", "prone", "grappled", "dazed")
    assert banes(hero, "attack") == ["frightened", "blinded", "restrained", "prone"]
    assert banes(HERO.with_changes(dying=True), "attack") == []


def test_condition_banes_shrink_the_pool_like_any_bane() -> None:
    hero = with_conditions("frightened")
    sources = (Source("rating", 1), *condition_sources(hero, "test", "DEX"))
    result = roll_pool(dice(4), PoolRequest("test", "DEX", sources))
    assert result.net == 0 and result.dice == (4,)


# --- §3 Grit on a sheet ---------------------------------------------------------------------------


def grit_after_spending(hero: Hero, spend: bool) -> int:
    before = grit_before(hero, spend, "DEX grit")
    assert before is not None
    return before


def test_spending_grit_needs_grit() -> None:
    with pytest.raises(CruxError, match="no Grit to spend"):
        grit_after_spending(HERO.with_changes(grit=0), spend=True)
    assert grit_after_spending(HERO.with_changes(grit=0), spend=False) == 0


def test_a_kept_one_earns_grit_up_to_five() -> None:
    for grit, expected in ((0, 1), (4, 5), (5, 5)):
        hero = HERO.with_changes(grit=grit)
        result = roll_pool(dice(1), PoolRequest("test", "STR", grit_before=grit_after_spending(hero, False)))
        assert apply_grit(hero, result.grit).grit == expected


def test_at_most_one_grit_per_roll_even_with_several_ones() -> None:
    hero = HERO.with_changes(grit=0)
    result = roll_pool(dice(1, 1, 1), PoolRequest("test", "STR", (Source("banes", -2),), grit_before=0))
    assert result.grit == GritChange(0, 1)
    assert apply_grit(hero, result.grit).grit == 1


def test_grit_spent_steadies_the_roll_and_fresh_grit_cannot_pay_for_it() -> None:
    hero = HERO.with_changes(grit=5)
    before = grit_after_spending(hero, spend=True)
    assert before == 4  # the engine sees the Grit after paying, so a kept 1 can refill it
    request = PoolRequest("test", "DEX", (Source("grit", 1),), grit_spent=True, grit_before=before)
    result = roll_pool(dice(1, 1), request)
    assert result.grit == GritChange(1, 1)
    assert apply_grit(hero, result.grit).grit == 5


def test_spending_without_earning_costs_one() -> None:
    hero = HERO.with_changes(grit=3)
    request = PoolRequest("test", "DEX", (Source("grit", 1),), grit_spent=True,
                          grit_before=grit_after_spending(hero, True))
    result = roll_pool(dice(2, 6), request)
    assert apply_grit(hero, result.grit).grit == 2
