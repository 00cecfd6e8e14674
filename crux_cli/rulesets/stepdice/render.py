"""Step-dice results as one readable line, and as their JSON fields (documented in grammar/rulesets.md)."""

from __future__ import annotations

from typing import Any

from crux_cli.core.style import Palette
from crux_cli.core.vocabulary import ARMOR_KEY, grit_json
from crux_cli.rulesets.stepdice import engine
from crux_cli.rulesets.stepdice.engine import Roll, die_name
from crux_cli.rulesets.stepdice.words import COLOURS, DEATH_COLOURS

CONSEQUENCE_TEXT = {
    "minor": "minor: not significantly harmed",
    "critical": "Critical Damage, but upright",
    "incapacitated": "Critical Damage and incapacitated",
    "dead": "lethal: Critical Damage with STR already at 0",
    "paralysed": "paralysis: Direct Damage with DEX already at 0",
    "catatonic": "catatonia: Direct Damage with WIL already at 0",
}


def rolls_text(rolls: tuple[Roll, ...]) -> str:
    """`d8 3, d12 9`."""
    return ", ".join(f"{die_name(r.sides)} {r.face}" for r in rolls)


def save_text(result: engine.SaveResult, palette: Palette) -> str:
    request = result.request
    outcome = palette.outcome(result.outcome, COLOURS)
    if result.automatic:
        return f"{outcome} · the attribute die is at 0: an automatic loss, no roll"
    mine = rolls_text(result.rolls) + (" keep higher" if len(result.rolls) > 1 else "")
    if request.mode != "normal":
        mine = f"{request.mode}: {mine}"
    if request.opposing is None:
        theirs = str(result.target)
    elif result.opposing_roll is None:
        theirs = "0 (the opposing die is at 0)"
    else:
        theirs = rolls_text((result.opposing_roll,))
    return f"{outcome} ({palette.bold(str(result.score))}) · {mine} vs {theirs}"


def step_text(result: engine.StepResult, palette: Palette) -> str:
    request = result.request
    direction = "up" if request.steps >= 0 else "down"
    text = f"{palette.bold(die_name(result.after))} · {die_name(result.before)} stepped {direction} " \
           f"{abs(request.steps)}"
    if result.stopped:
        text += " · the track ends at d12" if request.steps > 0 else " · below d4 a die is at 0"
    return text


def attack_text(result: engine.AttackResult, palette: Palette) -> str:
    request = result.request
    if result.outcome == "deflected":
        head = "deflected · no damage gets past the armor"
    elif result.outcome == "dodged":
        head = f"dodged · {palette.bold(str(result.grit_lost))} Grit lost, no Direct Damage"
    else:
        head = f"{palette.bold(str(result.direct))} Direct Damage"
        if result.grit_lost:
            head += f" · {result.grit_lost} Grit lost"
    parts = [head, f"highest {result.highest} of {rolls_text(result.rolls)}"]
    if request.mode != "normal":
        parts[-1] = f"{request.mode}: " + parts[-1]
    if result.armor:
        capped = f" (capped from {request.armor})" if request.armor > result.armor else ""
        parts.append(f"armor {result.armor}{capped} → {result.damage}")
    if request.grit:
        parts.append(f"Grit {request.grit} → {result.grit_left}")
    if result.save is not None:
        save = result.save
        name = request.attribute
        rolled = f"no roll ({name} 0)" if save.automatic else rolls_text(save.rolls)
        strength = f", {name} {die_name(request.strength or 0)} → {die_name(result.strength_after or 0)}" \
            if result.strength_after != request.strength else ""
        parts.append(f"{name} save {rolled} vs {save.target}: {palette.outcome(save.outcome, COLOURS)} → "
                     f"{CONSEQUENCE_TEXT[result.consequence or 'minor']}{strength}")
    elif result.direct:
        parts.append(f"make a STR save vs {result.direct} (add str DIE to roll it)")
    return " · ".join(parts)


def death_text(result: engine.DeathResult, palette: Palette) -> str:
    marked = " · already Marked by Death: a deal on 2–6" if result.request.marked else ""
    back = {"deal": " · if you accept: back to life, now Marked by Death",
            "return": " · back to life, now Marked by Death"}.get(result.outcome, "")
    return f"{palette.outcome(result.outcome, DEATH_COLOURS)} ({palette.bold(str(result.roll))}) · " \
           f"{result.text}{marked}{back}"


def roll_json(roll: Roll | None) -> dict[str, Any] | None:
    return None if roll is None else {"die": die_name(roll.sides), "face": roll.face}


def save_json(result: engine.SaveResult) -> dict[str, Any]:
    request = result.request
    return {
        "kind": "save", "die": die_name(request.die), "mode": request.mode,
        "vs": die_name(request.opposing) if request.opposing is not None else request.target,
        "dice": [r.face for r in result.rolls], "rolls": [roll_json(r) for r in result.rolls],
        "kept": result.score, "opposing": roll_json(result.opposing_roll), "target": result.target,
        "outcome": result.outcome, "automatic": result.automatic,
    }


def step_json(result: engine.StepResult) -> dict[str, Any]:
    return {"kind": "step", "die": die_name(result.before), "steps": result.request.steps,
            "result": die_name(result.after), "stopped": result.stopped, "dice": []}


def death_json(result: engine.DeathResult) -> dict[str, Any]:
    return {"kind": "death", "marked": result.request.marked, "dice": [result.roll],
            "kept": result.roll, "outcome": result.outcome, "text": result.text,
            "marked_after": result.outcome != "taken"}


def attack_json(result: engine.AttackResult) -> dict[str, Any]:
    request = result.request
    return {
        "kind": "attack", "mode": request.mode, "attack_dice": [die_name(s) for s in request.dice],
        "dice": [r.face for r in result.rolls], "rolls": [roll_json(r) for r in result.rolls],
        "highest": result.highest, ARMOR_KEY: result.armor, "armor_given": request.armor,
        "damage": result.damage,
        "grit": grit_json(result.grit_lost, 0, before=request.grit, after=result.grit_left),
        "direct": result.direct, "outcome": result.outcome,
        "save": save_json(result.save) if result.save is not None else None,
        "consequence": result.consequence,
        "str": die_name(request.strength) if request.strength is not None else None,
        "attribute": request.attribute,
        "str_after": die_name(result.strength_after) if result.strength_after is not None else None,
    }
