"""The grammar of generic dice expressions (crux-notation(7) DICE EXPRESSIONS; grammar/crux.ebnf, grammar/dice.md).

Arithmetic is written as linear precedence levels (sum → product → unary →
labelled → atom, with a Forward only for parentheses) rather than with
`pp.infix_notation`, which is slow and nests Python frames per operator. Parse
actions build the frozen tree of `dice_ast` directly and refuse what breaks a
limit (dice, sides, integers, sign runs) at the position of the offending word,
before anything is rolled. The words and actions the scanner reads too (dice terms, their modifiers,
sums and products, the statement) are scan.py's, which this module imports.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any, cast

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import check_input, integer, not_understood, pp
from crux_cli.core.limits import MAX_NESTING
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES, COUNTDOWN_HINT, COUNTDOWN_SIZES
from crux_cli.dice import syntax
from crux_cli.dice.scan import (
    BASE,
    MODIFIER,
    REPEAT,
    Against,
    _base_dice,
    _chain,
    _dice_term,
    _modifier,
    _repeat,
    _statement,
    scan,
)

HINT = ("dice look like 2d6+1, 4d6kh3, d20!, 3d6>=5 or (2d4+1)*3; "
        "statements start with a word such as DEX, save, init or atk")
FAST_PATH = True  # plain statements are read by scan.py; tests turn it off to compare with the grammar
# pyparsing spends about 20 frames per level of parentheses: 32 levels take ~700 of Python's default
# 1,000, too close once a REPL is already deep in the stack. The input check bounds the depth, so a
# fixed ceiling during the parse is safe; a RecursionError is still caught below.
PARSE_RECURSION_LIMIT = 3_000


def positioned(action: Any) -> Any:
    """A parse action given the token's own start: pyparsing may pass where the whitespace before began."""

    def at_token(s: str, loc: int, toks: pp.ParseResults) -> Any:
        while loc < len(s) and s[loc] in " \t":
            loc += 1
        return action(s, loc, toks)

    return at_token


# -- arithmetic ------------------------------------------------------------------------------------

class PoolKeep:
    """The keep or drop written after a grouped roll's `}`, until the pool is built."""

    __slots__ = ("count", "loc", "word")

    def __init__(self, word: str, count: int, loc: int) -> None:
        self.word, self.count, self.loc = word, count, loc


def _pool_keep(s: str, loc: int, toks: pp.ParseResults) -> PoolKeep:
    word = toks["keep"].lower()
    return PoolKeep("kh" if word == "k" else word, integer(toks["n"], s, loc) if toks.get("n") else 1, loc)


def _pool(s: str, loc: int, toks: pp.ParseResults) -> syntax.Pool:
    """`{A, B, C}` with an optional keep or drop of whole items."""
    items = list(toks)
    keep = items.pop() if items and isinstance(items[-1], PoolKeep) else None
    _check_items(items, s, loc)
    if keep is None:
        return syntax.Pool(tuple(items), pos=loc)
    return syntax.Pool(tuple(items), keep.word, keep.count, loc)


def _extreme(s: str, loc: int, toks: pp.ParseResults) -> syntax.Pool:
    """`min(A, B)`, `max(A, B)`: the lowest or highest item."""
    word, *items = toks
    _check_items(items, s, loc)
    return syntax.Pool(tuple(items), word[:3].lower(), 1, loc)


MAX_ITEMS = 100  # items of one grouped roll or min/max: each is worked out on its own for the odds


def _check_items(items: list[Any], s: str, loc: int) -> None:
    if len(items) > MAX_ITEMS:
        raise LimitError(f"{len(items):,} items in one group is more than {MAX_ITEMS} (the limit)", text=s,
                         position=loc, hint="group fewer rolls, or repeat one: 6x 4d6kh3")


def _unary(s: str, loc: int, toks: pp.ParseResults) -> syntax.Expr:
    if len(toks) == 1:
        return cast(syntax.Expr, toks[0])
    signs, operand = toks
    signs = signs.replace(" ", "").replace("\t", "")
    if len(signs) > MAX_NESTING:
        raise LimitError(f"{len(signs)} signs in a row is more than {MAX_NESTING} (the nesting limit)",
                         text=s, position=loc)
    return syntax.Negate(operand, loc) if signs.count("-") % 2 else operand


def _labelled(s: str, loc: int, toks: pp.ParseResults) -> syntax.Expr:
    if len(toks) == 1:
        return cast(syntax.Expr, toks[0])
    expr, label = toks
    return syntax.Labelled(expr, " ".join(label[1:-1].split()), loc)


def _countdown(s: str, loc: int, toks: pp.ParseResults) -> syntax.Countdown:
    sides = integer(toks["sides"], s, loc)
    if sides not in COUNTDOWN_SIZES:
        raise CruxError(f"there is no countdown die Cd{sides}", text=s, position=loc,
                        hint=COUNTDOWN_HINT)
    return syntax.Countdown(sides, pos=loc)


STANCES = {"adv": "kh1", "advantage": "kh1", "dis": "kl1", "disadvantage": "kl1"}


