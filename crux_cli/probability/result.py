"""`Odds`: the exact answer to `crux odds STATEMENT`, the same shape for every rule set.

Probabilities are Fractions here (exact, reduced); renderers decide how to show
them (`crux_cli.render.odds_text`, `crux_cli.render.odds_json`). A distribution
can have thousands of values over a denominator of thousands of digits, so it
keeps integer weights and makes a Fraction only for a row that is read: the text
shows a few grouped rows and needs none of the others. Outcome tables may be kept
the same way (`WeightedRows`): a Fraction costs more to make than its row costs
to write, and the text reads the weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import gcd, lcm
from typing import ClassVar, TypeVar, overload

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record, field
from crux_cli.probability import cost
from crux_cli.probability.dist import Dist

K = TypeVar("K")


class Weighted(Sequence[tuple[K, Fraction]]):
    """(key, probability) pairs in order, held as integer weights over one denominator: a sequence
    of pairs that makes each Fraction when the pair is read. What writes many rows reads the weights
    (`ratios`), and no Fraction is made and reduced for a row that is only shown."""

    __slots__ = ("_keys", "denominator", "weights")  # not `keys`: dict() would take the rows for a mapping

    def __init__(self, keys: Sequence[K], weights: Sequence[int], denominator: int) -> None:
        self._keys = tuple(keys)
        self.weights = tuple(weights)
        self.denominator = denominator

    def ratios(self) -> list[tuple[int, int]]:
        """Each pair's probability in lowest terms, as (numerator, denominator)."""
        bottom = self.denominator
        return [(weight // common, bottom // common) for weight in self.weights for common in (gcd(weight, bottom),)]

    def __len__(self) -> int:
        return len(self._keys)

    @overload
    def __getitem__(self, index: int) -> tuple[K, Fraction]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[K, Fraction], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[K, Fraction] | tuple[tuple[K, Fraction], ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        return self._keys[index], Fraction(self.weights[index], self.denominator)

    def __iter__(self) -> Iterator[tuple[K, Fraction]]:
        denominator = self.denominator
        for key, weight in zip(self._keys, self.weights, strict=True):
            yield key, Fraction(weight, denominator)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Weighted):
            return (self._keys == other._keys
                    and all(a * other.denominator == b * self.denominator
                            for a, b in zip(self.weights, other.weights, strict=True)))
        if isinstance(other, Sequence):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._keys)!r}, {list(self.weights)!r}, {self.denominator})"


class WeightedRows(Weighted[str]):
    """Outcome rows (name -> probability, in reading order) as weights over one denominator."""

    __slots__ = ()

    @property
    def names(self) -> tuple[str, ...]:
        return self._keys


Rows = Sequence[tuple[str, Fraction]]  # a WeightedRows, or (name, Fraction) pairs (a plug-in's)


def names_and_ratios(rows: Rows) -> tuple[Sequence[str], list[tuple[int, int]]]:
    """The rows' names, and each probability in lowest terms as (numerator, denominator), however the
    rows were given: weighted rows make no Fraction."""
    if isinstance(rows, WeightedRows):
        return rows.names, rows.ratios()
    return [name for name, _ in rows], [p.as_integer_ratio() for _, p in rows]


# The worth of an outcome, by the colour its rule set paints it: `--cumulative` counts "at least" toward worth
WORTH = {"bad": 0, "mixed": 1, "good": 2, "crit": 3}


def best_first(names: Sequence[str], colours: Mapping[str, str]) -> bool:
    """Are these rows listed best first? Numbers (a die, Grit earned) are worth their value; outcomes what their
    rule set's colours say (bad < mixed < good < crit). Rows of no known worth are read as listed, worst first,
    so `--cumulative`'s "at least" is the row and those after it."""
    if all(name.lstrip("-").isdigit() for name in names):
        values = [int(name) for name in names]
    else:
        values = [WORTH[colours[name]] for name in names if colours.get(name) in WORTH]
    return len(set(values)) > 1 and values == sorted(values, reverse=True)


