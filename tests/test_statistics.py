"""Rolled frequencies against exact probabilities, counted here by brute-force enumeration.

Seeds are fixed, so the test is deterministic; the bound is the chi-square quantile at
p = 0.001, so a correct roller fails it for a given seed with odds of one in a thousand.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from crux_cli.core.rng import seeded
from crux_cli.running.runner import Runner

pytestmark = pytest.mark.slow  # statistical: thousands of rolls per case

CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 5: 20.52}  # chi-square quantiles at 0.999 by degrees of freedom
ROLLS = 6000
BANDS = {1: "failure", 2: "failure", 3: "partial", 4: "partial", 5: "success", 6: "success"}


def exact_bands(net: int) -> dict[str, Fraction]:
    pick = min if net < 0 else max
    counts: Counter[str] = Counter()
    faces = list(itertools.product(range(1, 7), repeat=1 + abs(net)))
    for dice in faces:
        counts[BANDS[pick(dice)]] += 1
    return {band: Fraction(n, len(faces)) for band, n in counts.items()}


def exact_attack(sides: int, net: int) -> dict[str, Fraction]:
    pick = min if net < 0 else max
    counts: Counter[str] = Counter()
    faces = list(itertools.product(range(1, sides + 1), repeat=1 + abs(net)))
    for dice in faces:
        kept = pick(dice)
        counts["miss" if kept == 1 else "crit" if kept == sides else "hit"] += 1
    return {outcome: Fraction(n, len(faces)) for outcome, n in counts.items()}


def chi_square(observed: Counter[str], expected: dict[str, Fraction], n: int) -> float:
    return sum((observed[k] - float(p) * n) ** 2 / (float(p) * n) for k, p in expected.items())


def rolled(statement: str, seed: int, field: str) -> Counter[str]:
    runner = Runner(source=seeded(seed))
    return Counter(getattr(runner.execute(statement)[0].result, field) for _ in range(ROLLS))


@pytest.mark.parametrize(("statement", "net"), [("DEX", 0), ("DEX +2b", 2), ("DEX -2B", -2),
                                                ("save WIL adv", 1), ("STR +1b -3B grit", -1)])
def test_outcome_bands_match_exact_odds(statement, net):
    expected = exact_bands(net)
    observed = rolled(statement, seed=1234, field="outcome")
    assert set(observed) <= set(expected)
    assert chi_square(observed, expected, ROLLS) < CHI2_999[len(expected) - 1]


def test_the_known_values_of_notation():
    assert exact_bands(2)["success"] == Fraction(19, 27)
    assert exact_bands(-2)["failure"] == Fraction(19, 27)
    assert exact_bands(1)["partial"] == Fraction(1, 3)


@pytest.mark.parametrize(("statement", "sides", "net"), [("atk d8", 8, 0), ("atk 2d8+3 heavy rushed", 8, -1),
                                                         ("atk d6 +2b", 6, 2)])
def test_attack_outcomes_match_exact_odds(statement, sides, net):
    expected = exact_attack(sides, net)
    observed = rolled(statement, seed=99, field="outcome")
    assert chi_square(observed, expected, ROLLS) < CHI2_999[len(expected) - 1]
