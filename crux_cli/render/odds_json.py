"""Odds as JSON (NOTATION §4): every probability is `{"p": "19/27", "approx": 0.7037}`.

The caller adds `input`, `kind` and `rules`; this maps the rest. Keys of a
distribution are strings (JSON keys are), in ascending order of value.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any

from crux_cli.odds.result import Distribution, Odds, distribution_of

APPROX_DIGITS = 4  # significant digits of "approx"; "p" is the exact value


STR_BITS = 13_000  # Python refuses str() of an int past 4,300 digits; longer ones are written in parts


def probability(p: Fraction) -> dict[str, Any]:
    """An exact fraction as a string beside a float rounded to 4 significant digits."""
    return {"p": exact(p), "approx": approx(p)}


def exact(p: Fraction) -> str:
    """`str(p)`, for numbers of any length."""
    if p.denominator == 1:
        return digits(p.numerator)
    return f"{digits(p.numerator)}/{digits(p.denominator)}"


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
    return float(f"{float(p):.{APPROX_DIGITS}g}")


def distribution(rows: Distribution) -> dict[str, Any]:
    """Every value's probability, reduced straight from the integer weights (no Fraction objects:
    a distribution can have tens of thousands of rows)."""
    denominator = rows.denominator
    data: dict[str, Any] = {}
    for value, weight in zip(rows.values, rows.weights, strict=True):
        common = gcd(weight, denominator)
        bottom = denominator // common
        top = digits(weight // common)
        data[str(value)] = {"p": top if bottom == 1 else f"{top}/{digits(bottom)}",
                            "approx": float(f"{weight / denominator:.{APPROX_DIGITS}g}")}
    return data


def odds_to_json(odds: Odds) -> dict[str, Any]:
    data: dict[str, Any] = {"outcomes": {name: probability(p) for name, p in odds.outcomes}}
    for table in odds.tables:
        data[table.key] = {name: probability(p) for name, p in table.rows}
    if odds.distribution is not None:
        data["distribution"] = distribution(distribution_of(odds.distribution))
    if odds.mean is not None:
        data["mean"] = probability(odds.mean)
    if odds.at_least is not None:
        data["at_least"] = {"k": odds.at_least.k, **probability(odds.at_least.p)}
    if odds.leftover:
        data["leftover"] = probability(odds.leftover)
    if odds.depth is not None:
        data["depth"] = odds.depth
    return data
