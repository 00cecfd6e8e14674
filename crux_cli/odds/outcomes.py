"""A small exact-odds type and the distribution helpers the kindred rule sets need.

A distribution is a plain ``dict`` of value → ``Fraction`` (summing to 1). The
spaces of these rule sets are small, so the helpers work on fractions directly;
the only potentially large step, summing many dice, works on integer weights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from crux_cli.errors import LimitError

Dist = dict[int, Fraction]

MAX_SPAN = 2_000  # odds of a sum of dice cover at most this many totals (keeps odds instant)


Rows = tuple[tuple[str, Fraction], ...]


# `Table` and `Odds` mirror `crux_cli.odds.result` on the odds branch field for field, so that
# when it is merged these two classes can be replaced by an import of it.
@dataclass(frozen=True, slots=True)
class Table:
    """A named side table, e.g. the Grit a resistance roll marks."""

    key: str  # its name in JSON
    title: str  # its heading in text
    rows: Rows


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of one statement.

    ``outcomes`` lists each outcome name, in the order a person reads them, with
    its probability (every outcome the statement can name, impossible ones at 0).
    ``distribution``, when present, is the probability of each value of ``label``
    (damage, for attacks), with its ``mean``.
    """

    kind: str
    outcomes: Rows
    tables: tuple[Table, ...] = ()
    distribution: tuple[tuple[int, Fraction], ...] | None = None
    label: str = "total"
    mean: Fraction | None = None
    leftover: Fraction = Fraction(0)  # never anything here: no rule set of these explodes
    depth: int | None = None
    at_least: None = None

    def outcome(self, name: str) -> Fraction:
        return dict(self.outcomes)[name]

    def table(self, key: str) -> Table:
        return next(t for t in self.tables if t.key == key)


def make_odds(kind: str, outcomes: dict[str, Fraction], distribution: Dist | None = None,
              label: str = "damage", tables: tuple[Table, ...] = ()) -> Odds:
    """Odds from plain dicts; the mean is worked out from the distribution."""
    if distribution is None:
        return Odds(kind, tuple(outcomes.items()), tables)
    pairs = tuple(sorted(distribution.items()))
    mean = sum((value * p for value, p in pairs), Fraction(0))
    return Odds(kind, tuple(outcomes.items()), tables, pairs, label, mean)


def die(sides: int) -> Dist:
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def constant(value: int) -> Dist:
    return {value: Fraction(1)}


def highest_of_dice(sides: Iterable[int]) -> Dist:
    """The highest face among dice of these sizes: P(max ≤ v) = Π (min(v, s) / s) ** count."""
    counts = Counter(sides)
    top = max(counts)
    if top > MAX_SPAN:
        raise LimitError(f"odds of a d{top} would cover more than {MAX_SPAN:,} faces (the odds limit)",
                         hint="use smaller dice, or roll it instead")
    result: Dist = {}
    previous = Fraction(0)
    for value in range(1, top + 1):
        at_most = Fraction(1)
        for size, count in counts.items():
            at_most *= Fraction(min(value, size), size) ** count
        if at_most != previous:
            result[value] = at_most - previous
        previous = at_most
    return result


def sum_of_dice(count: int, sides: int) -> Dist:
    """The total of `count` dice of `sides`, by convolution on integer weights."""
    if count * sides > MAX_SPAN:
        raise LimitError(f"odds of {count}d{sides} would cover more than {MAX_SPAN:,} totals "
                         "(the odds limit)",
                         hint="ask for fewer or smaller dice, or roll it instead")
    weights = {0: 1}
    for _ in range(count):
        step: dict[int, int] = {}
        for total, weight in weights.items():
            for face in range(1, sides + 1):
                step[total + face] = step.get(total + face, 0) + weight
        weights = step
    denominator = sides**count
    return {total: Fraction(weight, denominator) for total, weight in sorted(weights.items())}


def mapped(dist: Dist, fn: Callable[[int], int]) -> Dist:
    result: Dist = {}
    for value, p in dist.items():
        key = fn(value)
        result[key] = result.get(key, Fraction(0)) + p
    return dict(sorted(result.items()))


def ordered(order: Iterable[str], chances: dict[str, Fraction]) -> dict[str, Fraction]:
    """`chances` in the reading order, with every outcome present (0 when impossible)."""
    return {name: chances.get(name, Fraction(0)) for name in order}
