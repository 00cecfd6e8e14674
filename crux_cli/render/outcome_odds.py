"""Exact odds as readable lines with bars, and as NOTATION §4 JSON.

A stand-in with the same JSON as `crux_cli.render.odds_json` on the odds branch:
when that is merged, the kindred rule sets' odds render through it instead.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crux_cli.odds.outcomes import Odds, Rows
from crux_cli.render.style import Palette

BAR_WIDTH = 30
APPROX_DIGITS = 4  # significant digits of "approx"; "p" is exact


def probability_json(p: Fraction) -> dict[str, Any]:
    """`{"p": "19/27", "approx": 0.7037}`."""
    return {"p": str(p), "approx": float(f"{float(p):.{APPROX_DIGITS}g}")}


def to_json(odds: Odds) -> dict[str, Any]:
    record: dict[str, Any] = {"outcomes": {name: probability_json(p) for name, p in odds.outcomes}}
    for table in odds.tables:
        record[table.key] = {name: probability_json(p) for name, p in table.rows}
    if odds.distribution is not None:
        record["distribution"] = {str(value): probability_json(p) for value, p in odds.distribution}
    if odds.mean is not None:
        record["mean"] = probability_json(odds.mean)
    return record


def percent(p: Fraction) -> str:
    if p and float(p) < 0.0001:
        return "<0.01%"
    return f"{float(p) * 100:.2f}%"


def fraction_text(p: Fraction) -> str:
    text = str(p)
    return text if len(text) <= 24 else f"≈ {float(p):.3g}"


def bar(p: Fraction) -> str:
    return "█" * round(float(p) * BAR_WIDTH)


def table(rows: Rows, palette: Palette, paint: bool = True) -> list[str]:
    label_width = max((len(label) for label, _ in rows), default=0)
    fraction_width = max((len(fraction_text(p)) for _, p in rows), default=0)
    return [f"  {palette.paint(label.ljust(label_width), label) if paint else label.ljust(label_width)}  "
            f"{fraction_text(p).rjust(fraction_width)}  {percent(p).rjust(7)}  {bar(p)}" for label, p in rows]


def lines(odds: Odds, palette: Palette) -> list[str]:
    """Each outcome's exact chance; then side tables; then the distribution and its mean."""
    out = table(odds.outcomes, palette)
    for side in odds.tables:
        out.append(f"  {side.title}:")
        out += table(side.rows, palette, paint=False)
    if odds.distribution is not None and len(odds.distribution) > 1:
        out.append(f"  {odds.label}:")
        out += table(tuple((str(value), p) for value, p in odds.distribution), palette, paint=False)
    if odds.mean is not None:
        out.append(f"  mean {odds.label} {fraction_text(odds.mean)} ≈ {float(odds.mean):.3f}")
    return out
