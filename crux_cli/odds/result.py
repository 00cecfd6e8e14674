"""`Odds`: the exact answer to `crux odds STATEMENT`, the same shape for every rule set.

Probabilities are Fractions here (exact, reduced); renderers decide how to show
them (`crux_cli.render.odds_text`, `crux_cli.render.odds_json`).
"""

from __future__ import annotations

from fractions import Fraction

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.odds.dist import Dist

Rows = tuple[tuple[str, Fraction], ...]


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
    distribution: tuple[tuple[int, Fraction], ...] | None = None  # damage or total -> probability
    label: str = "total"  # what the distribution counts: "damage", "total"
    mean: Fraction | None = None  # over the counted outcomes (see `leftover`)
    leftover: Fraction = Fraction(0)  # probability an explosion cap left uncounted
    depth: int | None = None  # the explosion cap used, when there were explosions
    at_least: AtLeast | None = None

    def outcome(self, name: str) -> Fraction:
        return dict(self.outcomes)[name]

    def table(self, key: str) -> Table:
        return next(t for t in self.tables if t.key == key)


def with_at_least(odds: Odds, k: int) -> Odds:
    """The same odds with P(value >= k) of its distribution (`crux odds --at-least K`)."""
    if odds.distribution is None:
        raise CruxError(f"--at-least counts damage or totals, which {odds.kind} odds do not have",
                        hint="use it with attacks and dice expressions, e.g. crux odds --at-least 10 'atk 2d8+3'")
    p = sum((p for value, p in odds.distribution if value >= k), Fraction(0))
    return odds.replace(at_least=AtLeast(k, p))


def rows(pairs: dict[str, Fraction] | list[tuple[str, Fraction]]) -> Rows:
    items = pairs.items() if isinstance(pairs, dict) else pairs
    return tuple((name, Fraction(p)) for name, p in items)


def dice_odds(dist: Dist, *, at_least: int | None = None, depth: int | None = None,
              kind: str = "dice", label: str = "total") -> Odds:
    """Odds of a generic dice expression: the distribution of its total."""
    return Odds(
        kind=kind,
        outcomes=(),
        distribution=tuple(dist.items()),
        label=label,
        mean=dist.mean(),
        leftover=dist.leftover,
        depth=depth if dist.leftover or depth else None,
        at_least=AtLeast(at_least, dist.at_least(at_least)) if at_least is not None else None,
    )
