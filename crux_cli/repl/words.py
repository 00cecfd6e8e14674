"""The words the session completes and colours, by rule set.

Statement words come from each rule-set module's KEYWORDS, so every rule set
completes; the words that may follow a statement word come from the module's
optional COMPLETIONS mapping (statement word -> words), with the Crux words
spelled here from the Crux grammar itself so they cannot drift from it.
"""

from __future__ import annotations

from types import ModuleType

from crux_cli.notation import crux as crux_notation
from crux_cli.notation.base import ATTRIBUTE_NAMES

ATTRIBUTES = ("STR", "DEX", "INT", "WIL")
CONDITIONS = ("prone", "grappled", "restrained", "blinded", "frightened", "dazed", "dying")
GLOBAL_STATEMENTS = ("odds", "roll")  # generic dice and exact odds belong to every rule set

MODIFIERS = ("grit", "help", "boon", "boons", "bane", "banes",
             *crux_notation.POSITIONS, *crux_notation.EFFECTS)
SAVE_WORDS = ("adv", "dis", "vs rushed")
INIT_WORDS = ("ambush",)
ATTACK_WORDS = (*dict.fromkeys(crux_notation.ARMOUR_WORDS), "resist", "vuln", "minion", "ranged", "melee",
                "rushed")


def statement_words(rules: ModuleType) -> list[str]:
    """First words of a statement: the rule set's keywords, short attributes in capitals."""
    words = {ATTRIBUTE_NAMES[w] if w in ATTRIBUTE_NAMES and len(w) == 3 else w for w in rules.KEYWORDS}
    return sorted(words | set(GLOBAL_STATEMENTS), key=str.lower)


def following_words(rules: ModuleType, keyword: str) -> tuple[str, ...] | None:
    """Words a rule set declares for after `keyword`, or None when it declares none."""
    table = getattr(rules, "COMPLETIONS", None)
    return None if table is None else tuple(table.get(keyword.lower(), ()))
