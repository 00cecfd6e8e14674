"""Random tables (`table loot`): a table a GM writes by hand, rolled with the table's die, in every rule set.

A table is read from a TOML file by `crux_cli.state.tables`, which checks it and hands this module an
immutable `Table` (its nested tables already read): this module only rolls, works out odds and renders,
so it stays pure. A row covers a range of the die's totals (`roll = "1-3"`) or has a weight (one die over
the weights); its text may hold inline rolls (`{2d6} goblins`) and it may roll on another table.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, ClassVar

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record, field
from crux_cli.core.ruleset import EMPTY, Context, RuleSet
from crux_cli.core.style import Palette
from crux_cli.dice import syntax
from crux_cli.dice.handler import DICE

NAME = "table"
KEYWORDS = frozenset({NAME})
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MAX_DEPTH = 16  # tables one roll may pass through (a → b → c …); a cycle is refused when the file is read


class Row(Record):
    low: int  # the die's totals this row covers, low..high
    high: int
    text: str = ""
    table: str | None = None  # the nested table it rolls on, by name
    line: int = field(default=0, compare=False)  # where its [[rows]] starts in the file

    @property
    def span(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"

    @property
    def label(self) -> str:
        """The row as the odds name it: its range, its text, where it leads."""
        shown = self.text or ""
        if self.table:
            shown = f"{shown} → {self.table}".strip()
        return f"{self.span}: {shown}"


class Inline(Record):
    """An inline roll of a row's text (`{2d6}`), read when the file was: its place in the text and its tree."""

    start: int
    end: int
    statement: syntax.DiceStatement


class Table(Record):
    name: str
    path: str  # the file it was read from
    die: syntax.Roll  # the table's die (`1d6`; `1dN` over the weights when none is given)
    rows: tuple[Row, ...]
    inline: tuple[tuple[Inline, ...], ...]  # each row's inline rolls, in order
    nested: tuple[tuple[str, Table], ...] = ()  # the tables its rows roll on, read already

    def row_for(self, total: int) -> int:
        for index, row in enumerate(self.rows):
            if row.low <= total <= row.high:
                return index
        raise CruxError(f"the table {self.name} has no row for {total}", hint=f"check {self.path}")

    def table_named(self, name: str) -> Table:
        return dict(self.nested)[name]


class TableStatement(Record):
    """`table NAME`: roll on a table (read from its file when the statement was read)."""

    table: Table
    repeat: int = 1
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"table {self.table.name}"


class TableResult(Record):
    kind: ClassVar[str] = "table"
    table: Table
    roll: Any  # the die's DiceResult
    row: Row
    text: str  # the row's text with each inline roll's total in its place
    inline: tuple[tuple[str, Any], ...]  # (notation, DiceResult) of each inline roll
    nested: TableResult | None = None

    @property
    def total(self) -> int:
        return int(self.roll.total)


# -- rolling ---------------------------------------------------------------------------------------

def run(statement: TableStatement, ctx: Context) -> TableResult:
    return roll_table(statement.table, ctx, 0)


def roll_table(table: Table, ctx: Context, depth: int) -> TableResult:
    if depth >= MAX_DEPTH:
        raise CruxError(f"tables nest more than {MAX_DEPTH} deep (the limit)", hint=f"check {table.path}")
    rolled = DICE.run(table.die, ctx)
    index = table.row_for(rolled.total)
    row = table.rows[index]
    pieces, inline, at = [], [], 0
    for roll in table.inline[index]:
        result = DICE.run(roll.statement, ctx)
        inline.append((str(roll.statement), result))
        pieces += [row.text[at:roll.start], str(result.total)]
        at = roll.end
    pieces.append(row.text[at:])
    nested = roll_table(table.table_named(row.table), ctx, depth + 1) if row.table else None
    return TableResult(table, rolled, row, "".join(pieces), tuple(inline), nested)


# -- odds ------------------------------------------------------------------------------------------

def odds(statement: TableStatement, ctx: Context | None = None) -> Any:
    """Each row's exact probability: the share of the die's totals its range covers."""
    from crux_cli.dice.probability import statement_odds
    from crux_cli.probability.result import Odds, WeightedRows, distribution_of

    table = statement.table
    die = statement_odds(table.die)
    assert die.distribution is not None
    dist = distribution_of(die.distribution)
    weights = [0] * len(table.rows)
    order = sorted(range(len(table.rows)), key=lambda i: table.rows[i].low)  # rows never overlap: by their start
    lows = [table.rows[i].low for i in order]
    for value, weight in zip(dist.values, dist.weights, strict=True):
        at = bisect_right(lows, value) - 1
        if at < 0 or table.rows[order[at]].high < value:
            table.row_for(value)  # no row: its error
        weights[order[at]] += weight
    return Odds(kind="table", outcomes=WeightedRows([row.label for row in table.rows], weights, dist.denominator),
                leftover=die.leftover, depth=die.depth)


# -- text and JSON ---------------------------------------------------------------------------------

def describe(result: TableResult, palette: Palette) -> str:
    """`a potion of healing · loot 1d6 [4] → 4–5`; nested tables follow with `→`."""
    from crux_cli.dice.render import rolled_text

    parts = []
    step: TableResult | None = result
    texts = []
    while step is not None:
        if step.row.text:
            texts.append(step.text)
        inline = "".join(f" · {palette.dim(rolled_text(r.rolled, palette))}" for _, r in step.inline)
        parts.append(f"{step.table.name} {rolled_text(step.roll.rolled, palette)} → {step.row.span}{inline}")
        step = step.nested
    return f"{palette.bold('; '.join(texts) or '—')} · {' → '.join(parts)}"


def to_json(result: TableResult) -> dict[str, Any]:
    from crux_cli.dice.render import to_json as dice_json

    def one(step: TableResult) -> dict[str, Any]:
        roll = dice_json(step.roll)
        out: dict[str, Any] = {"table": step.table.name, "file": step.table.path, "die": str(step.table.die),
                               "total": step.total, "dice": roll["terms"],
                               "row": {"roll": step.row.span, "text": step.row.text, "table": step.row.table},
                               "text": step.text,
                               "inline": [{"notation": notation, "total": r.total, "terms": dice_json(r)["terms"]}
                                          for notation, r in step.inline]}
        if step.nested is not None:
            out["nested"] = one(step.nested)
        return out

    return {"kind": "table", **one(result)}


def parse(text: str, keyword: str = "") -> TableStatement:  # pragma: no cover - the runner reads tables
    raise CruxError("a table is read from its file by the runner", text=text, position=0)


TABLE = RuleSet(name=NAME, summary="Random tables read from TOML files: table loot", keywords=KEYWORDS,
                parse=parse, run=run, odds=odds, describe=describe, to_json=to_json, colours=EMPTY)
