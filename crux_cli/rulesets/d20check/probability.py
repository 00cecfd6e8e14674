"""Exact odds of the d20check statements: a d20 (± a d6) against the Difficulty, and damage."""

from __future__ import annotations

from fractions import Fraction

from crux_cli.probability.outcomes import constant, die_weights, make_odds, mapped, ordered, sum_of_dice
from crux_cli.probability.result import Odds
from crux_cli.rulesets.d20check import engine as rules


def check_odds(request: rules.CheckRequest) -> Odds:
    chances: dict[str, Fraction] = {}
    bonus = die_weights(rules.FAVOR_DIE) if request.favor else constant(0)
    for d20, p in die_weights(rules.CHECK_DIE).items():
        for extra, q in bonus.items():
            outcome = rules.check_outcome(d20, d20 + request.favor * extra, request.difficulty)
            chances[outcome] = chances.get(outcome, Fraction(0)) + p * q
    return make_odds("check", ordered(rules.CHECK_OUTCOMES, chances))


def damage_odds(request: rules.DamageRequest) -> Odds:
    totals = mapped(sum_of_dice(request.dice_count, request.sides), lambda t: max(0, t + request.flat))
    damages = mapped(totals, lambda total: rules.damage_after(total, request)[1])
    harmed = sum((p for damage, p in damages.items() if damage), Fraction(0))
    return make_odds("damage", ordered(rules.DAMAGE_OUTCOMES, {"harmed": harmed, "unharmed": 1 - harmed}),
                     damages, "damage")
