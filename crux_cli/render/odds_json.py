"""Odds as JSON (NOTATION §4): every probability is `{"p": "19/27", "approx": 0.7037}`.

The caller adds `input`, `kind` and `rules`; this maps the rest. Keys of a
distribution are strings (JSON keys are), in ascending order of value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crux_cli.odds.result import Odds

APPROX_DIGITS = 4  # significant digits of "approx"; "p" is the exact value


def probability(p: Fraction) -> dict[str, Any]:
    """An exact fraction as a string beside a float rounded to 4 significant digits."""
    return {"p": str(p), "approx": approx(p)}


def approx(p: Fraction) -> float:
    return float(f"{float(p):.{APPROX_DIGITS}g}")


def odds_to_json(odds: Odds) -> dict[str, Any]:
    data: dict[str, Any] = {"outcomes": {name: probability(p) for name, p in odds.outcomes}}
    for table in odds.tables:
        data[table.key] = {name: probability(p) for name, p in table.rows}
    if odds.distribution is not None:
        data["distribution"] = {str(value): probability(p) for value, p in odds.distribution}
    if odds.mean is not None:
        data["mean"] = probability(odds.mean)
    if odds.at_least is not None:
        data["at_least"] = {"k": odds.at_least.k, **probability(odds.at_least.p)}
    if odds.leftover:
        data["leftover"] = probability(odds.leftover)
    if odds.depth is not None:
        data["depth"] = odds.depth
    return data
