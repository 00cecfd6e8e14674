"""Exact odds of the d20check statements: a d20 (± a d6) against the Difficulty, and damage.

Damage is the sum of its dice as integer weights (`Dist`, the exact sums of generic dice), held to
the odds limit as `crux odds NdS` is (probability/cost.py: the sum, its maps, its rows, predicted
before the work), and never to the roll's dice limits, which guard rolling (core/limits.py `counting`):
`odds damage d20000` is answered where `damage d20000` is refused.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

from crux_cli.probability import cost
from crux_cli.probability.dist import Dist, die
from crux_cli.probability.outcomes import constant, die_weights, make_odds, ordered
from crux_cli.probability.result import Distribution, Odds, WeightedRows
from crux_cli.rulesets.d20check import engine as rules

COUNTED_ROWS = 16  # exact values of a damage answer reduced to lowest terms besides its rows: outcomes, mean, sd


def check_odds(request: rules.CheckRequest) -> Odds:
    chances: dict[str, Fraction] = {}
    bonus = die_weights(rules.FAVOR_DIE) if request.favor else constant(0)
    for d20, p in die_weights(rules.CHECK_DIE).items():
        for extra, q in bonus.items():
            outcome = rules.check_outcome(d20, d20 + request.favor * extra, request.difficulty)
            chances[outcome] = chances.get(outcome, Fraction(0)) + p * q
    return make_odds("check", ordered(rules.CHECK_OUTCOMES, chances))


def check_damage(request: rules.DamageRequest) -> None:
    """Refuse, before any work (the die itself is not made: a d1000000000 would be a list of a billion
    faces), damage whose exact odds would pass the odds limit: the die, the sum of the dice (as
    `Dist.sum_of` works it out), a pass over its totals (their damage) and the answer shown."""
    sides, count = request.sides, request.dice_count
    span = count * (sides - 1)
    shape = cost.Shape(span + 1, span, count * sides.bit_length(), count)
    single = cost.Shape(sides, sides - 1, sides.bit_length(), 1)
    work = (cost.items(sides, 0) + cost.power_cost(single, count, uniform=True)
            + cost.items(span + 1, 0)
            + cost.presentation(cost.Shape(COUNTED_ROWS, COUNTED_ROWS, shape.bits), exact=True))
    cost.check_answer(work, shape, fewer="ask for fewer dice or fewer sides")  # damage has no keeps


def damage_odds(request: rules.DamageRequest) -> Odds:
    check_damage(request)
    damages = damage_dist(die(request.sides).sum_of(request.dice_count), request)
    harmed = damages.total - (damages.weights[0] if damages.outcomes[0] == 0 else 0)
    outcomes = WeightedRows(rules.DAMAGE_OUTCOMES, (harmed, damages.denominator - harmed), damages.denominator)
    return Odds("damage", outcomes, distribution=Distribution.of(damages), label="damage", mean=damages.mean())


def damage_dist(totals: Dist, request: rules.DamageRequest) -> Dist:
    """The damage of each total of the dice (`rules.damage_after` of the total and the flat bonus): a shift,
    with every total that comes to nothing or less at 0. The weights are the totals' own, not copies
    (what a `map` would make): an answer of 100,000 rows of long weights holds one set of them."""
    if request.immune and not request.weak:
        return Dist((0,), (totals.total,), totals.denominator, totals.total)
    shift = request.flat - (0 if request.weak else request.armor)  # armor is never negative
    cut = bisect_right(totals.outcomes, -shift)  # the totals that come to 0 damage
    outcomes = tuple(total + shift for total in totals.outcomes[cut:])
    weights = totals.weights[cut:]
    if cut:
        outcomes, weights = (0, *outcomes), (sum(totals.weights[:cut]), *weights)
    return Dist(outcomes, weights, totals.denominator, totals.total)
