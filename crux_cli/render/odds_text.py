"""Odds as text a person reads at a glance: fractions, percentages and bars.

Outcome tables use an absolute scale (a full bar is certainty); the damage or
total histogram is scaled to its tallest row and, when there are many values,
grouped into ranges with the far tails summed. Exact fractions too long to read
are left to `--json`. Colour comes from the CLI's `Palette` (a no-op off a
terminal): each outcome and its bar in the colour its rule set gives it
(`RuleSet.colours`), headings bold, notes dim.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from fractions import Fraction
from itertools import accumulate
from math import ceil

from crux_cli.core.columns import ljust
from crux_cli.core.columns import width as columns
from crux_cli.core.ruleset import EMPTY
from crux_cli.core.style import PLAIN, Palette
from crux_cli.probability.result import (
    Distribution,
    Odds,
    Rows,
    best_first,
    deviation,
    distribution_of,
    names_and_ratios,
)

BAR_WIDTH = 30  # characters for probability 1 in outcome tables
HISTOGRAM_WIDTH = 40  # characters for the tallest histogram row
HISTOGRAM_ROWS = 24  # more values than this are grouped into ranges
TAIL = Fraction(1, 2000)  # each far tail up to this much is summed into one row
FRACTION_CHARS = 13  # longer exact fractions are left to --json
EIGHTHS = " ▏▎▍▌▋▊▉"


def render_odds(odds: Odds, palette: Palette = PLAIN, colours: Mapping[str, str] = EMPTY) -> str:
    """The odds as text; `colours` (outcome -> role) is the colouring of the rule set that gave them."""
    return "\n".join(odds_text_lines(odds, palette, colours))


def odds_text_lines(odds: Odds, palette: Palette = PLAIN, colours: Mapping[str, str] = EMPTY,
                    margin: str = "") -> list[str]:
    """`render_odds` as its lines, each after `margin` (blank lines between blocks are left empty).

    Written with the margin, rather than written and then split and indented, because `crux odds`
    indents every line. A name that is not one printable line (a plug-in's could break a line) is the
    one thing that would read differently: its text is split and indented, which puts the margin before
    each of its lines too.
    """
    try:
        return _lines(odds, palette, colours, margin)
    except _Unprintable:  # raised only with a margin
        return [f"{margin}{line}".rstrip() for line in "\n".join(_lines(odds, palette, colours, "")).splitlines()]


class _Unprintable(Exception):
    """A name with a line break or a control character, met while writing lines with a margin."""


def _printable(text: str, margin: str) -> None:
    """Refuse a name that would not read as one line after the margin (with no margin, anything goes)."""
    if margin and not text.isprintable():
        raise _Unprintable


def _lines(odds: Odds, palette: Palette, colours: Mapping[str, str], margin: str) -> list[str]:
    cells: dict[tuple[int, int], tuple[str, str, str]] = {}  # shared: a save's effects are its bands
    lines = _table(odds.outcomes, palette, colours, None, cells, margin, odds.cumulative) if odds.outcomes else []
    for table in odds.tables:
        _add_block(lines, _table(table.rows, palette, colours, table.title, cells, margin, odds.cumulative))
    _printable(odds.label, margin)  # in the histogram's heading and the notes
    if odds.distribution is not None:
        _add_block(lines, _histogram(distribution_of(odds.distribution), odds.label, palette, margin,
                                     odds.cumulative))
    _add_block(lines, _notes(odds, palette, margin))
    return lines


def _add_block(lines: list[str], block: list[str]) -> None:
    """A block after the others, a blank line between (an empty block adds nothing)."""
    if block:
        if lines:
            lines.append("")
        lines += block


def percent(p: Fraction) -> str:
    """A percentage with two decimals that never rounds a possibility to 0 or a doubt to 100."""
    return percent_of(p.numerator, p.denominator)


def percent_of(weight: int, denominator: int) -> str:
    """`percent` of weight / denominator, in integers (no Fraction to make and reduce)."""
    if denominator <= weight * 10_000 <= denominator * 9_999:  # the usual case, tested first
        return f"{weight / denominator * 100:.2f}%"
    if weight * 10_000 < denominator:
        return "0%" if weight == 0 else "<0.01%"
    return "100%" if weight == denominator else ">99.99%"


def bar(share: float, width: int) -> str:
    """A horizontal bar of `share` x `width` characters, in eighths; never empty for a share above 0."""
    eighths = round(share * width * 8)
    if eighths <= 0:
        return EIGHTHS[1] if share > 0 else ""
    return BARS[eighths] if eighths < len(BARS) else "█" * (eighths // 8) + EIGHTHS[eighths % 8].strip()


BARS = [bar_of_eighths for full in range(max(BAR_WIDTH, HISTOGRAM_WIDTH) + 1)
        for bar_of_eighths in ("█" * full + rest.strip() for rest in EIGHTHS)]  # by the number of eighths


def fraction(p: Fraction) -> str:
    """The exact fraction when it is short enough to read ("" otherwise, without writing out a long one)."""
    return fraction_of(p.numerator, p.denominator)


def fraction_of(numerator: int, denominator: int) -> str:
    """`fraction` of numerator / denominator in lowest terms."""
    if (abs(numerator) | denominator).bit_length() > 4 * FRACTION_CHARS:  # the longer's bits: too long to read
        return ""
    text = str(numerator) if denominator == 1 else f"{numerator}/{denominator}"
    return text if len(text) <= FRACTION_CHARS else ""


def _paint(palette: Palette, text: str, role: str) -> str:
    """Paint only what is there, so an empty bar leaves no escape codes at the end of a line."""
    return palette.paint(text, role) if text.strip() else text


def _table(rows: Rows, palette: Palette, colours: Mapping[str, str],
           heading: str | None, cells: dict[tuple[int, int], tuple[str, str, str]] | None = None,
           margin: str = "", cumulative: bool = False) -> list[str]:
    """One outcome table; `cells` keeps each probability's fraction, percentage and bar for the next table.
    `cumulative` puts P(this row or a better one) and P(this row or a worse one) before each bar (`best_first`)."""
    if not rows:
        return []
    names, ratios = names_and_ratios(rows)
    if cumulative:
        extra = [f"≥ {percent(up).rjust(7)}  ≤ {percent(down).rjust(7)}  "
                 for up, down in at_least_and_most([Fraction(*ratio) for ratio in ratios], best_first(names, colours))]
        cells = {}  # each row's cells are its own now
    else:
        extra = [""] * len(names)
    _printable("".join(names) if heading is None else heading + "".join(names), margin)
    cells = {} if cells is None else cells
    shown = []
    for ratio in ratios:  # (top, bottom): a cheaper key than a Fraction, which hashes by a modular inverse
        cell = cells.get(ratio)
        if cell is None:
            cell = cells[ratio] = _cell(*ratio)
        shown.append(cell)
    name_width = max(map(columns, names))  # a plug-in's outcome may be named in any script
    fraction_width = max([len(exact) for exact, _, _ in shown])
    indent = f"{margin}  " if heading else margin
    if palette.enabled:  # each outcome and its bar in its rule set's colour
        lines = []
        for name, (exact, percentage, shaded), more in zip(names, shown, extra, strict=True):
            role = colours.get(name, "")
            lines.append(f"{indent}{_paint(palette, ljust(name, name_width), role)}  {exact.rjust(fraction_width)}  "
                         f"{percentage}  {more}{_paint(palette, shaded, role)}".rstrip())
    else:  # the usual case (a pipe, NO_COLOR): no role to look up per row
        lines = [f"{indent}{ljust(name, name_width)}  {exact.rjust(fraction_width)}  {percentage}  "
                 f"{more}{shaded}".rstrip()
                 for name, (exact, percentage, shaded), more in zip(names, shown, extra, strict=True)]
    return [f"{margin}{palette.bold(heading)}".rstrip(), *lines] if heading else lines


def at_least_and_most(ps: list[Fraction], best_on_top: bool) -> list[tuple[Fraction, Fraction]]:
    """Each row's P(it or better) and P(it or worse), for rows listed worst first, or best first."""
    later = list(accumulate(reversed(ps)))[::-1]  # this row and those after it
    earlier = list(accumulate(ps))  # this row and those before it
    return list(zip(earlier, later, strict=True)) if best_on_top else list(zip(later, earlier, strict=True))


def _cell(top: int, bottom: int) -> tuple[str, str, str]:
    """A probability's exact fraction, percentage (right-aligned) and bar in an outcome table."""
    return fraction_of(top, bottom), percent_of(top, bottom).rjust(7), bar(top / bottom, BAR_WIDTH)


def _histogram(distribution: Distribution, label: str, palette: Palette, margin: str = "",
               cumulative: bool = False) -> list[str]:
    values, weights = distribution.values, distribution.weights
    if not values:
        return []
    if cumulative:
        return _cumulative_histogram(distribution, label, palette, margin)
    names: tuple[str, ...] | None = None  # a row per value, named by it
    if len(values) > HISTOGRAM_ROWS:
        names, weights = zip(*_group(distribution), strict=True)
    denominator = distribution.denominator
    tallest = max(weights) / denominator or 1.0
    cells: dict[int, str] = {}  # weight -> its percentage and bar: many rows share one (a fair die)
    for weight in set(weights):  # the share is the float of the exact probability, scaled to the tallest row
        cells[weight] = (f"{percent_of(weight, denominator).rjust(7)}  "
                         f"{bar(weight / denominator / tallest, HISTOGRAM_WIDTH)}").rstrip()
    indent = f"{margin}  "
    if names is None:  # values are integers in ascending order: the widest is the least's or the greatest's
        width = max(len(str(values[0])), len(str(values[-1])))
        rows = [f"{indent}{str(value).rjust(width)}  {cells[weight]}"
                for value, weight in zip(values, weights, strict=True)]
    else:
        width = max(map(len, names))
        rows = [f"{indent}{name.rjust(width)}  {cells[weight]}" for name, weight in zip(names, weights, strict=True)]
    return [f"{margin}{palette.bold(label)}".rstrip(), *rows]


def _cumulative_histogram(distribution: Distribution, label: str, palette: Palette, margin: str) -> list[str]:
    """`--cumulative`: each row with P(at least its least value) and P(at most its greatest) before the bar."""
    values, denominator = distribution.values, distribution.denominator
    prefix = [0, *accumulate(distribution.weights)]
    rows = (_group_bounds(distribution, prefix) if len(values) > HISTOGRAM_ROWS
            else [(str(value), i, i + 1) for i, value in enumerate(values)])
    grand = prefix[-1]
    tallest = max(prefix[end] - prefix[start] for _, start, end in rows) / denominator or 1.0
    width = max(len(name) for name, _, _ in rows)
    indent = f"{margin}  "
    pad = max(len(indent) + width + 2 - len(margin) - len(label), 2)
    lines = [f"{margin}{palette.bold(label)}{' ' * pad}{'P':>7}  {'≥ it':>7}  {'≤ it':>7}"]
    for name, start, end in rows:
        weight = prefix[end] - prefix[start]
        lines.append(f"{indent}{name.rjust(width)}  {percent_of(weight, denominator).rjust(7)}  "
                     f"{percent_of(grand - prefix[start], denominator).rjust(7)}  "
                     f"{percent_of(prefix[end], denominator).rjust(7)}  "
                     f"{bar(weight / denominator / tallest, HISTOGRAM_WIDTH)}".rstrip())
    return lines


def _group(distribution: Distribution) -> list[tuple[str, int]]:
    """Ranges of equal width over the bulk of the distribution, with each thin tail in one row,
    each with its weight (over the distribution's denominator)."""
    prefix = [0, *accumulate(distribution.weights)]
    return [(name, prefix[end] - prefix[start]) for name, start, end in _group_bounds(distribution, prefix)]


def bulk(distribution: Distribution, prefix: list[int]) -> tuple[int, int]:
    """The indexes (first, past the last) of the values outside the thin tails: a tail is thin while its
    weight is at most TAIL of the denominator (`prefix[i]`: the weight of the i lowest values)."""
    thin = distribution.denominator * TAIL.numerator // TAIL.denominator  # the most weight a thin tail holds
    start = max(0, min(bisect_right(prefix, thin) - 1, len(distribution.values) - 1))  # below start: low tail
    stop = max(start + 1, bisect_left(prefix, prefix[-1] - thin))  # from stop on: the high tail
    return start, stop


def _group_bounds(distribution: Distribution, prefix: list[int]) -> list[tuple[str, int, int]]:
    """`_group`'s rows as (name, index of the first value, index past the last).

    One pass of prefix sums over the integer weights (`prefix[i]`: the weight of the i lowest values): a
    tail is thin while its sum is at most TAIL of the denominator, and a range is a difference of two.
    """
    values = distribution.values
    start, stop = bulk(distribution, prefix)
    low, high = values[start], values[stop - 1]
    width = max(1, ceil((high - low + 1) / HISTOGRAM_ROWS))
    rows: list[tuple[str, int, int]] = []
    if start:
        rows.append((f"< {low}", 0, start))
    first_index = start
    for first in range(low, high + 1, width):
        last = min(first + width - 1, high)
        end_index = bisect_right(values, last, first_index, stop)
        rows.append((str(first) if first == last else f"{first}–{last}", first_index, end_index))
        first_index = end_index
    if stop < len(values):
        rows.append((f"> {high}", stop, len(values)))
    return rows


def _notes(odds: Odds, palette: Palette, margin: str = "") -> list[str]:
    lines = []
    if odds.mean is not None:
        top, bottom = odds.mean.as_integer_ratio()  # one call rather than a property for each
        sd = deviation(odds)
        spread = f" · sd ≈ {sd:.4g}" if sd is not None else ""
        lines.append(f"mean {odds.label} {_exact_of(top, bottom, f'{top / bottom:.4g}')}{spread}")
    if odds.at_least is not None:
        p = odds.at_least.p
        lines.append(f"P({odds.label} ≥ {odds.at_least.k}) {_exact(p, percent(p))}")
    if odds.leftover:
        longer = f" longer than {odds.depth} re-rolls" if odds.depth is not None else " past the cap"
        if odds.exact_at_least is not None:  # the rule set counted them in the mean and P(at least)
            lines.append(f"leftover {float(odds.leftover):.2g}: exploding chains{longer} are not in the "
                         "table (the mean and P(≥) count them)")
        else:  # the depth is the fewest re-rolls leaving under 1e-12 out (dist.default_depth): it varies by statement
            rolled = " (rolls go on to 100)" if odds.depth is not None else ""
            lines.append(f"leftover {float(odds.leftover):.2g}: exploding chains{longer}{rolled} are not in the "
                         f"table{', mean or sd' if odds.mean is not None else ''}")
    if palette.enabled:
        return [f"{margin}{palette.dim(line)}" for line in lines]
    return [f"{margin}{line}" for line in lines] if margin else lines


def _exact(p: Fraction, rounded: str) -> str:
    """'= 7/2 ≈ 3.5', '≈ 3.237' when the fraction is too long to read, '= 3' when it is whole."""
    return _exact_of(*p.as_integer_ratio(), rounded)


def _exact_of(top: int, bottom: int, rounded: str) -> str:
    """`_exact` of top / bottom in lowest terms."""
    if bottom == 1:
        return f"= {top}"
    text = fraction_of(top, bottom)
    return f"= {text} ≈ {rounded}" if text else f"≈ {rounded}"
