"""Seed 003 (d20 checks): checks, favor and hinder, damage against armor, immune and weak."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import scripted
from helpers.brute import brute_odds, nonzero

from crux_cli.core.errors import LimitError
from crux_cli.rulesets.d20check.engine import CheckRequest, DamageRequest, net_favor, roll_check, roll_damage
from crux_cli.rulesets.d20check.probability import check_odds, damage_odds


@pytest.mark.parametrize(("stat", "trained", "difficulty"), [
    (4, False, 16), (4, True, 12), (2, False, 18), (7, True, 6), (0, False, 20), (0, True, 20),
])
def test_difficulty_is_20_minus_the_stat_doubled_when_trained(stat: int, trained: bool,
                                                               difficulty: int) -> None:
    assert CheckRequest(stat, trained).difficulty == difficulty


@pytest.mark.parametrize(("d20", "outcome"), [
    (20, "crit"), (19, "pass"), (16, "pass"), (15, "fail"), (1, "fail"),
])
def test_check_table(d20: int, outcome: str) -> None:
    roller, source = scripted(d20)
    result = roll_check(roller, CheckRequest(4))
    assert (result.d20, result.favor_die, result.total, result.outcome) == (d20, None, d20, outcome)
    assert result.luck == (1 if outcome == "crit" else 0)
    assert source.left == 0


def test_an_unmodified_20_is_a_crit_even_when_hindered_below_the_difficulty() -> None:
    roller, _ = scripted(20, 6)
    result = roll_check(roller, CheckRequest(0, favor=-1))
    assert (result.total, result.difficulty, result.outcome, result.luck) == (14, 20, "crit", 1)


def test_a_favored_19_that_reaches_20_is_a_pass_not_a_crit() -> None:
    roller, _ = scripted(19, 1)
    result = roll_check(roller, CheckRequest(0, favor=1))
    assert (result.total, result.outcome, result.luck) == (20, "pass", 0)


def test_favored_adds_a_d6() -> None:
    roller, _ = scripted(13, 3)
    result = roll_check(roller, CheckRequest(4, favor=1))
    assert (result.dice, result.total, result.outcome) == ((13, 3), 16, "pass")


def test_hindered_subtracts_a_d6() -> None:
    roller, _ = scripted(17, 2)
    result = roll_check(roller, CheckRequest(4, favor=-1))
    assert (result.total, result.outcome) == (15, "fail")


@pytest.mark.parametrize(("favored", "hindered", "net"), [
    (0, 0, 0), (1, 0, 1), (0, 1, -1), (1, 1, 0),  # favored plus hindered cancel
    (2, 0, 1), (0, 3, -1),  # they do not stack
    (2, 1, 1), (1, 2, -1), (2, 2, 0),  # 1-for-1, then at most one die
])
def test_favor_and_hinder_cancel_one_for_one_and_do_not_stack(favored: int, hindered: int, net: int) -> None:
    assert net_favor(favored, hindered) == net


def test_favored_plus_hindered_rolls_no_d6() -> None:
    roller, source = scripted(12)
    result = roll_check(roller, CheckRequest(4, trained=True, favor=net_favor(1, 1)))
    assert (result.favor_die, result.total, result.outcome) == (None, 12, "pass")
    assert source.left == 0


def test_a_difficulty_at_or_below_1_passes_any_plain_roll_but_a_hinder_can_still_fail_it() -> None:
    roller, _ = scripted(1)
    assert roll_check(roller, CheckRequest(10, trained=True)).outcome == "pass"  # difficulty 0
    roller, _ = scripted(1, 6)
    result = roll_check(roller, CheckRequest(10, trained=True, favor=-1))
    assert (result.total, result.outcome) == (-5, "fail")


# --- damage ---------------------------------------------------------------------------------------


def test_damage_adds_the_dice_and_the_flat_bonus() -> None:
    roller, _ = scripted(3, 5)
    result = roll_damage(roller, DamageRequest(2, 6, flat=1))
    assert (result.dice, result.total, result.damage, result.outcome) == ((3, 5), 9, 9, "harmed")


def test_armor_is_subtracted_and_damage_never_goes_below_0() -> None:
    roller, _ = scripted(4)
    result = roll_damage(roller, DamageRequest(1, 6, armor=1))
    assert (result.armor, result.damage, result.reason) == (1, 3, "armor")
    roller, _ = scripted(2)
    result = roll_damage(roller, DamageRequest(1, 6, armor=3))
    assert (result.damage, result.outcome) == (0, "unharmed")
    roller, _ = scripted(1)
    assert roll_damage(roller, DamageRequest(1, 6, flat=-3)).total == 0


def test_immune_takes_no_damage() -> None:
    roller, _ = scripted(6, 6)
    result = roll_damage(roller, DamageRequest(2, 6, immune=True))
    assert (result.total, result.damage, result.outcome, result.reason) == (12, 0, "unharmed", "immune")


def test_weak_deals_an_extra_die_and_ignores_armor_and_immune() -> None:
    roller, source = scripted(3, 5, 2)
    result = roll_damage(roller, DamageRequest(2, 6, armor=2, immune=True, weak=True))
    assert result.dice == (3, 5, 2)
    assert (result.armor, result.damage, result.reason) == (0, 10, "weak")
    assert source.left == 0


def test_weak_without_armor_or_immune_still_adds_the_die() -> None:
    roller, _ = scripted(4, 4)
    result = roll_damage(roller, DamageRequest(1, 8, weak=True))
    assert (result.damage, result.reason) == (8, None)


# --- odds -----------------------------------------------------------------------------------------


def test_check_odds_by_hand() -> None:
    # Difficulty 16: 16..19 pass (4/20), 20 crits (1/20)
    assert dict(check_odds(CheckRequest(4)).outcomes) == {"crit": Fraction(1, 20), "pass": Fraction(4, 20),
                                                    "fail": Fraction(15, 20)}


CHECKS = [CheckRequest(stat, trained, favor)
          for stat in (0, 2, 4, 7, 10) for trained in (False, True) for favor in (-1, 0, 1)]


@pytest.mark.parametrize("request_", CHECKS)
def test_check_odds_match_brute_force(request_: CheckRequest) -> None:
    brute = brute_odds(lambda r: roll_check(r, request_), lambda result: result.outcome)
    assert nonzero(check_odds(request_).outcomes) == brute


DAMAGES = [
    DamageRequest(1, 6), DamageRequest(2, 6, armor=1), DamageRequest(2, 4, flat=-3, armor=1),
    DamageRequest(1, 8, immune=True), DamageRequest(2, 6, armor=3, immune=True, weak=True),
    DamageRequest(3, 4, flat=2, armor=5), DamageRequest(1, 10, weak=True),
]


@pytest.mark.parametrize("request_", DAMAGES)
def test_damage_odds_match_brute_force(request_: DamageRequest) -> None:
    odds = damage_odds(request_)
    roll = lambda r: roll_damage(r, request_)  # noqa: E731
    assert nonzero(odds.outcomes) == brute_odds(roll, lambda result: result.outcome)
    assert odds.distribution == tuple(sorted(brute_odds(roll, lambda result: result.damage).items()))


def test_damage_odds_refuse_a_huge_sum_by_naming_the_limit() -> None:
    with pytest.raises(LimitError, match="odds size limit"):
        damage_odds(DamageRequest(1000, 10_000))
