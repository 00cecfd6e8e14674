"""The Crux seed's rules (§2–§5, §7–§8) with scripted dice, through parse → compile → engine."""

from __future__ import annotations

import pytest
from helpers import roll

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.rulesets.crux.hero import Attribute, Hero


def hero(**changes) -> Hero:
    return Hero(name="Wren").with_changes(**changes)


# -- §2 tests: pool size, keep highest/lowest, outcome bands ------------------------------------

@pytest.mark.parametrize(("face", "outcome"), [(1, "failure"), (2, "failure"), (3, "partial"), (4, "partial"),
                                               (5, "success"), (6, "success")])
def test_net_zero_rolls_one_die_and_reads_the_band(face, outcome):
    result = roll("DEX", [face])
    assert (result.dice, result.kept, result.outcome) == ((face,), face, outcome)


def test_boons_roll_more_dice_and_keep_the_highest():
    result = roll("DEX +2b", [2, 6, 1])
    assert (result.dice, result.kept, result.outcome, result.net) == ((2, 6, 1), 6, "success", 2)


def test_banes_roll_more_dice_and_keep_the_lowest():
    result = roll("DEX -2B", [6, 3, 5])
    assert (result.kept, result.outcome, result.net) == (3, "partial", -2)


def test_boons_and_banes_cancel_one_for_one():
    assert roll("DEX +2b -2B", [4]).dice == (4,)
    assert roll("DEX +1b -3B", [5, 2, 6]).kept == 2


def test_the_sheet_rating_starts_the_pool():
    wren = hero(attributes={"DEX": Attribute(modifier=2, rating=2)})
    result = roll("DEX -1B", [1, 4], hero=wren)
    assert (result.net, result.kept) == (1, 4)


def test_a_negative_rating_means_banes():
    wren = hero(attributes={"STR": Attribute(rating=-1)})
    assert roll("STR", [5, 2], hero=wren).kept == 2


def test_a_bare_test_has_rating_zero():
    assert roll("test +1b", [3, 4]).kept == 4


def test_position_and_effect_never_change_the_dice():
    result = roll("STR desperate limited", [3])
    assert (result.dice, result.request.position, result.request.effect) == ((3,), "desperate", "limited")


def test_help_is_one_boon():
    assert roll("INT help", [2, 5]).kept == 5


# -- §3 Grit -------------------------------------------------------------------------------------

def test_grit_adds_a_boon_without_banes():
    result = roll("DEX grit", [1, 5])
    assert (result.net, result.kept, result.grit.spent) == (1, 5, 1)


def test_grit_cancels_a_bane():
    result = roll("DEX -1B grit", [2])
    assert (result.net, result.dice, result.grit.spent) == (0, (2,), 1)


def test_a_kept_one_earns_grit():
    assert roll("DEX", [1]).grit.gained == 1


def test_only_the_kept_die_counts_for_grit():
    assert roll("DEX +1b", [1, 4]).grit.gained == 0
    assert roll("DEX -1B", [1, 4]).grit.gained == 1


def test_grit_is_not_earned_past_five():
    assert roll("DEX", [1], hero=hero(grit=5)).grit.gained == 0
    assert roll("DEX", [1], hero=hero(grit=4)).grit.gained == 1


def test_spending_at_five_then_rolling_a_one_earns_it_back():
    result = roll("DEX grit", [1, 1], hero=hero(grit=5))
    assert (result.grit.spent, result.grit.gained) == (1, 1)


def test_grit_cannot_be_spent_at_zero():
    with pytest.raises(CruxError, match="no Grit"):
        roll("DEX grit", [], hero=hero(grit=0))


def test_grit_twice_is_refused():
    with pytest.raises(CruxError, match="at most once"):
        roll("DEX grit grit", [])


def test_saves_attacks_and_initiative_earn_grit_too():
    assert roll("save WIL", [1]).grit.gained == 1
    assert roll("init", [1]).grit.gained == 1
    assert roll("atk d8", [1]).grit.gained == 1