class Distribution(Weighted[int]):
    """Value -> probability, in ascending order of value (see `Weighted`): the distribution of a
    total or of damage, which can have thousands of values over a denominator of thousands of digits."""

    __slots__ = ()

    @property
    def values(self) -> tuple[int, ...]:
        return self._keys

    @staticmethod
    def of(dist: Dist) -> Distribution:
        return Distribution(dist.outcomes, dist.weights, dist.denominator)

    @staticmethod
    def from_pairs(pairs: Iterable[tuple[int, Fraction]]) -> Distribution:
        """From (value, probability) pairs in ascending order, over their common denominator."""
        pairs = list(pairs)
        common = lcm(*(p.denominator for _, p in pairs)) if pairs else 1
        return Distribution([v for v, _ in pairs], [p.numerator * (common // p.denominator) for _, p in pairs],
                            common)

    def at_least(self, k: int) -> Fraction:
        """P(value >= k), in one exact division."""
        return Fraction(sum(w for v, w in zip(self.values, self.weights, strict=True) if v >= k), self.denominator)


class Table(Record):
    """A named side table, e.g. the kept die's face or the Grit gained."""

    key: str  # its name in JSON: "kept", "effect", "actions", "grit_gained", "minion"...
    title: str  # its heading in text
    rows: Rows


class AtLeast(Record):
    k: int
    p: Fraction


class Odds(Record):
    kind: str  # "test", "save", "initiative", "attack", "dice"...
    outcomes: Rows  # outcome name -> probability, in reading order
    tables: tuple[Table, ...] = ()
    # damage or total -> probability: a Distribution, or (from a plug-in rule set) any sequence
    # of (value, Fraction) pairs in ascending order; read it through `distribution_of`
    distribution: Distribution | Sequence[tuple[int, Fraction]] | None = None
    label: str = "total"  # what the distribution counts: "damage", "total"
    mean: Fraction | None = None  # over the counted outcomes (see `leftover`)
    leftover: Fraction = Fraction(0)  # probability an explosion cap left uncounted
    depth: int | None = None  # the explosion cap used, when there were explosions
    at_least: AtLeast | None = None
    cumulative: bool = False  # shown with P(at least) and P(at most) of each value (`crux odds --cumulative`)
    # P(value >= k) counting the leftover too, when the rule set can (exact although the table is cut)
    exact_at_least: Callable[[int], Fraction] | None = field(default=None, compare=False)

    def outcome(self, name: str) -> Fraction:
        return dict(self.outcomes)[name]

    def table(self, key: str) -> Table:
        return next(t for t in self.tables if t.key == key)


class Comparison(Record):
    """`crux odds 'A; B; C'`: the odds of several statements side by side, each compared with the first."""

    kind: ClassVar[str] = "comparison"
    inputs: tuple[str, ...]
    odds: tuple[Odds, ...]
    handlers: tuple[str, ...]  # what answered each ('' the rule set, 'dice' generic dice): whose colours
    cumulative: bool = False


def variance(odds: Odds) -> Fraction | None:
    """The variance of the distribution (over its counted values), or None without one."""
    if odds.distribution is None:
        return None
    dist = distribution_of(odds.distribution)
    if not dist.values:
        return None
    first = second = 0
    for value, weight in zip(dist.values, dist.weights, strict=True):
        first += value * weight
        second += value * value * weight
    bottom = dist.denominator
    return Fraction(second * bottom - first * first, bottom * bottom)


def deviation(odds: Odds) -> float | None:
    """The standard deviation of the distribution, as a float (it is seldom a fraction)."""
    var = variance(odds)
    if var is None:
        return None
    spread: float = float(max(var, Fraction(0))) ** 0.5
    return spread


def check_cumulative(rows: Distribution | Sequence[tuple[int, Fraction]]) -> None:
    """Refuse `--cumulative --json` when writing three exact fractions a value would pass the odds limit."""
    dist = distribution_of(rows)
    if not dist.values:
        return
    shape = cost.Shape(len(dist.values), dist.values[-1] - dist.values[0], dist.denominator.bit_length())
    try:
        cost.check(3 * cost.presentation(shape, True))
    except CruxError as error:
        raise error.with_hint("without --cumulative (or without --json) it is answered; each value's P is in "
                              "the distribution") from None


def as_asked(odds: Odds, at_least: int | None, cumulative: bool, exact: bool) -> Odds:
    """The odds with what `crux odds` (or `odds …` in a line) asked for beside them: P(value >= at_least),
    and with `cumulative`, P(at least) and P(at most) of each value (held to the odds limit in JSON, `exact`)."""
    if at_least is not None:
        odds = with_at_least(odds, at_least)
    if cumulative:
        odds = odds.replace(cumulative=True)
        if exact and odds.distribution is not None:  # JSON: two more exact fractions a value
            check_cumulative(odds.distribution)
    return odds


def with_at_least(odds: Odds, k: int) -> Odds:
    """The same odds with P(value >= k) of its distribution (`crux odds --at-least K`)."""
    if odds.distribution is None:
        raise CruxError(f"--at-least counts damage or totals, which {odds.kind} odds do not have",
                        hint="use it with attacks and dice expressions, e.g. crux odds --at-least 10 'atk 2d8+3'")
    if odds.exact_at_least is not None:
        return odds.replace(at_least=AtLeast(k, odds.exact_at_least(k)))
    return odds.replace(at_least=AtLeast(k, distribution_of(odds.distribution).at_least(k)))


def distribution_of(rows: Distribution | Sequence[tuple[int, Fraction]]) -> Distribution:
    """`Odds.distribution` as a `Distribution`, however the rule set gave it."""
    return rows if isinstance(rows, Distribution) else Distribution.from_pairs(rows)


def rows(pairs: dict[str, Fraction] | list[tuple[str, Fraction]]) -> Rows:
    items = pairs.items() if isinstance(pairs, dict) else pairs
    # Fraction(p) of a Fraction would check it against the numbers ABCs again: slow, and a no-op
    return tuple((name, p if type(p) is Fraction else Fraction(p)) for name, p in items)


def dice_odds(dist: Dist, *, at_least: int | None = None, depth: int | None = None,
              kind: str = "dice", label: str = "total") -> Odds:
    """Odds of a generic dice expression: the distribution of its total."""
    leftover = dist.leftover
    return Odds(
        kind=kind,
        outcomes=(),
        distribution=Distribution.of(dist),
        label=label,
        mean=dist.mean(),
        leftover=leftover,
        depth=depth if leftover or depth else None,
        at_least=AtLeast(at_least, dist.at_least(at_least)) if at_least is not None else None,
    )
