"""The grammar of sheet statements: `damage 9 crit`, `wound 1`, `heal 4`, `rest field 2`, `rest safe`,
`cond add frightened`, `cond remove prone`, `show`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crux_cli.rulesets.crux import sheet_syntax as syntax  # loaded only when a sheet statement is read

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import keyword, not_understood, number, parse_with, pp, tagged

DAMAGE_WORDS = ("damage", "dmg")
WOUND_WORDS = ("wound",)
HEAL_WORDS = ("heal",)
REST_WORDS = ("rest",)
CONDITION_WORDS = ("cond", "condition", "conditions")
SHOW_WORDS = ("show",)
KEYWORDS = frozenset(DAMAGE_WORDS + WOUND_WORDS + HEAL_WORDS + REST_WORDS + CONDITION_WORDS + SHOW_WORDS)

HINTS = {
    "damage": "write damage N, or damage N crit for a critical hit",
    "wound": "write wound N: Wounds given straight (a failed STR save while Dying is 1)",
    "heal": "write heal N: the HP restored",
    "rest": "write rest field N (spend N Hit Dice) or rest safe",
    "cond": "write cond add NAME or cond remove NAME (prone, grappled, restrained, blinded, frightened, "
            "dazed, dying)",
    "show": "show takes nothing: it prints the sheet",
}


@functools.cache
def _grammars() -> dict[str, pp.ParserElement]:
    amount = tagged(number(), "amount")
    field_rest = tagged(keyword("field", "short"), "rest") + pp.Optional(tagged(number(), "hit dice"))
    safe_rest = tagged(keyword("safe", "long"), "rest")
    action = tagged(keyword("add") | keyword("remove", "rm", "del", "drop"), "action")
    name = tagged(pp.Regex(r"[A-Za-z][A-Za-z_-]*").set_name("condition"), "name")
    return {
        "damage": keyword(*DAMAGE_WORDS).suppress() - amount + pp.Optional(tagged(keyword("crit", "critical"),
                                                                                   "crit")),
        "wound": keyword(*WOUND_WORDS).suppress() - amount,
        "heal": keyword(*HEAL_WORDS).suppress() - amount,
        "rest": keyword(*REST_WORDS).suppress() - (field_rest | safe_rest),
        "cond": keyword(*CONDITION_WORDS).suppress() - action - pp.OneOrMore(name),
        "show": keyword(*SHOW_WORDS).suppress(),
    }


def statement_kind(word: str) -> str:
    word = word.lower()
    for kind, words in (("damage", DAMAGE_WORDS), ("wound", WOUND_WORDS), ("heal", HEAL_WORDS), ("rest", REST_WORDS),
                        ("cond", CONDITION_WORDS)):
        if word in words:
            return kind
    return "show"


def _value(words: list[Any], tag: str, default: Any = None) -> Any:
    return next((value for t, value, _ in words if t == tag), default)


def fold(kind: str, words: list[Any], text: str) -> syntax.SheetStatement:
    from crux_cli.rulesets.crux import sheet_syntax as syntax

    if kind == "damage":
        return syntax.Damage(_value(words, "amount"), _value(words, "crit") is not None)
    if kind == "wound":
        return syntax.Wound(_value(words, "amount"))
    if kind == "heal":
        return syntax.Heal(_value(words, "amount"))
    if kind == "rest":
        rest = _value(words, "rest")
        return syntax.Rest(rest, _value(words, "hit dice", 1) if rest == "field" else 0)
    if kind == "cond":
        return syntax.Condition(_value(words, "action"), _condition_names(words, text))
    return syntax.Show()


def _condition_names(words: list[Any], text: str) -> tuple[str, ...]:
    from crux_cli.rulesets.crux.wounds import condition_name

    names: list[str] = []
    for tag, value, loc in words:
        if tag != "name":
            continue
        try:
            name = condition_name(value)
        except CruxError as error:
            raise error.at(text, loc) from None
        if name not in names:
            names.append(name)
    return tuple(names)


def parse(text: str, word: str) -> syntax.SheetStatement:
    """Parse a sheet statement whose first word is `word` (one of KEYWORDS)."""
    kind = statement_kind(word)
    grammar = _grammars()[kind]
    words = parse_with(grammar, text, lambda s, loc: not_understood(s, loc, f"'{kind}'", HINTS[kind], grammar))
    return fold(kind, words, text)
