"""The grammar of sheet statements: `damage 9 crit`, `wound 1`, `heal 4`, `rest field 2`, `rest safe`,
`cond add frightened`, `cond remove prone`, `show`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crux_cli.rulesets.crux import sheet_syntax as syntax  # loaded only when a sheet statement is read

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import Pattern, keyword, not_understood, number, parse_with, pp, tagged
from crux_cli.core.grammar_parts import Word, plain_number, plain_pieces

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
    words = scan(kind, text) if FAST_PATH else None
    if words is None:
        grammar = _grammars()[kind]
        words = parse_with(grammar, text, lambda s, loc: not_understood(s, loc, f"'{kind}'", HINTS[kind], grammar))
    return fold(kind, words, text)


# -- the fast path: a plain sheet statement read without pyparsing, word for word as the grammar reads it,
# or not at all (core/grammar_parts.py, "fast paths"; tests/test_scan_fast_path.py) ---------------------

FAST_PATH = True  # tests turn it off to compare the scanner with the grammar
REST_KINDS = {"field": "field", "short": "field", "safe": "safe", "long": "safe"}
ACTIONS = {"add": "add", "remove": "remove", "rm": "remove", "del": "remove", "drop": "remove"}
CONDITION_NAME = Pattern(r"[A-Za-z][A-Za-z_-]*")


def scan(kind: str, text: str) -> list[Word] | None:
    """The tagged words of a plain sheet statement of `kind`, or None for the grammar to read."""
    try:
        pieces = plain_pieces(text)
        if pieces is None or statement_kind(pieces[0][0]) != kind or pieces[0][0].lower() not in KEYWORDS:
            return None
        rest = [(piece.lower(), piece, loc) for piece, loc in pieces[1:]]
        return _scanned(kind, rest, text)
    except CruxError:  # a number over the limit: the grammar words it
        return None


def _scanned(kind: str, rest: list[tuple[str, str, int]], text: str) -> list[Word] | None:
    if kind == "show":
        return None if rest else []
    if kind in ("damage", "wound", "heal"):
        amount = plain_number(rest[0][1], text, rest[0][2]) if rest else None
        if amount is None or len(rest) > (2 if kind == "damage" else 1):
            return None
        words: list[Word] = [("amount", amount, rest[0][2])]
        if len(rest) == 2 and rest[1][0] not in ("crit", "critical"):
            return None
        return [*words, ("crit", "crit", rest[1][2])] if len(rest) == 2 else words
    if not rest:
        return None
    if kind == "rest":
        rest_kind = REST_KINDS.get(rest[0][0])
        if rest_kind is None or len(rest) > (2 if rest_kind == "field" else 1):
            return None
        dice = plain_number(rest[1][1], text, rest[1][2]) if len(rest) == 2 else None
        if len(rest) == 2 and dice is None:
            return None
        return [("rest", rest_kind, rest[0][2])] + ([("hit dice", dice, rest[1][2])] if dice is not None else [])
    action = ACTIONS.get(rest[0][0])
    if action is None or len(rest) < 2 or not all(CONDITION_NAME.fullmatch(piece) for _, piece, _ in rest[1:]):
        return None
    return [("action", action, rest[0][2])] + [("name", piece, loc) for _, piece, loc in rest[1:]]