# -- §4 saves ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("face", "effect"), [(1, "full effect"), (2, "full effect"), (3, "partial"),
                                              (4, "partial"), (5, "resisted"), (6, "resisted")])
def test_save_effects(face, effect):
    assert roll("save STR", [face]).effect == effect


def test_adv_is_a_boon_and_dis_a_bane():
    assert roll("save WIL adv", [2, 5]).kept == 5
    assert roll("save WIL dis", [2, 5]).kept == 2


def test_vs_rushed_is_a_boon():
    assert roll("save DEX vs rushed", [3, 6]).kept == 6


def test_the_sheet_save_types_apply_by_themselves():
    wren = hero(advantaged_save="WIL", disadvantaged_save="STR")
    assert roll("save WIL", [2, 5], hero=wren).request.stance == "adv"
    assert roll("save STR", [2, 5], hero=wren).kept == 2
    assert roll("save DEX", [4], hero=wren).request.stance is None


def test_situational_boons_stack_on_the_save_type():
    assert roll("save WIL adv +1b", [1, 2, 3]).net == 2


# -- §5 initiative -------------------------------------------------------------------------------

@pytest.mark.parametrize(("face", "actions"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_initiative_actions(face, actions):
    assert roll("init", [face]).actions == actions


def test_initiative_uses_the_dex_rating():
    wren = hero(attributes={"DEX": Attribute(rating=1)})
    assert roll("init", [2, 6], hero=wren).actions == 3


def test_ambush_rolls_nothing_and_gives_three_actions():
    result = roll("init ambush", [])
    assert (result.dice, result.kept, result.actions) == ((), None, 3)


# -- §7 attacks: the primary die -----------------------------------------------------------------

def test_primary_one_misses():
    result = roll("atk 2d8+3", [1, 7])
    assert (result.outcome, result.damage) == ("miss", 0)


def test_a_middle_primary_hits_for_dice_plus_flat():
    result = roll("atk 2d8+3", [5, 7])
    assert (result.outcome, result.dice_total, result.damage) == ("hit", 12, 15)


def test_primary_max_crits_and_explodes_until_it_stops():
    # primary 8, other die 2, then explosions 8, 8, 3
    result = roll("atk 2d8+1", [8, 2, 8, 8, 3])
    assert (result.outcome, result.explosions, result.dice_total, result.damage) == ("crit", (8, 8, 3), 29, 30)


def test_a_single_explosion():
    result = roll("atk d6", [6, 4])
    assert (result.explosions, result.damage) == ((4,), 10)


def test_boons_act_on_the_primary_die_only():
    # primary pool 2d8 keep highest [3, 6], then the other die 1 (not a miss: only the primary decides)
    result = roll("atk 2d8 +1b", [3, 6, 1])
    assert (result.primary_dice, result.primary, result.dice, result.outcome) == ((3, 6), 6, (1,), "hit")


def test_rushed_is_a_bane_on_the_primary():
    result = roll("atk d8 rushed", [7, 1])
    assert (result.primary, result.outcome) == (1, "miss")


def test_rushed_two_is_two_banes():
    result = roll("atk d8 rushed 2", [7, 6, 5])
    assert (result.primary_dice, result.primary) == ((7, 6, 5), 5)


def test_grit_steadies_a_rushed_attack():
    result = roll("atk d8 rushed grit", [2])
    assert (result.request.net, result.primary_dice) == (0, (2,))


def test_a_die_of_one_side_is_refused_with_a_hint():
    with pytest.raises(CruxError) as caught:
        roll("atk d1", [])
    assert "2 sides" in caught.value.message and caught.value.position == 4


@pytest.mark.parametrize(("text", "word"), [("atk d8 heavy medium", "medium"), ("atk d8 grit  grit", "grit"),
                                             ("DEX +1b risky desperate", "desperate"),
                                             ("init ambush ambush", "ambush")])
def test_a_second_word_of_one_kind_is_marked_at_that_word(text, word):
    # issue 12: the caret sat on the space before the second word, from a copy of the helper without the fix
    with pytest.raises(CruxError) as caught:
        roll(text, [])
    assert caught.value.position == text.rindex(word)


def test_no_pool_without_a_sheet_is_refused():
    with pytest.raises(CruxError, match="no damage dice"):
        roll("atk", [])


def test_the_sheet_attack_die_and_attribute():
    wren = hero(attack_count=1, attack_sides=8, attack_attribute="STR",
                attributes={"STR": Attribute(modifier=3)})
    result = roll("atk", [5], hero=wren)
    assert (result.request.sides, result.request.flat, result.damage) == (8, 3, 8)


def test_attribute_bonus_from_the_sheet():
    wren = hero(attributes={"DEX": Attribute(modifier=2)})
    assert roll("atk d6 +DEX", [4], hero=wren).damage == 6
    with pytest.raises(CruxError, match="needs a character sheet"):
        roll("atk d6 +DEX", [])


def test_a_pool_over_the_dice_limit_is_refused_before_rolling():
    with pytest.raises(LimitError):
        roll("atk 5000d6", [])


# -- §8 armour, resistance, vulnerability, minions --------------------------------------------

@pytest.mark.parametrize(("armour", "damage"), [("", 13), ("unarmoured", 13), ("medium", 10), ("heavy", 5)])
def test_each_armour_type(armour, damage):
    # dice 4 + 6 = 10, flat +3
    assert roll(f"atk 2d8+3 {armour}", [4, 6]).damage == damage


def test_heavy_armour_rounds_down():
    assert roll("atk 2d8 heavy", [4, 7]).damage == 5


def test_a_crit_ignores_armour():
    result = roll("atk d8+3 heavy", [8, 2])
    assert (result.outcome, result.damage) == ("crit", 13)


def test_resistance_halves_after_armour():
    assert roll("atk 2d8+3 medium resist", [4, 7]).damage == 5  # 11 → 5


def test_vulnerability_doubles_ignoring_armour():
    assert roll("atk 2d8+3 heavy vuln", [4, 6]).damage == 26


def test_resist_and_vuln_together_halve_then_double():
    assert roll("atk d8+2 resist vuln", [5]).damage == 6  # 7 → 3 → 6


def test_a_crit_ignores_armour_but_not_resistance():
    assert roll("atk d6 heavy resist", [6, 3]).damage == 4  # 9, armour ignored, halved


def test_negative_flat_damage_floors_at_zero():
    result = roll("atk d6-5", [2])
    assert (result.total, result.damage) == (-3, 0)


def test_negative_flat_with_resist_stays_at_zero():
    assert roll("atk d6-9 resist vuln", [3]).damage == 0


def test_any_damaging_hit_kills_a_minion():
    assert roll("atk d6 minion", [2]).killed is True


def test_a_miss_leaves_the_minion():
    assert roll("atk d6 minion", [1]).killed is False


def test_zero_damage_does_not_kill_a_minion():
    assert roll("atk d6-4 minion", [3]).killed is False


# -- conditions on a sheet (seed §10.3) -------------------------------------------------------

def test_frightened_puts_a_bane_on_every_roll():
    scared = hero(conditions=("frightened",))
    result = roll("DEX", [5, 2], hero=scared)
    assert (result.kept, [s.what for s in result.request.sources]) == (2, ["frightened"])


def test_restrained_hinders_attacks_and_dex_saves_only():
    held = hero(conditions=("restrained",))
    assert roll("save DEX", [5, 2], hero=held).kept == 2
    assert roll("save WIL", [5], hero=held).kept == 5
    assert roll("atk d6", [5, 2], hero=held).primary == 2


def test_prone_hinders_melee_attacks_only():
    down = hero(conditions=("prone",))
    assert roll("atk d6", [5, 2], hero=down).primary == 2
    assert roll("atk d6 ranged", [5], hero=down).primary == 5


def test_blinded_hinders_attacks():
    assert roll("atk d6", [5, 3], hero=hero(conditions=("blinded",))).primary == 3
