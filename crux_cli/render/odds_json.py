"""Odds as JSON (crux(1) JSON OUTPUT): every probability is `{"p": "19/27", "approx": 0.7037}`.

The caller adds `input`, `kind` and `rules`; this maps the rest. Keys of a
distribution are strings (JSON keys are), in ascending order of value.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from crux_cli.core.ruleset import EMPTY
from crux_cli.probability.result import (
    Distribution,
    Odds,
    Rows,
    best_first,
    deviation,
    distribution_of,
    names_and_ratios,
)

APPROX_DIGITS = 4  # significant digits of "approx"; "p" is the exact value


STR_BITS = 13_000  # Python refuses str() of an int past 4,300 digits; longer ones are written in parts


def probability(p: Fraction) -> dict[str, Any]:
    """An exact fraction as a string beside a float rounded to 4 significant digits."""
    return probability_of(*p.as_integer_ratio())


def probability_of(top: int, bottom: int) -> dict[str, Any]:
    """`probability` of top / bottom in lowest terms (what weighted rows give: no Fraction made)."""
    return {"p": exact_of(top, bottom), "approx": approx_of(top, bottom)}


def exact(p: Fraction) -> str:
    """`str(p)`, for numbers of any length."""
    return exact_of(*p.as_integer_ratio())


def exact_of(top: int, bottom: int) -> str:
    return digits(top) if bottom == 1 else f"{digits(top)}/{digits(bottom)}"


def digits(n: int) -> str:
    """The decimal digits of n, in halves when it is longer than str() will write."""
    if n < 0:
        return "-" + digits(-n)
    if n.bit_length() <= STR_BITS:
        return str(n)
    half = n.bit_length() * 3 // 20  # about half the decimal digits (log10 2 ~ 0.3)
    high, low = divmod(n, 10**half)
    return digits(high) + digits(low).zfill(half)


def approx(p: Fraction) -> float:
    return approx_of(*p.as_integer_ratio())


def approx_of(top: int, bottom: int) -> float:
    return float(f"{top / bottom:.{APPROX_DIGITS}g}")


def distribution(rows: Distribution) -> dict[str, Any]:
    """Every value's probability, reduced straight from the integer weights (no Fraction objects:
    a distribution can have tens of thousands of rows)."""
    return {str(value): probability_of(top, bottom)
            for value, (top, bottom) in zip(rows.values, rows.ratios(), strict=True)}


def cumulative(rows: Distribution) -> dict[str, Any]:
    """`--cumulative`: each value's P(at least it) and P(at most it), in the shape of a probability."""
    out: dict[str, Any] = {}
    below, total, bottom = 0, sum(rows.weights), rows.denominator
    for value, weight in zip(rows.values, rows.weights, strict=True):
        at_most = below + weight
        out[str(value)] = {"at_least": probability(Fraction(total - below, bottom)),
                           "at_most": probability(Fraction(at_most, bottom))}
        below = at_most
    return out


def outcomes_cumulative(rows: Rows, colours: Mapping[str, str] = EMPTY) -> dict[str, Any]:
    """`--cumulative`: each outcome's P(it or a better one) and P(it or a worse one), in reading order (the
    rule set's colours say which is better: `best_first`)."""
    from crux_cli.render.odds_text import at_least_and_most

    names, ratios = names_and_ratios(rows)
    pairs = at_least_and_most([Fraction(top, bottom) for top, bottom in ratios], best_first(names, colours))
    return {name: {"at_least": probability(least), "at_most": probability(most)}
            for name, (least, most) in zip(names, pairs, strict=True)}


def table(rows: Rows) -> dict[str, Any]:
    """An outcome table's probabilities by name, from its weights when it keeps them."""
    names, ratios = names_and_ratios(rows)
    return {name: probability_of(top, bottom) for name, (top, bottom) in zip(names, ratios, strict=True)}


def odds_to_json(odds: Odds, colours: Mapping[str, str] = EMPTY) -> dict[str, Any]:
    data: dict[str, Any] = {"outcomes": table(odds.outcomes)}
    if odds.cumulative and odds.outcomes:
        data["outcomes_cumulative"] = outcomes_cumulative(odds.outcomes, colours)
    for side in odds.tables:
        data[side.key] = table(side.rows)
    if odds.distribution is not None:
        rows = distribution_of(odds.distribution)
        data["distribution"] = distribution(rows)
        if odds.cumulative:
            data["cumulative"] = cumulative(rows)
    if odds.mean is not None:
        data["mean"] = probability(odds.mean)
    sd = deviation(odds) if odds.distribution is not None else None
    if sd is not None:
        data["sd"] = float(f"{sd:.{APPROX_DIGITS}g}")
    if odds.at_least is not None:
        data["at_least"] = {"k": odds.at_least.k, **probability(odds.at_least.p)}
    if odds.leftover:
        data["leftover"] = probability(odds.leftover)
    if odds.depth is not None:
        data["depth"] = odds.depth
    return data
