"""Reading one statement: the input check, then the grammar its first word calls for."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import Pattern, check_input, typographic
from crux_cli.rulesets import dice_handler

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

FIRST_WORD = re.compile(r"\s*([A-Za-z_]+)")


def first_word(text: str) -> str:
    """The leading run of letters, lower-cased ('' when the statement starts otherwise)."""
    match = FIRST_WORD.match(text)
    return match.group(1).lower() if match else ""


# `roll`, or dice written first: d6, d%, dF, Cd8, min(, max(
# (a statement starting with a digit, sign, `(` or `{` has no word)
# (compiled when a statement first starts with a word no rule set knows: most never do)
DICE_START = Pattern(r"(?i)\s*(?:roll(?![A-Za-z0-9_])|[dD][0-9%fF]|[cC][dD][0-9]|(?:min|max)\s*\()")


def is_dice(text: str, word: str, rules: RuleSet) -> bool:
    """Read as a dice expression (crux-notation(7) DICE EXPRESSIONS) rather than a statement of the rule set?"""
    return word not in rules.keywords and (word == "" or DICE_START.match(text) is not None)


# Syntax trees are immutable and a statement's tree depends only on its text and rule set, so a batch
# that repeats a few dozen statements parses each once. Bounded, so a million different lines stay flat.
CACHE_SIZE = 1024  # as many as a runner knows (MAX_KNOWN): each tree keeps what its memos worked out (core.memo)
_cache: OrderedDict[tuple[str, str], tuple[RuleSet | None, RuleSet, Any]] = OrderedDict()


def clear_cache() -> None:
    """Forget every statement read (benchmarks time what one command does)."""
    _cache.clear()


def read(text: str, rules: RuleSet | Callable[[], RuleSet], keep: bool = True) -> tuple[RuleSet, Any]:
    """The handler that answers one statement (the rule set, or generic dice) and its syntax tree.

    `rules` may be a function giving the rule set: a statement that starts with no word (a
    number, a sign, a bracket: `4d6kh3`) is generic dice in every rule set, so it is never asked.
    `keep=False`: a tree the cache holds is given, but one read now is not added (a runner's statement read once:
    PERFORMANCE.md, "A line met once is kept by nothing").
    """
    if CACHE_SIZE <= 0:
        return read_uncached(text, rules)
    # Keyed on the resolved rule set's name; a statement with no word reads the same in every rule set.
    word = first_word(text)
    if word == TABLE and TABLE not in (rules() if callable(rules) else rules).keywords:
        return read_table(text)  # never cached: the file may change between two reads
    active = (rules() if callable(rules) else rules) if word else None
    key = (active.name if active is not None else "", text)
    hit = _cache.get(key)
    if hit is not None and hit[0] is active:
        _cache.move_to_end(key)
        return hit[1], hit[2]
    handler, statement = _read(text, word, rules if active is None else active)
    if not keep:
        return handler, statement
    _cache[key] = (active, handler, statement)
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return handler, statement


def read_uncached(text: str, rules: RuleSet | Callable[[], RuleSet]) -> tuple[RuleSet, Any]:
    """`read` without the cache: the input check and the grammar, every time."""
    word = first_word(text)
    if word == TABLE and TABLE not in (rules() if callable(rules) else rules).keywords:
        return read_table(text)
    return _read(text, word, rules)


TABLE = "table"  # `table loot`: a random table (state/tables.py), in every rule set that does not use the word


def read_table(text: str, sheet: str | None = None) -> tuple[RuleSet, Any]:
    """`table NAME`: the table read from its file (and the campaign folder of `sheet`, when one is loaded)."""
    from crux_cli.dice.tables import TABLE as TABLES
    from crux_cli.state.tables import read_statement

    check_input(text)
    try:
        return TABLES, read_statement(text, sheet)
    except CruxError as error:
        raise error.at(text) from None


def _read(text: str, word: str, rules: RuleSet | Callable[[], RuleSet]) -> tuple[RuleSet, Any]:
    """`read_uncached` of a statement whose first word is known (what `typographic` changes is never a letter)."""
    check_input(text)
    text = typographic(text)  # − and × pasted from crux's own output read as - and *
    if not text.strip():
        raise CruxError("the statement is empty", text=text, position=0,
                        hint="try 'DEX +1b', 'save WIL adv', 'atk 2d8+3', '4d6kh3' or 'crux --help'")
    if not word:
        return dice(text, word)
    active = rules() if callable(rules) else rules
    if word in active.keywords:
        return active, active.parse(text, word)
    if is_dice(text, word, active):
        return dice(text, word)
    raise unknown_statement(text, word, active)


def dice(text: str, word: str) -> tuple[RuleSet, Any]:
    handler = dice_handler()  # imported once: an import statement here would cost a microsecond a dice line
    return handler, handler.parse(text, word)


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
