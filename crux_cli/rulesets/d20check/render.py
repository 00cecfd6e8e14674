"""d20check results as one readable line, and as their JSON fields (documented in grammar/rulesets.md)."""

from __future__ import annotations

from typing import Any

from crux_cli.core.style import Palette
from crux_cli.core.vocabulary import ARMOR_KEY
from crux_cli.rulesets.d20check import engine
from crux_cli.rulesets.d20check.words import COLOURS

FAVOR_WORDS = {1: "favored", -1: "hindered", 0: "none"}


def difficulty_text(request: engine.CheckRequest) -> str:
    stat = f"2×{request.stat} trained" if request.trained else str(request.stat)
    return f"Difficulty {request.difficulty} = 20 − {stat}"


def check_text(result: engine.CheckResult, palette: Palette) -> str:
    request = result.request
    roll = f"d20 {result.d20}"
    if result.favor_die is not None:
        roll += f" {'+' if request.favor > 0 else '−'} d6 {result.favor_die} {FAVOR_WORDS[request.favor]}"
        roll += f" = {result.total}"
    head = f"{palette.outcome(result.outcome, COLOURS)} ({palette.bold(str(result.total))} vs " \
           f"{result.difficulty})"
    parts = [head, roll, difficulty_text(request)]
    if result.luck:
        parts.insert(1, "a natural 20: +1 Luck")
    return " · ".join(parts)


def damage_text(result: engine.DamageResult, palette: Palette) -> str:
    request = result.request
    head = f"{palette.bold(str(result.damage))} damage" if result.damage else "unharmed"
    dice = f"{len(result.dice)}d{request.sides} [{', '.join(map(str, result.dice))}]"
    if request.flat:
        dice += f" {'+' if request.flat > 0 else '−'} {abs(request.flat)}"
    parts = [head, f"{dice} = {result.total}"]
    if result.reason == "weak":
        ignored = " and ".join(filter(None, [f"armor {request.armor}" if request.armor else "",
                                             "immune" if request.immune else ""]))
        parts.append(f"weak: an extra die, ignores {ignored}")
    elif request.weak:
        parts.append("weak: an extra die")
    elif result.reason == "immune":
        parts.append("immune")
    elif request.armor:
        parts.append(f"armor {request.armor} → {result.damage}")
    return " · ".join(parts)


def check_json(result: engine.CheckResult) -> dict[str, Any]:
    request = result.request
    return {"kind": "check", "stat": request.stat, "trained": request.trained,
            "favor": FAVOR_WORDS[request.favor], "difficulty": result.difficulty,
            "dice": list(result.dice), "d20": result.d20, "favor_die": result.favor_die,
            "total": result.total, "outcome": result.outcome, "luck": result.luck}


def damage_json(result: engine.DamageResult) -> dict[str, Any]:
    request = result.request
    return {"kind": "damage", "count": request.count, "sides": request.sides, "flat": request.flat,
            ARMOR_KEY: result.armor, "armor_given": request.armor, "immune": request.immune, "weak": request.weak,
            "dice": list(result.dice), "total": result.total, "damage": result.damage,
            "outcome": result.outcome, "reason": result.reason}
