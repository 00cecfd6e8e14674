"""Reading one statement: the input check, then the grammar its first word calls for."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import check_input, typographic

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

FIRST_WORD = re.compile(r"\s*([A-Za-z_]+)")


def first_word(text: str) -> str:
    """The leading run of letters, lower-cased ('' when the statement starts otherwise)."""
    match = FIRST_WORD.match(text)
    return match.group(1).lower() if match else ""


# `roll`, or dice written first: d6, d%, dF, Cd8 (a statement starting with a digit, sign or `(` has no word)
DICE_START = re.compile(r"\s*(?:roll(?![A-Za-z0-9_])|[dD][0-9%fF]|[cC][dD][0-9])", re.IGNORECASE)


def is_dice(text: str, word: str, rules: RuleSet) -> bool:
    """Read as a dice expression (NOTATION §2) rather than a statement of the rule set?"""
    return word not in rules.keywords and (word == "" or DICE_START.match(text) is not None)


def read(text: str, rules: RuleSet | Callable[[], RuleSet]) -> tuple[RuleSet, Any]:
    """The handler that answers one statement (the rule set, or generic dice) and its syntax tree.

    `rules` may be a function giving the rule set: a statement that starts with no word (a
    number, a sign, a bracket: `4d6kh3`) is generic dice in every rule set, so it is never asked.
    """
    check_input(text)
    text = typographic(text)  # − and × pasted from crux's own output read as - and *
    if not text.strip():
        raise CruxError("the statement is empty", text=text, position=0,
                        hint="try 'DEX +1b', 'save WIL adv', 'atk 2d8+3', '4d6kh3' or 'crux --help'")
    word = first_word(text)
    if not word:
        return dice(text, word)
    active = rules() if callable(rules) else rules
    if word in active.keywords:
        return active, active.parse(text, word)
    if is_dice(text, word, active):
        return dice(text, word)
    raise unknown_statement(text, word, active)


def dice(text: str, word: str) -> tuple[RuleSet, Any]:
    from crux_cli.dice.handler import DICE

    return DICE, DICE.parse(text, word)


def parse_statement(text: str, rules: RuleSet) -> Any:
    """The syntax tree of one statement in the rule set `rules` (dice expressions included)."""
    return read(text, rules)[1]


def unknown_statement(text: str, word: str, rules: RuleSet) -> CruxError:
    import difflib

    start = len(text) - len(text.lstrip())
    if not word:
        return CruxError("a statement starts with a word such as DEX, save, init or atk", text=text,
                         position=start)
    close = difflib.get_close_matches(word, sorted(rules.keywords), n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else f"{rules.name} statements start with: " + ", ".join(
        sorted(w for w in rules.keywords if len(w) <= 6))
    return CruxError(f"'{text.split()[0]}' is not a statement or attribute of the {rules.name} rules",
                     text=text, position=start, hint=hint)
