"""Sheets in the output: what a sheet statement changed, the sheet's new values after a roll,
the whole sheet for `show`, and the same as JSON fields.
"""

from __future__ import annotations

from typing import Any

from crux_cli.core.style import BAD, MIXED, Palette
from crux_cli.core.vocabulary import ATTRIBUTES
from crux_cli.rulesets.crux.hero import GRIT_MAX, Hero
from crux_cli.rulesets.crux.wounds import StateChange

LABELS = {"grit": "Grit", "hp": "HP", "wounds": "Wounds", "dying": "Dying", "dead": "dead",
          "hit_dice": "Hit Dice", "conditions": "conditions"}
SHEET_FIELDS = ("grit", "hp", "hp_max", "wounds", "wound_cap", "dying", "dead", "hit_dice", "conditions")
CONDITION_EFFECTS = {
    "frightened": "a Bane on every roll",
    "blinded": "a Bane on attacks",
    "restrained": "a Bane on attacks and DEX saves",
    "prone": "a Bane on your melee attacks",
    "grappled": "Speed 0; Banes on some tests (add them yourself)",
    "dazed": "lose 1 action on your next turn",
}


def value_text(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(value) or "none"
    return str(value)


def change_text(name: str, before: object, after: object) -> str:
    """`HP 12 → 3`, `Dying no → yes`."""
    return f"{LABELS[name]} {value_text(name, before)} → {value_text(name, after)}"


def status_text(hero: Hero, palette: Palette) -> str:
    """`Wren: HP 3/12 · Wounds 1/6 · Grit 2 · Dying`: the numbers a player watches."""
    parts = [f"HP {hero.hp}/{hero.hp_max}", f"Wounds {hero.wounds}/{hero.wound_cap}", f"Grit {hero.grit}",
             f"Hit Dice {hero.hit_dice}/{hero.hit_dice_max}"]
    if hero.dead:
        parts.append(palette.paint("dead", BAD))
    elif hero.dying:
        parts.append(palette.paint("Dying", BAD))
    parts += hero.conditions
    return f"{palette.bold(hero.name)}: " + " · ".join(parts)


def headline(change: StateChange) -> str:
    if change.kind == "damage":
        return f"{change.amount} damage" + (" (crit)" if change.crit else "")
    if change.kind == "heal":  # at full HP, in the words a Field Rest at full HP is refused with
        full = change.before.hp >= change.before.hp_max
        return "at full HP: nothing to restore" if full else f"healed {change.hp_restored} HP"
    if change.kind == "rest field":
        return f"field rest: d{change.before.hit_die} [{', '.join(map(str, change.rolls))}]"
    if change.kind == "rest safe":
        return "safe rest"
    if change.kind == "wound":
        return f"{change.amount} Wound{'s' if change.amount != 1 else ''}"
    return ""  # conditions: the events say it all


def describe(change: StateChange, palette: Palette) -> str:
    if change.kind == "show":
        return show_text(change.after, palette)
    events = [e for e in change.events if not e.startswith("spent ")]
    serious = ("dead", "Dying:", "Dying (crit):")
    parts = [headline(change)] if headline(change) else []
    parts += [palette.paint(e, BAD if any(word in e for word in serious) else MIXED) for e in events]
    parts += [change_text(*c) for c in change.changes if c[0] != "conditions" or change.kind != "condition"]
    return " · ".join([*parts, status_text(change.after, palette)])


def attribute_text(hero: Hero, name: str) -> str:
    attribute = hero.attribute(name)
    rating = attribute.rating
    boons = f"{abs(rating)} {'Boon' if rating > 0 else 'Bane'}{'s' if abs(rating) != 1 else ''}" if rating else "±0"
    return f"{name} {attribute.modifier:+d} ({boons})"


def show_text(hero: Hero, palette: Palette) -> str:
    """The whole sheet, a few lines: attributes, saves, attack, the tracked values, conditions."""
    saves = ", ".join(filter(None, [f"advantaged {hero.advantaged_save}" if hero.advantaged_save else "",
                                    f"disadvantaged {hero.disadvantaged_save}" if hero.disadvantaged_save else ""]))
    attack = f"{hero.attack_count if hero.attack_count > 1 else ''}d{hero.attack_sides}"
    if hero.attack_attribute:
        attack += f" +{hero.attack_attribute} ({hero.attribute(hero.attack_attribute).modifier:+d})"
    lines = [
        f"{palette.bold(hero.name)} ({hero.rules} rules)",
        "  " + " · ".join(attribute_text(hero, name) for name in ATTRIBUTES),
        f"  saves: {saves or 'no advantaged or disadvantaged save'} · attack: {attack}",
        f"  Grit {hero.grit}/{GRIT_MAX} · HP {hero.hp}/{hero.hp_max} · Wounds {hero.wounds}/{hero.wound_cap}"
        f" · Hit Dice {hero.hit_dice}/{hero.hit_dice_max} (d{hero.hit_die})"
        + (" · " + palette.paint("dead", BAD) if hero.dead else "")
        + (" · " + palette.paint("Dying", BAD) if hero.dying and not hero.dead else ""),
    ]
    for condition in hero.conditions:
        lines.append(f"  {condition}: {CONDITION_EFFECTS[condition]}")
    return "\n".join(lines)


def hero_json(hero: Hero) -> dict[str, Any]:
    return {
        "name": hero.name, "rules": hero.rules,
        "attributes": {name: {"modifier": hero.attribute(name).modifier, "rating": hero.attribute(name).rating}
                       for name in ATTRIBUTES},
        "advantaged_save": hero.advantaged_save, "disadvantaged_save": hero.disadvantaged_save,
        "attack": {"count": hero.attack_count, "sides": hero.attack_sides, "attribute": hero.attack_attribute},
        "grit": hero.grit, "hp": hero.hp, "hp_max": hero.hp_max, "wounds": hero.wounds,
        "wound_cap": hero.wound_cap, "dying": hero.dying, "dead": hero.dead, "hit_dice": hero.hit_dice,
        "hit_dice_max": hero.hit_dice_max, "hit_die": hero.hit_die, "conditions": list(hero.conditions),
    }


def changes_json(before: Hero, after: Hero) -> dict[str, list[Any]]:
    change = StateChange("", before, after)
    return {name: [_plain(old), _plain(new)] for name, old, new in change.changes}


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def to_json(change: StateChange) -> dict[str, Any]:
    """`kind` is damage, heal, rest field, rest safe, condition or show (which adds the whole `hero`).

    The values after the change are in the answer's `sheet` field (`sheet_json`).
    """
    record: dict[str, Any] = {"kind": change.kind}
    if change.kind in ("damage", "wound"):
        record.update(amount=change.amount, crit=change.crit, wounds_gained=change.wounds_gained)
    elif change.kind == "heal":
        record.update(amount=change.amount, hp_restored=change.hp_restored)
    elif change.kind == "rest field":
        record.update(dice=list(change.rolls), hp_restored=change.hp_restored)
    if change.kind == "show":
        record["hero"] = hero_json(change.after)
    else:
        record.update(events=list(change.events), changes=changes_json(change.before, change.after))
    return record


def toolbar_status(hero: Hero) -> tuple[tuple[str, str], ...]:
    """Grit, HP (low at a quarter or less), Wounds, Dying and conditions, for the REPL's toolbar."""
    parts = [("key", "  Grit "), ("value", f"{hero.grit}/{GRIT_MAX}"),
             ("key", "  HP "), ("low" if hero.hp * 4 <= hero.hp_max else "value", f"{hero.hp}/{hero.hp_max}"),
             ("key", "  Wounds "), ("value", f"{hero.wounds}/{hero.wound_cap}")]
    if hero.dying or hero.dead:
        parts.append(("low", "  dead" if hero.dead else "  dying"))
    if hero.conditions:
        parts.append(("hint", "  " + ", ".join(hero.conditions)))
    return tuple(parts)


def sheet_suffix(answer: Any, palette: Palette) -> str:
    """After a roll on a sheet: `Wren: Grit 3 → 2`, or `Wren: Grit 3` when it did not change. Remembered by the
    update (the runner gives the same one while the hero stays as it was: a batch's lines on a sheet)."""
    update = answer.sheet
    if update is None or isinstance(answer.result, StateChange):
        return ""  # a sheet statement already says what it changed
    known = SUFFIXES.get(id(update))
    if known is not None and known[0] is update and known[1] is palette:
        return known[2]
    if len(SUFFIXES) >= KEPT_SUFFIXES:
        SUFFIXES.clear()
    suffix = made_suffix(update.before, update.after, palette)
    SUFFIXES[id(update)] = (update, palette, suffix)  # kept alive with it: its id names no other meanwhile
    return suffix


SUFFIXES: dict[int, tuple[Any, Palette, str]] = {}
KEPT_SUFFIXES = 256


def made_suffix(before: Hero, after: Hero, palette: Palette) -> str:
    grit = f"Grit {before.grit} → {after.grit}" if before.grit != after.grit else f"Grit {after.grit}"
    wounds = ""
    if after.wounds != before.wounds:  # a failed STR save while Dying (§9.3)
        wounds = " · " + palette.paint(f"failed STR save while Dying: Wounds {before.wounds} → {after.wounds}"
                                       + (" · dead" if after.dead else ""), "failure")
    return f"{palette.bold(after.name)}: {grit}{wounds}"


def sheet_json(answer_sheet: Any) -> dict[str, Any]:
    """The `sheet` field of an answer given with a sheet: its file, what changed, and the values after.

    Built field by field, not from `hero_json`: a batch on a sheet journals one at every line
    (tests/bench/bench_batch.py, sheet mix).
    """
    before, after = answer_sheet.before, answer_sheet.after
    return {"path": answer_sheet.path, "name": after.name,
            "changes": {} if before is after else changes_json(before, after),
            "grit": after.grit, "hp": after.hp, "hp_max": after.hp_max, "wounds": after.wounds,
            "wound_cap": after.wound_cap, "dying": after.dying, "dead": after.dead, "hit_dice": after.hit_dice,
            "conditions": list(after.conditions)}
