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


def action_text(result: engine.ActionResult, palette: Palette) -> str:
    return f"{roll_text(result.roll, palette)} · {result.request.risk} risk: {result.text}"


def fortune_text(result: engine.FortuneResult, palette: Palette) -> str:
    return f"{roll_text(result.roll, palette)} · {result.text}"


def resist_text(result: engine.ResistResult, palette: Palette) -> str:
    return f"{roll_text(result.roll, palette)} · {result.text} · {grit_text(result)}"


def roll_json(roll: engine.ChallengeRoll) -> dict[str, Any]:
    return {"pool": roll.pool, "zero_pool": roll.zero_pool, "dice": list(roll.dice), "kept": roll.kept,
            "outcome": roll.outcome}


def action_json(result: engine.ActionResult) -> dict[str, Any]:
    request = result.request
    return {"kind": result.kind, "rating": request.rating, "advantage": request.advantage,
            "disadvantage": request.disadvantage, "risk": request.risk, **roll_json(result.roll),
            "text": result.text, "xp": result.xp}


def fortune_json(result: engine.FortuneResult) -> dict[str, Any]:
    request = result.request
    return {"kind": result.kind, "rating": request.rating, "advantages": request.advantages,
            "disadvantages": request.disadvantages, **roll_json(result.roll), "text": result.text}


def resist_json(result: engine.ResistResult) -> dict[str, Any]:
    return {"kind": result.kind, "rating": result.request.rating, **roll_json(result.roll), "text": result.text,
            "grit": grit_json(result.grit_marked, result.grit_back, net=result.grit_net,
                              options=[{"mark": extra, "effect": effect} for extra, effect in result.options])}
