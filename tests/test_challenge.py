"""Seed 004 (challenge rolls): the reading table, zero pools, risk texts with XP, resistance Grit."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import scripted
from helpers.brute import brute_odds, nonzero

from crux_cli.rulesets.challenge.engine import (
    ACTION_TEXT,
    ActionRequest,
    FortuneRequest,
    ResistRequest,
    challenge,
    roll_action,
    roll_fortune,
    roll_resist,
)
from crux_cli.rulesets.challenge.probability import action_odds, fortune_odds, resist_odds, roll_chances


@pytest.mark.parametrize(("faces", "kept", "outcome"), [
    ((6, 6, 2), 6, "critical"),  # multiple 6s
    ((6, 3, 6), 6, "critical"),
    ((6, 6), 6, "critical"),
    ((1, 6, 5), 6, "strong hit"),
    ((5, 4, 1), 5, "weak hit"),
    ((4, 2, 2), 4, "weak hit"),
    ((3, 1, 2), 3, "miss"),
    ((1, 1, 1), 1, "miss"),
])
def test_the_highest_die_is_read(faces: tuple[int, ...], kept: int, outcome: str) -> None:
    roller, source = scripted(*faces)
    roll = challenge(roller, len(faces))
    assert (roll.dice, roll.kept, roll.outcome) == (faces, kept, outcome)
    assert source.left == 0


@pytest.mark.parametrize(("face", "outcome"), [
    (6, "strong hit"), (5, "weak hit"), (4, "weak hit"), (3, "miss"),
])
def test_one_die_cannot_crit(face: int, outcome: str) -> None:
    roller, _ = scripted(face)
    assert challenge(roller, 1).outcome == outcome


@pytest.mark.parametrize(("faces", "kept", "outcome"), [
    ((6, 6), 6, "strong hit"),  # two 6s with zero dice: no critical
    ((6, 4), 4, "weak hit"),
    ((5, 5), 5, "weak hit"),
    ((6, 3), 3, "miss"),
    ((1, 6), 1, "miss"),
])
@pytest.mark.parametrize("pool", [0, -1, -3])
def test_zero_dice_or_fewer_roll_two_and_keep_the_lowest(faces: tuple[int, int], kept: int, outcome: str,
                                                         pool: int) -> None:
    roller, source = scripted(*faces)
    roll = challenge(roller, pool)
    assert (roll.dice, roll.kept, roll.outcome, roll.zero_pool) == (faces, kept, outcome, True)
    assert source.left == 0


@pytest.mark.parametrize(("request_", "pool"), [
    (ActionRequest(2), 2), (ActionRequest(2, advantage=True), 3), (ActionRequest(2, disadvantage=True), 1),
    (ActionRequest(2, advantage=True, disadvantage=True), 2), (ActionRequest(0, disadvantage=True), -1),
    (FortuneRequest(1, advantages=2, disadvantages=1), 2), (FortuneRequest(0), 0), (ResistRequest(3), 3),
])
def test_pools_are_the_rating_plus_advantage_minus_disadvantage(request_, pool: int) -> None:
    assert request_.pool == pool


def test_an_action_at_zero_dice_rolls_two() -> None:
    roller, source = scripted(6, 6)
    result = roll_action(roller, ActionRequest(1, disadvantage=True))
    assert (result.roll.dice, result.roll.outcome) == ((6, 6), "strong hit")
    assert source.left == 0


XP = {
    "minor": {"critical": 0, "strong hit": 0, "weak hit": 0, "miss": 0},
    "moderate": {"critical": 0, "strong hit": 0, "weak hit": 0, "miss": 1},
    "major": {"critical": 1, "strong hit": 1, "weak hit": 1, "miss": 1},
}
FACES = {"critical": (6, 6), "strong hit": (6, 2), "weak hit": (5, 1), "miss": (3, 2)}


@pytest.mark.parametrize("risk", ["minor", "moderate", "major"])
@pytest.mark.parametrize("outcome", ["critical", "strong hit", "weak hit", "miss"])
def test_action_text_and_xp_for_each_risk_level(risk: str, outcome: str) -> None:
    roller, _ = scripted(*FACES[outcome])
    result = roll_action(roller, ActionRequest(2, risk=risk))
    assert result.roll.outcome == outcome
    assert result.xp == XP[risk][outcome]
    assert result.text == ACTION_TEXT[risk][outcome][0]
    assert ("Gain +1 XP" in result.text) == bool(result.xp)  # the seed's words say it too


def test_action_texts_quote_the_seed() -> None:
    roller, _ = scripted(3, 1)
    assert roll_action(roller, ActionRequest(2, risk="moderate")).text == (
        "Things do not go your way. Gain +1 XP and you must suffer the consequences.")
    roller, _ = scripted(6, 1, 1)
    assert roll_action(roller, ActionRequest(3, risk="minor")).text == (
        "Things go as planned and all is well. A success.")


def test_the_default_risk_is_moderate() -> None:
    assert ActionRequest(2).risk == "moderate"


@pytest.mark.parametrize(("outcome", "text"), [
    ("critical", "Exceptional result / Major. Great reward."),
    ("strong hit", "Good result / Moderate. Full reward."),
    ("weak hit", "Mixed result / Minor. Partial reward."),
    ("miss", "Bad result / Poor. Little or no reward."),
])
def test_fortune_text(outcome: str, text: str) -> None:
    roller, _ = scripted(*FACES[outcome])
    result = roll_fortune(roller, FortuneRequest(2))
    assert (result.roll.outcome, result.text) == (outcome, text)


@pytest.mark.parametrize(("outcome", "back", "net", "options"), [
    ("critical", 1, 0, ()),
    ("strong hit", 0, 1, ()),
    ("weak hit", 0, 1, ((1, "avoid the consequences completely"),)),
    ("miss", 0, 1, ((1, "reduce the consequences (half damage if taking damage)"),
                    (2, "avoid the consequences completely"))),
])
def test_resistance_costs_in_grit(outcome: str, back: int, net: int, options: tuple) -> None:
    roller, _ = scripted(*FACES[outcome])
    result = roll_resist(roller, ResistRequest(2))
    assert result.roll.outcome == outcome
    assert (result.grit_marked, result.grit_back, result.grit_net, result.options) == (1, back, net, options)


def test_resisting_with_zero_dice_still_costs_grit_and_cannot_crit() -> None:
    roller, _ = scripted(6, 6)
    result = roll_resist(roller, ResistRequest(0))
    assert (result.roll.outcome, result.grit_marked, result.grit_back) == ("strong hit", 1, 0)


# --- odds -----------------------------------------------------------------------------------------


def test_odds_by_hand() -> None:
    assert roll_chances(1) == {"critical": 0, "strong hit": Fraction(1, 6), "weak hit": Fraction(1, 3),
                               "miss": Fraction(1, 2)}
    assert roll_chances(0) == {"critical": 0, "strong hit": Fraction(1, 36), "weak hit": Fraction(8, 36),
                               "miss": Fraction(27, 36)}
    assert roll_chances(2)["critical"] == Fraction(1, 36)


@pytest.mark.parametrize("pool", [-2, 0, 1, 2, 3, 4, 5])
def test_odds_match_brute_force(pool: int) -> None:
    brute = brute_odds(lambda r: challenge(r, pool), lambda roll: roll.outcome)
    assert nonzero(roll_chances(pool)) == brute


def test_odds_for_every_statement() -> None:
    assert dict(action_odds(ActionRequest(2, advantage=True)).outcomes) == roll_chances(3)
    assert dict(fortune_odds(FortuneRequest(1, disadvantages=1)).outcomes) == roll_chances(0)
    resist = resist_odds(ResistRequest(3))
    assert dict(resist.outcomes) == roll_chances(3)
    grit = dict(resist.table("grit").rows)
    assert grit == {"0": roll_chances(3)["critical"], "1": 1 - roll_chances(3)["critical"]}
    brute = brute_odds(lambda r: roll_resist(r, ResistRequest(3)), lambda result: result.grit_net)
    assert grit == {str(k): p for k, p in brute.items()}


def test_odds_of_a_large_pool_are_exact_and_instant() -> None:
    chances = roll_chances(1000)
    assert sum(chances.values()) == 1
    assert chances["miss"] == Fraction(1, 2**1000)
