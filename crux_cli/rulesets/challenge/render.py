"""Challenge results as one readable line, and as their JSON fields (documented in grammar/rulesets.md)."""

from __future__ import annotations

from typing import Any

from crux_cli.core.style import Palette
from crux_cli.core.vocabulary import grit_json
from crux_cli.rulesets.challenge import engine
from crux_cli.rulesets.challenge.words import COLOURS


def roll_text(roll: engine.ChallengeRoll, palette: Palette) -> str:
    """`weak hit (5) · 3d6 [5, 2, 1]`; a zero pool says why it kept the lowest."""
    head = f"{palette.outcome(roll.outcome, COLOURS)} ({palette.bold(str(roll.kept))})"
    dice = f"{len(roll.dice)}d6 [{', '.join(map(str, roll.dice))}]"
    if roll.zero_pool:
        dice = f"{roll.pool} dice: {dice} keep lowest, no critical"
    return f"{head} · {dice}"


def grit_text(result: engine.ResistResult) -> str:
    """The Grit resisting cost; the seed's text already says what more Grit can buy."""
    text = f"Grit: {result.grit_marked} marked"
    if result.grit_back:
        text += f", {result.grit_back} back (net {result.grit_net})"
    return text


def describe(result: Any, palette: Palette) -> str:
    parts = [roll_text(result.roll, palette)]
    if isinstance(result, engine.ActionResult):
        parts.append(f"{result.request.risk} risk: {result.text}")
    elif isinstance(result, engine.ResistResult):
        parts += [result.text, grit_text(result)]
    else:
        parts.append(result.text)
    return " · ".join(parts)


def roll_json(roll: engine.ChallengeRoll) -> dict[str, Any]:
    return {"pool": roll.pool, "zero_pool": roll.zero_pool, "dice": list(roll.dice), "kept": roll.kept,
            "outcome": roll.outcome}


def to_json(result: Any) -> dict[str, Any]:
    request = result.request
    record: dict[str, Any] = {"kind": result.kind, "rating": request.rating}
    if isinstance(result, engine.ActionResult):
        record.update(advantage=request.advantage, disadvantage=request.disadvantage, risk=request.risk)
    elif isinstance(result, engine.FortuneResult):
        record.update(advantages=request.advantages, disadvantages=request.disadvantages)
    record.update(roll_json(result.roll), text=result.text)
    if isinstance(result, engine.ActionResult):
        record["xp"] = result.xp
    if isinstance(result, engine.ResistResult):
        record["grit"] = grit_json(result.grit_marked, result.grit_back, net=result.grit_net,
                                   options=[{"mark": extra, "effect": effect} for extra, effect in result.options])
    return record
