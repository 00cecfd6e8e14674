"""Exact odds of challenge rolls, in closed form, as integer weights over 6^n.

For n ≥ 1 dice: no 6 has 5^n of the 6^n ways, a highest of 3 or less 3^n, exactly one 6
n·5^(n−1), and a critical is everything with two or more 6s. A zero pool keeps the
lowest of 2d6: P(lowest ≥ k) = ((7−k)/6)².

A pool past the roll's dice limit (which guards rolling, not counting: core/limits.py
`counting`) is held to the odds limit instead: its weights have about 2.6 bits a die, and
what they cost (the powers, then each row shown, its exact fraction reduced for JSON) is
predicted before the work (`check_pool`).
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, log2

from crux_cli.core.limits import MAX_DICE
from crux_cli.probability import cost
from crux_cli.probability.result import Odds, Table, WeightedRows
from crux_cli.rulesets.challenge import engine as rules

ROWS = 6  # what an answer shows: the four outcomes, and a resistance roll's two rows of Grit
# Its rows reduced to lowest terms (the text and JSON alike: a gcd of weights as long as 6^n): measured,
# 7 gcds of a resistance roll's text; 0.10 s each for 100,000 dice on a machine 0.31 times the reference's
# time, so about 5.5e-11 reference seconds per digit x digit. With these the predictions run 1.3 to 1.6 times the
# measured time (text and JSON, 10,000 to 150,000 dice): 80,000 dice are answered as text, 60,000 as JSON.
REDUCTIONS = 7
REDUCE_DIGIT_SQUARED = 5e-11


def roll_rows(pool: int) -> WeightedRows:
    """The outcomes of a challenge roll of `pool` dice, in reading order."""
    if pool <= 0:  # the lowest of 2d6: a 6 on both (1 way), 4 or 5 at least (3 * 3, less that one)
        faces = 6**rules.ZERO_POOL
        strong, at_least_4 = 1, 3**rules.ZERO_POOL
        return WeightedRows(rules.OUTCOMES, (0, strong, at_least_4 - strong, faces - at_least_4), faces)
    n = pool
    no_six, one_six = 5**n, n * 5 ** (n - 1)
    miss = 3**n
    ways = 6**n
    return WeightedRows(rules.OUTCOMES, (ways - no_six - one_six, one_six, no_six - miss, miss), ways)


def roll_chances(pool: int) -> dict[str, Fraction]:
    """`roll_rows` as Fractions, by outcome."""
    return dict(roll_rows(pool))


def check_pool(pool: int) -> None:
    """Refuse, before any work, odds of a pool whose weights are too long to work out and show in time
    (probability/cost.py): three powers of 6^n's size, each row reduced to lowest terms to be shown (a gcd
    of two numbers of that length, quadratic in their digits: most of the time), and with --json its exact
    fraction written out. Pools a roll takes are instant, and not predicted."""
    if pool <= MAX_DICE:
        return
    bits = ceil(pool * log2(6))
    digits = bits * cost.LOG10_2
    # a power is squarings of growing halves: about two products of half its length in all
    powers = 3 * 2 * cost.SQUARE * cost.product(bits / 2, bits / 2) + cost.product(bits, log2(pool))
    reduced = REDUCTIONS * REDUCE_DIGIT_SQUARED * digits * digits
    cost.check_answer(powers + reduced, cost.Shape(ROWS, ROWS, bits), fewer="ask for fewer dice")  # a pool: no sides


def action_odds(request: rules.ActionRequest) -> Odds:
    check_pool(request.pool)
    return Odds("action", roll_rows(request.pool))


def fortune_odds(request: rules.FortuneRequest) -> Odds:
    check_pool(request.pool)
    return Odds("fortune", roll_rows(request.pool))


def resist_odds(request: rules.ResistRequest) -> Odds:
    """Outcomes, and the Grit the roll costs before any optional extra marks (1, or 0 on a critical)."""
    check_pool(request.pool)
    rows = roll_rows(request.pool)
    critical = rows.weights[rules.OUTCOMES.index("critical")]
    grit = Table("grit", "Grit marked (net, before any extra)",
                 WeightedRows(("0", str(rules.RESIST_COST)), (critical, rows.denominator - critical), rows.denominator))
    return Odds("resist", rows, (grit,))
