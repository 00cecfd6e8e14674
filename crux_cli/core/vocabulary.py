"""The words and numbers several parts of crux must agree on, each spelled once.

Attributes and their spellings (the Crux grammar, the sheet, completion), armour
words (the Crux grammar, fights, completion), countdown sizes (the dice grammar,
engine and odds, the REPL's /countdown) and the limits of a character sheet (the
sheet reader and `crux sheet new`). Import from here rather than copying a list.
"""

from __future__ import annotations

import re

from crux_cli.core.errors import CruxError

ATTRIBUTES = ("STR", "DEX", "INT", "WIL")
ATTRIBUTE_NAMES = {  # every spelling (lower case) -> the short name
    "str": "STR", "strength": "STR",
    "dex": "DEX", "dexterity": "DEX",
    "int": "INT", "intelligence": "INT",
    "wil": "WIL", "will": "WIL",
}
ATTRIBUTE_HINT = "the attributes are STR, DEX, INT and WIL (or strength, dexterity, intelligence, will)"

# Seed §10.3, as kept in a sheet's `conditions`; Dying is the hero's own `dying` flag. Here rather than
# with the hero, so the words coloured while typing do not wait for the hero to load.
CONDITIONS = ("prone", "grappled", "restrained", "blinded", "frightened", "dazed")

ARMOUR_WORDS = {"unarmoured": "unarmoured", "unarmored": "unarmoured", "medium": "medium", "heavy": "heavy"}

COUNTDOWN_SIZES = (4, 6, 8, 10, 12, 20)  # a 1 shrinks a countdown die to the size before it
COUNTDOWN_HINT = "countdown dice are " + ", ".join(f"Cd{n}" for n in COUNTDOWN_SIZES)

# What a character sheet may hold (its reader refuses anything outside these).
RATING_RANGE = (-3, 3)
MODIFIER_RANGE = (-10, 20)
MAX_HP = 100_000
MAX_HIT_DICE = 100
MAX_WOUND_CAP = 6  # seed §9.2: "6 Wounds = death (or a lower cap for a grittier game)": only lowered


def canonical_attribute(name: str) -> str | None:
    """`dex`, `Dex` and `dexterity` all mean DEX; None for anything else."""
    return ATTRIBUTE_NAMES.get(name.strip().lower())


def attribute_spec(spec: str) -> tuple[str, int, int]:
    """`STR=+2/1` → (STR, modifier +2, Boon/Bane rating +1) (`DEX=1` sets the modifier only), as `crux sheet new
    --attr` takes it; a CruxError says what is wrong."""
    match = re.fullmatch(r"\s*([A-Za-z]+)\s*=\s*([+-]?\d{1,9})\s*(?:/\s*([+-]?\d{1,9}))?\s*", spec)
    hint = "write ATTR=MODIFIER/RATING, like STR=+2/1 or DEX=-1/0"
    if not match:
        raise CruxError(f"cannot read the attribute {spec!r}", hint=hint)
    name = canonical_attribute(match.group(1))
    if name is None:
        raise CruxError(f"unknown attribute {match.group(1)!r}", hint="attributes: " + ", ".join(ATTRIBUTES))
    modifier, rating = int(match.group(2)), int(match.group(3) or 0)
    if not MODIFIER_RANGE[0] <= modifier <= MODIFIER_RANGE[1]:
        low, high = MODIFIER_RANGE
        raise CruxError(f"{name}'s modifier {modifier:+d} is outside {low}..{high:+d}", hint=hint)
    if not RATING_RANGE[0] <= rating <= RATING_RANGE[1]:
        raise CruxError(f"{name}'s Boon/Bane rating {rating:+d} is outside -3..+3", hint=hint)
    return name, modifier, rating


# The JSON words every rule set shares, so a script reads one idea by one name whatever `--rules` says
# (the schemas in crux_cli/data/schema/ hold every rule set to them).
ARMOR_KEY = "armor"  # the armour an attack met: crux's category word, stepdice's and d20check's number


def grit_json(spent: int, gained: int, *, before: int | None = None, after: int | None = None,
              **more: object) -> dict[str, object]:
    """A roll's `grit` object in every rule set: Grit `spent` (paid, marked or lost to damage) and `gained`
    (earned or given back), with the Grit `before` and `after` when the statement knows them, then what
    a rule set adds (challenge: `net`, `options`)."""
    record: dict[str, object] = {"spent": spent, "gained": gained}
    if before is not None:
        record["before"] = before
    if after is not None:
        record["after"] = after
    record.update(more)
    return record
