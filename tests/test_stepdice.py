"""Seed 002 (step dice): every table with scripted dice, every edge, and odds against brute force."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import scripted
from helpers.brute import brute_odds, nonzero

from crux_cli.core.errors import LimitError
from crux_cli.rulesets import load
from crux_cli.rulesets.stepdice.engine import (
    AttackRequest,
    DeathRequest,
    Roll,
    SaveRequest,
    StepRequest,
    roll_attack,
    roll_death,
    roll_save,
    step,
    step_die,
)
from crux_cli.rulesets.stepdice.probability import attack_odds, death_odds, save_odds, step_odds
from crux_cli.running.read import parse_statement

# --- the track ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "steps", "after"), [
    (8, 1, 10), (8, -2, 4), (4, 1, 6), (6, -1, 4), (10, 1, 12),
    (12, 1, 12),  # a d12 stepped up stays a d12
    (12, 3, 12),
    (4, -1, 0),  # a d4 stepped down is at zero
    (6, -5, 0),
    (0, -1, 0),
    (0, 1, 4),  # zero steps up onto the track
    (0, 5, 12),
    (8, 0, 8),
])
def test_step_moves_along_the_track_and_stops_at_its_ends(die: int, steps: int, after: int) -> None:
    assert step(die, steps) == after
    assert step_die(StepRequest(die, steps)).after == after


def test_step_reports_when_the_track_ran_out() -> None:
    assert step_die(StepRequest(12, 1)).stopped
    assert step_die(StepRequest(4, -2)).stopped
    assert not step_die(StepRequest(4, -1)).stopped  # exactly to zero is on the track
    assert not step_die(StepRequest(8, 2)).stopped


def test_step_odds_are_certain() -> None:
    odds = step_odds(StepRequest(12, 1))
    assert dict(odds.outcomes) == {"d12": 1}
    assert odds.distribution is None


# --- saves ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "outcome"), [(5, "win"), (8, "win"), (4, "tie"), (3, "lose"), (1, "lose")])
def test_save_against_the_environment_beats_a_4(face: int, outcome: str) -> None:
    roller, source = scripted(face)
    result = roll_save(roller, SaveRequest(8))
    assert (result.score, result.target, result.outcome) == (face, 4, outcome)
    assert result.rolls == (Roll(8, face),)
    assert source.left == 0


@pytest.mark.parametrize(("face", "outcome"), [(6, "win"), (5, "tie"), (4, "lose")])
def test_save_against_a_number(face: int, outcome: str) -> None:
    roller, _ = scripted(face)
    assert roll_save(roller, SaveRequest(8, target=5)).outcome == outcome


@pytest.mark.parametrize(("mine", "theirs", "outcome"), [(5, 3, "win"), (4, 4, "tie"), (2, 6, "lose")])
def test_opposed_save_rolls_both_dice(mine: int, theirs: int, outcome: str) -> None:
    roller, source = scripted(mine, theirs)
    result = roll_save(roller, SaveRequest(8, opposing=6))
    assert result.opposing_roll == Roll(6, theirs)
    assert (result.target, result.outcome) == (theirs, outcome)
    assert source.left == 0


def test_enhanced_adds_a_d12_and_keeps_the_higher() -> None:
    roller, _ = scripted(3, 9)
    result = roll_save(roller, SaveRequest(8, enhanced=True))
    assert result.rolls == (Roll(8, 3), Roll(12, 9))
    assert (result.score, result.outcome) == (9, "win")
    roller, _ = scripted(7, 2)
    assert roll_save(roller, SaveRequest(8, enhanced=True)).score == 7


def test_impaired_rolls_a_d4_instead_of_the_attribute_die() -> None:
    roller, source = scripted(4)
    result = roll_save(roller, SaveRequest(12, impaired=True))
    assert result.rolls == (Roll(4, 4),)
    assert result.outcome == "tie"  # the best an impaired save can do against a 4
    assert source.left == 0


def test_impaired_die_is_a_d4_whatever_the_attribute() -> None:
    roller, _ = scripted(5)  # a 5 cannot be on a d4: the scripted source refuses it
    with pytest.raises(AssertionError):
        roll_save(roller, SaveRequest(12, impaired=True))


def test_enhanced_and_impaired_cancel() -> None:
    roller, source = scripted(6)
    result = roll_save(roller, SaveRequest(8, enhanced=True, impaired=True))
    assert result.request.mode == "normal"
    assert result.rolls == (Roll(8, 6),)
    assert source.left == 0


@pytest.mark.parametrize("request_", [
    SaveRequest(0), SaveRequest(0, target=0), SaveRequest(0, opposing=4),
    SaveRequest(0, enhanced=True), SaveRequest(0, impaired=True),
])
def test_a_die_at_zero_loses_automatically_without_rolling(request_: SaveRequest) -> None:
    roller, source = scripted()
    result = roll_save(roller, request_)
    assert (result.outcome, result.automatic, result.score, result.rolls) == ("lose", True, None, ())
    assert source.used == 0


def test_an_opposing_die_at_zero_cannot_be_tied() -> None:
    roller, source = scripted(1)
    result = roll_save(roller, SaveRequest(4, opposing=0))
    assert (result.opposing_roll, result.target, result.outcome) == (None, 0, "win")
    assert source.left == 0


# --- attacks --------------------------------------------------------------------------------------


def test_ganging_up_deals_only_the_single_highest_die() -> None:
    roller, _ = scripted(2, 7, 5)
    result = roll_attack(roller, AttackRequest((6, 8, 6)))
    assert result.rolls == (Roll(6, 2), Roll(8, 7), Roll(6, 5))
    assert (result.highest, result.damage, result.direct, result.outcome) == (7, 7, 7, "direct")


def test_armor_subtracts_and_grit_absorbs_before_direct_damage() -> None:
    roller, _ = scripted(6, 8)
    result = roll_attack(roller, AttackRequest((6, 8), armor=1, grit=3))
    assert (result.highest, result.armor, result.damage) == (8, 1, 7)
    assert (result.grit_lost, result.grit_left, result.direct) == (3, 0, 4)
    assert result.outcome == "direct"
    assert result.save is None  # no STR die given: the save is left to the table


def test_armor_is_capped_at_3() -> None:
    roller, _ = scripted(5)
    result = roll_attack(roller, AttackRequest((6,), armor=5))
    assert (result.armor, result.damage, result.outcome) == (3, 2, "direct")
    assert result.request.armor == 5


def test_damage_reduced_to_zero_by_armor_is_deflected() -> None:
    roller, _ = scripted(3)
    result = roll_attack(roller, AttackRequest((6,), armor=3, grit=2))
    assert (result.damage, result.grit_lost, result.direct, result.outcome) == (0, 0, 0, "deflected")


def test_damage_that_grit_absorbs_is_dodged() -> None:
    roller, _ = scripted(4)
    result = roll_attack(roller, AttackRequest((6,), armor=1, grit=3))
    assert (result.damage, result.grit_lost, result.grit_left, result.direct) == (3, 3, 0, 0)
    assert result.outcome == "dodged"


def test_enhanced_attack_adds_a_d12() -> None:
    roller, _ = scripted(2, 11)
    result = roll_attack(roller, AttackRequest((6,), enhanced=True))
    assert result.rolls == (Roll(6, 2), Roll(12, 11))
    assert result.highest == 11


def test_impaired_attack_rolls_one_d4_instead_of_all_the_dice() -> None:
    roller, source = scripted(3)
    result = roll_attack(roller, AttackRequest((8, 10, 12), impaired=True))
    assert result.rolls == (Roll(4, 3),)
    assert source.left == 0


def test_enhanced_and_impaired_attack_cancel() -> None:
    roller, source = scripted(5, 1)
    assert roll_attack(roller, AttackRequest((6, 8), enhanced=True, impaired=True)).highest == 5
    assert source.left == 0


@pytest.mark.parametrize(("strength_face", "save", "consequence", "strength_after"), [
    (5, "win", "minor", 8),
    (4, "tie", "critical", 6),
    (3, "lose", "incapacitated", 6),
])
def test_critical_damage_save_against_the_direct_damage(strength_face: int, save: str, consequence: str,
                                                        strength_after: int) -> None:
    roller, source = scripted(8, strength_face)  # d8 hit: 8 - armor 1 - grit 3 = 4 Direct Damage
    result = roll_attack(roller, AttackRequest((8,), armor=1, grit=3, strength=8))
    assert result.direct == 4
    assert result.save is not None
    assert (result.save.target, result.save.score, result.save.outcome) == (4, strength_face, save)
    assert (result.consequence, result.strength_after) == (consequence, strength_after)
    assert source.left == 0


def test_critical_damage_steps_a_d4_to_zero() -> None:
    roller, _ = scripted(6, 1)
    result = roll_attack(roller, AttackRequest((6,), strength=4))
    assert (result.consequence, result.strength_after) == ("incapacitated", 0)


def test_critical_damage_with_strength_at_zero_is_lethal() -> None:
    roller, source = scripted(2)
    result = roll_attack(roller, AttackRequest((6,), strength=0))
    assert result.save is not None and result.save.automatic
    assert (result.consequence, result.strength_after) == ("dead", 0)
    assert source.left == 0


def test_no_critical_damage_save_without_direct_damage() -> None:
    roller, source = scripted(4)
    result = roll_attack(roller, AttackRequest((6,), grit=5, strength=8))
    assert (result.outcome, result.save, result.consequence) == ("dodged", None, None)
    assert source.left == 0


# --- the Mark of Death ----------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "unmarked", "marked"), [
    (1, "taken", "taken"), (2, "deal", "deal"), (3, "deal", "deal"),
    (4, "return", "deal"), (5, "return", "deal"), (6, "return", "deal"),
])
def test_mark_of_death_table(face: int, unmarked: str, marked: str) -> None:
    roller, _ = scripted(face)
    assert roll_death(roller, DeathRequest()).outcome == unmarked
    roller, _ = scripted(face)
    result = roll_death(roller, DeathRequest(marked=True))
    assert (result.roll, result.outcome) == (face, marked)


# --- odds -----------------------------------------------------------------------------------------


def test_save_odds_by_hand() -> None:
    assert dict(save_odds(SaveRequest(8)).outcomes) == {"win": Fraction(1, 2), "tie": Fraction(1, 8),
                                                  "lose": Fraction(3, 8)}
    assert dict(save_odds(SaveRequest(0, enhanced=True)).outcomes) == {"win": 0, "tie": 0, "lose": 1}
    # d6 vs d6: a tie 1 time in 6, and win and lose share the rest
    assert dict(save_odds(SaveRequest(6, opposing=6)).outcomes) == {"win": Fraction(5, 12), "tie": Fraction(1, 6),
                                                              "lose": Fraction(5, 12)}


SAVES = [
    SaveRequest(die, target=target, opposing=opposing, enhanced=enhanced, impaired=impaired)
    for die in (0, 4, 8, 12)
    for target, opposing in ((4, None), (0, None), (7, None), (13, None), (4, 6), (4, 0), (4, 12))
    for enhanced, impaired in ((False, False), (True, False), (False, True), (True, True))
]


@pytest.mark.parametrize("request_", SAVES)
def test_save_odds_match_brute_force(request_: SaveRequest) -> None:
    brute = brute_odds(lambda r: roll_save(r, request_), lambda result: result.outcome)
    assert nonzero(save_odds(request_).outcomes) == brute


ATTACKS = [
    AttackRequest((6,)),
    AttackRequest((6, 8), armor=1, grit=3, strength=8),
    AttackRequest((6, 8), armor=1, grit=3, strength=8, enhanced=True),
    AttackRequest((10, 12), armor=5, grit=2, strength=4, impaired=True),
    AttackRequest((12, 4), armor=2, grit=0, strength=0),
    AttackRequest((8, 8, 8), armor=3, grit=1, strength=6, enhanced=True, impaired=True),
    AttackRequest((4,), armor=0, grit=10, strength=12),
]


@pytest.mark.parametrize("request_", ATTACKS)
def test_attack_odds_match_brute_force(request_: AttackRequest) -> None:
    odds = attack_odds(request_)

    def reading(result):  # the odds' outcome: the consequence replaces "direct" when STR is known
        return result.consequence or result.outcome

    assert nonzero(odds.outcomes) == brute_odds(lambda r: roll_attack(r, request_), reading)
    assert odds.distribution == tuple(sorted(brute_odds(lambda r: roll_attack(r, request_),
                                                       lambda result: result.damage).items()))
    assert sum(p for _, p in odds.outcomes) == 1


def test_attack_odds_without_strength_keep_direct_as_one_outcome() -> None:
    odds = attack_odds(AttackRequest((6,), armor=1, grit=2))
    assert dict(odds.outcomes) == {"deflected": Fraction(1, 6), "dodged": Fraction(2, 6), "direct": Fraction(3, 6)}
    assert odds.mean == Fraction(0 + 1 + 2 + 3 + 4 + 5, 6)


@pytest.mark.parametrize("marked", [False, True])
def test_death_odds_match_brute_force(marked: bool) -> None:
    request_ = DeathRequest(marked)
    assert nonzero(death_odds(request_).outcomes) == brute_odds(lambda r: roll_death(r, request_),
                                                                lambda result: result.outcome)


def test_attack_odds_of_huge_dice_are_refused_by_naming_the_limit() -> None:
    with pytest.raises(LimitError, match="odds size limit"):
        attack_odds(AttackRequest((1_000_000_000,)))


def test_attack_odds_of_many_dice_are_exact() -> None:
    odds = attack_odds(AttackRequest((12,) * 1000, grit=3, strength=12))
    assert sum(p for _, p in odds.outcomes) == 1
    assert odds.distribution is not None
    assert dict(odds.distribution)[1] == Fraction(1, 12**1000)  # every die shows 1


@pytest.mark.parametrize(("typed", "canonical"), [
    ("ATK 1000D2", "attack 1000d2"),
    ("attack d6 d6 d8 d6", "attack 2d6 d8 d6"),
    ("atk 3d4 d4 enhanced", "attack 4d4 enhanced"),
])
def test_canonical_attack_writes_a_run_of_one_die_with_its_count(typed: str, canonical: str) -> None:
    """A pool read from a short line (`1000d2`) is written back as short, in the order typed, so its
    canonical text is under the input limit and reads back as the same statement (it was 3,006 characters)."""
    statement = parse_statement(typed, load("stepdice"))
    assert str(statement) == canonical
    assert parse_statement(canonical, load("stepdice")) == statement
