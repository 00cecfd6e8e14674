"""Exact-odds helpers the kindred rule sets need, on plain dicts.

Their spaces are small, so a distribution here is `Weights`, a plain ``dict`` of
value → ``Fraction`` (summing to 1), worked on directly; the only potentially large
step, summing many dice, is the exact sum of `crux_cli.probability.dist.Dist`, the one
distribution type for the engine-sized work of generic dice and Crux.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

from crux_cli.core.errors import LimitError
from crux_cli.probability.dist import die
from crux_cli.probability.result import Distribution, Odds, Table

Weights = dict[int, Fraction]

MAX_SPAN = 2_000  # odds of a sum of dice cover at most this many totals (keeps odds instant)


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
    """The highest face among dice of these sizes: P(max ≤ v) = Π (min(v, s) / s) ** count."""
    counts = Counter(sides)
    top = max(counts)
    if top > MAX_SPAN:
        raise LimitError(f"odds of a d{top} would cover more than {MAX_SPAN:,} faces (the odds limit)",
                         hint="use smaller dice, or roll it instead")
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


def sum_of_dice(count: int, sides: int) -> Weights:
    """The total of `count` dice of `sides` (`Dist`'s exact sum, as fractions)."""
    if count * sides > MAX_SPAN:
        raise LimitError(f"odds of {count}d{sides} would cover more than {MAX_SPAN:,} totals "
                         "(the odds limit)",
                         hint="ask for fewer or smaller dice, or roll it instead")
    return dict(die(sides).sum_of(count).items()) if count else {0: Fraction(1)}


def mapped(dist: Weights, fn: Callable[[int], int]) -> Weights:
    result: Weights = {}
    for value, p in dist.items():
        key = fn(value)
        result[key] = result.get(key, Fraction(0)) + p
    return dict(sorted(result.items()))


def ordered(order: Iterable[str], chances: dict[str, Fraction]) -> dict[str, Fraction]:
    """`chances` in the reading order, with every outcome present (0 when impossible)."""
    return {name: chances.get(name, Fraction(0)) for name in order}
