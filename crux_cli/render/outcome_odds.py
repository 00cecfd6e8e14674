"""Exact odds (crux_cli.odds.outcomes.Odds) as readable lines with bars, and as NOTATION §4 JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crux_cli.odds.outcomes import Odds
from crux_cli.render.style import Palette

BAR_WIDTH = 30


def probability_json(p: Fraction) -> dict[str, Any]:
    """`{"p": "19/27", "approx": 0.7037}`."""
    return {"p": str(p) if p.denominator != 1 else str(p.numerator), "approx": round(float(p), 4)}


def to_json(odds: Odds) -> dict[str, Any]:
    record: dict[str, Any] = {"outcomes": {name: probability_json(p) for name, p in odds.outcomes.items()}}
    if odds.distribution is not None:
        record["measure"] = odds.measure
        record["distribution"] = {str(value): probability_json(p) for value, p in odds.distribution.items()}
        mean = odds.mean
        if mean is not None:
            record["mean"] = probability_json(mean)
    return record


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if p and value < 0.01:
        return "<0.01%"
    return f"{value:.2f}%"


def fraction_text(p: Fraction) -> str:
    text = f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)
    return text if len(text) <= 24 else "≈ " + f"{float(p):.3g}"


def bar(p: Fraction) -> str:
    return "█" * round(float(p) * BAR_WIDTH)


def table(rows: list[tuple[str, Fraction]], palette: Palette, roles: bool = True) -> list[str]:
    label_width = max((len(label) for label, _ in rows), default=0)
    fraction_width = max((len(fraction_text(p)) for _, p in rows), default=0)
    return [f"  {palette.paint(label.ljust(label_width), label) if roles else label.ljust(label_width)}  "
            f"{fraction_text(p).rjust(fraction_width)}  {percent(p).rjust(7)}  {bar(p)}" for label, p in rows]


def lines(odds: Odds, palette: Palette) -> list[str]:
    """Each outcome's exact chance, then the distribution of the measure and its mean."""
    out = table(list(odds.outcomes.items()), palette)
    if odds.distribution is not None and len(odds.distribution) > 1:
        out.append(f"  {odds.measure}:")
        out += table([(str(value), p) for value, p in odds.distribution.items()], palette, roles=False)
        mean = odds.mean
        if mean is not None:
            out.append(f"  mean {odds.measure} {fraction_text(mean)} ≈ {float(mean):.3f}")
    return out
