"""The words the session completes and colours, by rule set.

Statement words come from each rule-set module's KEYWORDS, so every rule set
completes; the words that may follow a statement word come from the module's
optional COMPLETIONS mapping (statement word -> words), with the Crux words
spelled here from the Crux grammar itself so they cannot drift from it. They
are gathered on first use, not at import, to keep the grammar out of start-up.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet


ATTRIBUTES = ("STR", "DEX", "INT", "WIL")
GLOBAL_STATEMENTS = ("odds", "roll")  # generic dice and exact odds belong to every rule set
SAVE_WORDS = ("adv", "dis", "vs rushed")
INIT_WORDS = ("ambush",)


@functools.cache
def conditions() -> tuple[str, ...]:
    """The conditions a sheet can carry (`cond add NAME`), and dying."""
    from crux_cli.rulesets.crux.hero import CONDITIONS

    return (*CONDITIONS, "dying")


@functools.cache
def modifiers() -> tuple[str, ...]:
    from crux_cli.rulesets.crux import grammar as crux

    return ("grit", "help", "boon", "boons", "bane", "banes", *crux.POSITIONS, *crux.EFFECTS)


@functools.cache
def attack_words() -> tuple[str, ...]:
    from crux_cli.rulesets.crux import grammar as crux

    return (*dict.fromkeys(crux.ARMOUR_WORDS), "resist", "vuln", "minion", "ranged", "melee", "rushed")


@functools.cache
def attribute_names() -> dict[str, str]:
    """Every spelling of an attribute (lower case) -> its short name."""
    from crux_cli.core.grammar import ATTRIBUTE_NAMES

    return ATTRIBUTE_NAMES


def statement_words(rules: RuleSet) -> list[str]:
    """First words of a statement: the rule set's keywords, short attributes in capitals."""
    names = attribute_names()
    words = {names[w] if w in names and len(w) == 3 else w for w in rules.keywords}
    return sorted(words | set(GLOBAL_STATEMENTS), key=str.lower)


def following_words(rules: RuleSet, keyword: str) -> tuple[str, ...] | None:
    """Words a rule set declares for after `keyword`, or None when it declares none."""
    table = getattr(rules, "COMPLETIONS", None)
    return None if table is None else tuple(table.get(keyword.lower(), ()))
