"""Exact-odds helpers the kindred rule sets need, on plain dicts.

Their spaces are small, so a distribution here is `Weights`, a plain ``dict`` of
value → ``Fraction`` (summing to 1), worked on directly. What can grow (many dice, large
dice: odds count what a roll's dice limits refuse) is worked out on integer weights by the
rule set, as `crux_cli.probability.dist.Dist` does for generic dice and Crux, and held to
the odds limit (`crux_cli.probability.cost`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

from crux_cli.probability.result import Distribution, Odds, Table

Weights = dict[int, Fraction]


def make_odds(kind: str, outcomes: dict[str, Fraction], distribution: Weights | None = None,
              label: str = "damage", tables: tuple[Table, ...] = ()) -> Odds:
    """Odds from plain dicts; the mean is worked out from the distribution."""
    if distribution is None:
        return Odds(kind, tuple(outcomes.items()), tables)
    pairs = tuple(sorted(distribution.items()))
    mean = sum((value * p for value, p in pairs), Fraction(0))
    return Odds(kind, tuple(outcomes.items()), tables, Distribution.from_pairs(pairs), label, mean)


def die_weights(sides: int) -> Weights:
    """One fair die of `sides`."""
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def constant(value: int) -> Weights:
    return {value: Fraction(1)}


def highest_of_dice(sides: Iterable[int]) -> Weights:
    """The highest face among a few small dice: P(max ≤ v) = Π (min(v, s) / s) ** count (a Fraction a face:
    many or large dice are for integer weights, as stepdice's attacks have them)."""
    counts = Counter(sides)
    top = max(counts)
    result: Weights = {}
    previous = Fraction(0)
    for value in range(1, top + 1):
        at_most = Fraction(1)
        for size, count in counts.items():
            at_most *= Fraction(min(value, size), size) ** count
        if at_most != previous:
            result[value] = at_most - previous
        previous = at_most
    return result


def mapped(dist: Weights, fn: Callable[[int], int]) -> Weights:
    result: Weights = {}
    for value, p in dist.items():
        key = fn(value)
        result[key] = result.get(key, Fraction(0)) + p
    return dict(sorted(result.items()))


def ordered(order: Iterable[str], chances: dict[str, Fraction]) -> dict[str, Fraction]:
    """`chances` in the reading order, with every outcome present (0 when impossible)."""
    return {name: chances.get(name, Fraction(0)) for name in order}
