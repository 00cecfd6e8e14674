"""Exact odds of challenge rolls, in closed form so a pool of any size is instant.

For n ≥ 1 dice: P(highest ≤ k) = (k/6)^n, exactly one 6 is n·5^(n−1)/6^n, and a
critical is everything with two or more 6s. A zero pool keeps the lowest of 2d6:
P(lowest ≥ k) = ((7−k)/6)².
"""

from __future__ import annotations

from fractions import Fraction

from crux_cli.probability.outcomes import make_odds, ordered
from crux_cli.probability.result import Odds, Table
from crux_cli.rulesets.challenge import engine as rules


def roll_chances(pool: int) -> dict[str, Fraction]:
    if pool <= 0:
        at_least = {k: Fraction(7 - k, 6) ** rules.ZERO_POOL for k in (4, 6)}
        chances = {"strong hit": at_least[6], "weak hit": at_least[4] - at_least[6], "miss": 1 - at_least[4]}
        return ordered(rules.OUTCOMES, chances)
    n = pool
    miss = Fraction(1, 2) ** n
    no_six = Fraction(5, 6) ** n
    one_six = Fraction(n * 5 ** (n - 1), 6**n)
    chances = {"critical": 1 - no_six - one_six, "strong hit": one_six,
               "weak hit": no_six - miss, "miss": miss}
    return ordered(rules.OUTCOMES, chances)


def action_odds(request: rules.ActionRequest) -> Odds:
    return make_odds("action", roll_chances(request.pool))


def fortune_odds(request: rules.FortuneRequest) -> Odds:
    return make_odds("fortune", roll_chances(request.pool))


def resist_odds(request: rules.ResistRequest) -> Odds:
    """Outcomes, and the Grit the roll costs before any optional extra marks (1, or 0 on a critical)."""
    chances = roll_chances(request.pool)
    grit = Table("grit", "Grit marked (net, before any extra)",
                 (("0", chances["critical"]), (str(rules.RESIST_COST), 1 - chances["critical"])))
    return make_odds("resist", chances, tables=(grit,))