def advantage_hint(text: str, position: int | None) -> str | None:
    """`1d20+3 adv vs 15`: dice take no adv or dis word (a Crux save does); advantage is written as the dice it
    rolls, two d20 keeping the higher: the statement as it would read so, when it has one d20 to double."""
    if position is None:
        return None
    word = re.match(r"[A-Za-z]+", text[position:])
    keep = STANCES.get(word.group(0).lower()) if word else None
    if word is None or keep is None:
        return None
    rest = (text[:position].rstrip() + " " + text[position + word.end():].lstrip()).strip()
    d20 = list(re.finditer(r"(?<![0-9A-Za-z])1?[dD]20(?![0-9A-Za-z!])", rest))
    if len(d20) != 1:
        return f"dice take no {word.group(0)}: roll two dice and keep one, e.g. 2d20{keep}+3 vs 15"
    written = rest[:d20[0].start()] + f"2d20{keep}" + rest[d20[0].end():]
    return f"dice take no {word.group(0)}: {'advantage' if keep == 'kh1' else 'disadvantage'} is two d20 " \
           f"keeping the {'higher' if keep == 'kh1' else 'lower'}: {written}"


@functools.cache
def grammar() -> pp.ParserElement:
    number = pp.Regex(r"[0-9]+").set_name("number").set_parse_action(positioned(
        lambda s, loc, t: syntax.Number(integer(t[0], s, loc), loc)))
    base = pp.Regex(BASE).set_name("dice")
    base.set_parse_action(positioned(_base_dice))
    modifier = pp.Regex(MODIFIER, flags=re.IGNORECASE).set_name("modifier")
    modifier.set_parse_action(positioned(_modifier)).leave_whitespace()  # 4d6kh3, not 4d6 kh3
    dice = (base + pp.ZeroOrMore(modifier)).set_parse_action(positioned(_dice_term)).set_name("dice")

    expr = pp.Forward()
    expr.set_name("expression")
    group = (pp.Suppress("(") + expr + pp.Suppress(")")).set_parse_action(positioned(
        lambda s, loc, t: syntax.Group(t[0], loc)))
    items = pp.DelimitedList(expr, ",")
    pool_keep = pp.Regex(r"(?i)(?P<keep>kh|kl|dh|dl|k)(?P<n>[0-9]+)?").set_parse_action(positioned(_pool_keep))
    pool = (pp.Suppress("{") + items + pp.Suppress("}") + pp.Optional(pool_keep.leave_whitespace()))
    pool.set_parse_action(positioned(_pool)).set_name("{")
    extreme = (pp.Regex(r"(?i)(?:min|max)[ \t]*\(") + items + pp.Suppress(")")).set_parse_action(
        positioned(_extreme)).set_name("min( or max(")
    spellings = "|".join(sorted(ATTRIBUTE_NAMES, key=len, reverse=True))
    sheet_value = pp.Regex(rf"(?i)(?:{spellings})(?![A-Za-z0-9_])").set_name("attribute").set_parse_action(
        positioned(lambda s, loc, t: syntax.SheetValue(ATTRIBUTE_NAMES[t[0].lower()], loc)))
    atom = (dice | number | group | pool | extreme | sheet_value).set_name("dice, a number or (")
    label = pp.Regex(r"\[[^\[\]]*\]").set_name("label")
    labelled = (atom + pp.Optional(label)).set_parse_action(positioned(_labelled))
    unary = (pp.Optional(pp.Regex(r"[+-](?:[ \t]*[+-])*")) + labelled).set_parse_action(positioned(_unary))
    product = (unary + pp.ZeroOrMore(pp.one_of("* /") - unary)).set_parse_action(positioned(_chain(syntax.Product)))
    expr <<= (product + pp.ZeroOrMore(pp.one_of("+ -") - product)).set_parse_action(positioned(_chain(syntax.Sum)))

    roll = pp.Suppress(pp.CaselessKeyword("roll"))
    repeat = pp.Regex(REPEAT)
    repeat.set_parse_action(positioned(_repeat))
    countdown = pp.Regex(r"[cC][dD](?P<sides>[0-9]+)").set_parse_action(positioned(_countdown))
    # `vs` then a target or the other side (grammar/crux.ebnf, versus); `1d20+5 vs15` reads too
    versus = pp.Regex(r"[vV][sS](?![A-Za-z_])").set_name("vs")
    against = (pp.Suppress(versus) - expr).set_parse_action(lambda t: Against(t[0]))
    body = countdown - pp.StringEnd() | expr + pp.Optional(against)
    return (pp.Optional(roll) + pp.Optional(repeat) + body).set_parse_action(positioned(_statement))


def parse(text: str, keyword: str = "") -> syntax.DiceStatement:
    """The syntax tree of one dice statement (`keyword` is its first word, unused: dice have none)."""
    check_input(text)
    if not text.strip():
        raise CruxError("the dice expression is empty", text=text, position=0, hint=HINT)
    if FAST_PATH:
        tree: syntax.DiceStatement | None = scan(text)
        if tree is not None:
            return tree
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, PARSE_RECURSION_LIMIT))
    try:
        tree = grammar().parse_with_tabs().parse_string(text, parse_all=True)[0]  # positions as typed
        if not isinstance(tree, syntax.Countdown) and (syntax.names_attribute(tree.expr) or (
                isinstance(tree, syntax.Versus) and syntax.names_attribute(tree.against))):
            tree = tree.replace(reads_sheet=True)  # `1d20 + DEX`: the sheet's value is put in at each roll
        return cast(syntax.DiceStatement, tree)
    except pp.ParseBaseException as failure:
        refusal = not_understood(text, failure.loc, "a dice expression", HINT)
        raise refusal.with_hint(advantage_hint(text, refusal.position) or HINT) from None
    except RecursionError:
        raise LimitError("the expression nests too deeply to read", text=text,
                         hint=f"use at most {MAX_NESTING} levels of parentheses") from None
    except CruxError as error:
        raise error.at(text) from None
    finally:
        sys.setrecursionlimit(limit)
