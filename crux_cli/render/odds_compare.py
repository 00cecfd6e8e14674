"""Odds of several statements side by side (`crux odds 'A; B; C'`): a column each, every row shared.

Outcome rows are the outcomes any of them has, in reading order; the distribution's rows are the values
(or ranges of values, when there are many) any of them can take. Each column after the first shows its
difference from the first, in percentage points; the mean and standard deviation close the table.
With `--cumulative`, each statement has P(at least) and P(at most) columns too.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from math import ceil
from typing import Any

from crux_cli import rulesets
from crux_cli.core.columns import visible
from crux_cli.core.ruleset import EMPTY
from crux_cli.core.style import Palette
from crux_cli.probability.result import (
    Comparison,
    Distribution,
    Odds,
    best_first,
    deviation,
    distribution_of,
    names_and_ratios,
)
from crux_cli.render.odds_text import HISTOGRAM_ROWS, at_least_and_most, bulk, percent_of

GAP = "  "


def comparison_lines(compared: Comparison, palette: Palette, colours: Mapping[str, str],
                     margin: str = "  ") -> list[str]:
    """The comparison as text, each line after `margin`."""
    headings = [visible(text) for text in compared.inputs]
    blocks: list[list[list[str]]] = []  # blocks of rows of cells; the first cell names the row
    outcome_rows = _outcome_rows(compared.odds, colours)
    if outcome_rows:
        blocks.append(outcome_rows)
    dists = [distribution_of(o.distribution) if o.distribution is not None else None for o in compared.odds]
    if any(d is not None and d.values for d in dists):
        labels = list(dict.fromkeys(o.label for o, d in zip(compared.odds, dists, strict=True) if d is not None))
        blocks.append([["/".join(labels)], *_value_rows(dists, compared.cumulative)])
    summary = _summary_rows(compared.odds)
    if summary:
        blocks.append(summary)
    columns = [""]
    for index, heading in enumerate(headings):
        columns += [heading] + (["≥ it", "≤ it"] if compared.cumulative else []) + (["vs 1st"] if index else [])
    rows = [row for block in blocks for row in block]
    widths = [max([len(columns[i]), *(len(row[i]) for row in rows if len(row) > i)]) for i in range(len(columns))]
    out = [margin + GAP.join(_cell(text, widths[i], i) for i, text in enumerate(columns)).rstrip()]
    for number, block in enumerate(blocks):
        if number:
            out.append("")
        for row in block:
            line = GAP.join(_cell(text, widths[i], i) for i, text in enumerate(row)).rstrip()
            role = colours.get(row[0], "")
            if role and palette.enabled:
                line = palette.paint(row[0].ljust(widths[0]), role) + line[widths[0]:]
            elif len(row) == 1:
                line = palette.bold(row[0])
            out.append(margin + line)
    notes = ["vs 1st: the difference from the first statement (probabilities in percentage points)"]
    leftover = [o.leftover for o in compared.odds if o.leftover]
    if leftover:
        notes.append(f"leftover up to {float(max(leftover)):.2g}: exploding chains past the cap are left out")
    out += [""] + [margin + (palette.dim(note) if palette.enabled else note) for note in notes]
    return out


def _cell(text: str, width: int, index: int) -> str:
    return text.ljust(width) if index == 0 else text.rjust(width)


def _points(p: Fraction, first: Fraction) -> str:
    """The difference of two probabilities in percentage points: `+3.70`, `-0.01`, `0`."""
    points = float(p - first) * 100
    if p == first:
        return "0"
    return f"{points:+.2f}" if abs(points) >= 0.005 else ("+" if points > 0 else "-") + "<0.01"


def _outcome_rows(odds: Sequence[Odds], colours: Mapping[str, str]) -> list[list[str]]:
    tables = [dict(zip(*_ratios(o), strict=True)) for o in odds]
    names = list(dict.fromkeys(name for table in tables for name in table))
    rows = []
    for name in names:
        row = [name]
        first = tables[0].get(name)
        for index, table in enumerate(tables):
            p = table.get(name)
            row += [percent_of(*p.as_integer_ratio()) if p is not None else "—"]
            if odds[index].cumulative:  # this row or a better one of the statement's own, or a worse one
                row += _row_cumulative(list(table.values()), list(table).index(name),
                                       best_first(list(table), colours)) if p is not None else ["", ""]
            if index:
                row += [_points(p, first) if p is not None and first is not None else ""]
        rows.append(row)
    return rows


def _row_cumulative(ps: list[Fraction], at: int, best_on_top: bool) -> list[str]:
    return [percent_of(*p.as_integer_ratio()) for p in at_least_and_most(ps, best_on_top)[at]]


def _ratios(odds: Odds) -> tuple[Sequence[str], list[Fraction]]:
    names, ratios = names_and_ratios(odds.outcomes)
    return names, [Fraction(top, bottom) for top, bottom in ratios]


def _value_rows(dists: Sequence[Distribution | None], cumulative: bool) -> list[list[str]]:
    """A row per value any of them takes, or per range of values when there are more than HISTOGRAM_ROWS."""
    values = sorted({v for d in dists if d is not None for v in d.values})
    prefixes = [[0, *accumulate(d.weights)] if d is not None else None for d in dists]
    if len(values) <= HISTOGRAM_ROWS:
        bounds = [(str(v), v, v) for v in values]
    else:  # ranges of equal width over the bulk of them all, the far tails (thin in every one) in a row each
        ranges = [(d.values[first], d.values[stop - 1]) for d, prefix in zip(dists, prefixes, strict=True)
                  if d is not None and prefix for first, stop in (bulk(d, prefix),)]
        low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
        width = ceil((high - low + 1) / HISTOGRAM_ROWS)
        bounds = [(f"< {low}", values[0], low - 1)] if values[0] < low else []
        bounds += [(str(a) if a == min(a + width - 1, high) else f"{a}–{min(a + width - 1, high)}", a,
                    min(a + width - 1, high)) for a in range(low, high + 1, width)]
        if values[-1] > high:
            bounds.append((f"> {high}", high + 1, values[-1]))
    name_width = max(len(name) for name, _, _ in bounds)
    rows = []
    for name, first_value, last_value in bounds:
        row = [f"  {name.rjust(name_width)}"]
        first_p: Fraction | None = None
        for index, (dist, prefix) in enumerate(zip(dists, prefixes, strict=True)):
            if dist is None or prefix is None:
                row += ["—"] + (["", ""] if cumulative else []) + ([""] if index else [])
                continue
            start = bisect_left(dist.values, first_value)
            end = bisect_right(dist.values, last_value)
            weight, bottom = prefix[end] - prefix[start], dist.denominator
            row.append(percent_of(weight, bottom))
            if cumulative:
                row += [percent_of(prefix[-1] - prefix[start], bottom), percent_of(prefix[end], bottom)]
            p = Fraction(weight, bottom)
            if index:
                row.append(_points(p, first_p) if first_p is not None else "")
            else:
                first_p = p
        rows.append(row)
    return rows


def _compared_row(label: str, odds: Sequence[Odds], values: Sequence[Any]) -> list[str]:
    """One summary row: each statement's value (blank columns under its cumulative ones) and, after every
    statement but the first, its difference from the first."""
    row = [label]
    first = values[0]
    for index, (o, value) in enumerate(zip(odds, values, strict=True)):
        row += [f"{float(value):.4g}" if value is not None else "—"] + (["", ""] if o.cumulative else [])
        if index:
            row.append(f"{float(value - first):+.4g}" if value is not None and first is not None else "")
    return row


def _summary_rows(odds: Sequence[Odds]) -> list[list[str]]:
    means = [o.mean for o in odds]
    sds = [deviation(o) for o in odds]
    rows = []
    if any(m is not None for m in means):
        rows.append(_compared_row("mean", odds, means))
    if any(sd is not None for sd in sds):
        rows.append(_compared_row("sd", odds, sds))
    at_least = [o.at_least for o in odds]
    if any(a is not None for a in at_least):
        k = next(a.k for a in at_least if a is not None)
        row = [f"P(≥ {k})"]
        for index, (o, a) in enumerate(zip(odds, at_least, strict=True)):
            row += [percent_of(*a.p.as_integer_ratio()) if a is not None else "—"] + (["", ""] if o.cumulative else [])
            if index:
                first_a = at_least[0]
                row.append(_points(a.p, first_a.p) if a is not None and first_a is not None else "")
        rows.append(row)
    return rows


def comparison_colours(answer: Any) -> dict[str, str]:
    """The colours of every answerer of a comparison: its rule set's, and generic dice's where they answered."""
    colours: dict[str, str] = {}
    for name in dict.fromkeys(answer.result.handlers):
        colours.update(rulesets.dice_handler().colours if name == "dice" else rulesets.load(answer.rules).colours)
    return colours


# -- JSON ------------------------------------------------------------------------------------------

def comparison_json(compared: Comparison, colours: Mapping[str, str] = EMPTY) -> dict[str, Any]:
    """`compared`: each statement's odds as `crux odds --json` gives them, with `difference` from the first
    (its outcomes and mean less the first's) after the first."""
    from crux_cli.render.odds_json import odds_to_json, probability

    first = compared.odds[0]
    first_outcomes = dict(first.outcomes)
    out = []
    for index, (text, odds) in enumerate(zip(compared.inputs, compared.odds, strict=True)):
        record: dict[str, Any] = {"input": text, "kind": odds.kind, **odds_to_json(odds, colours)}
        if index:
            difference: dict[str, Any] = {"outcomes": {name: probability(p - first_outcomes[name])
                                                       for name, p in odds.outcomes if name in first_outcomes}}
            if odds.mean is not None and first.mean is not None:
                difference["mean"] = probability(odds.mean - first.mean)
            record["difference"] = difference
        out.append(record)
    return {"compared": out}
