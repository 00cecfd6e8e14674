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
from crux_cli.core.grammar import Pattern, check_input, integer, not_understood, pp
from crux_cli.core.limits import MAX_NESTING
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES
from crux_cli.dice import syntax
from crux_cli.dice.scan import (
    BASE,
    COUNTDOWN_WORD,
    EXTREME_WORD,
    MODIFIER,
    POOL_KEEP_WORD,
    REPEAT,
    SHEET_VALUE_WORD,
    VERSUS_WORD,
    Against,
    _base_dice,
    _chain,
    _countdown,
    _dice_term,
    _extreme,
    _labelled,
    _modifier,
    _pool,
    _pool_keep,
    _repeat,
    _statement,
    _unary,
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
    pool_keep = pp.Regex(POOL_KEEP_WORD).set_parse_action(positioned(_pool_keep))
    pool = (pp.Suppress("{") + items + pp.Suppress("}") + pp.Optional(pool_keep.leave_whitespace()))
    pool.set_parse_action(positioned(_pool)).set_name("{")
    extreme = (pp.Regex(EXTREME_WORD) + items + pp.Suppress(")")).set_parse_action(
        positioned(_extreme)).set_name("min( or max(")
    sheet_value = pp.Regex(SHEET_VALUE_WORD).set_name("attribute").set_parse_action(
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
    countdown = pp.Regex(COUNTDOWN_WORD).set_parse_action(positioned(_countdown))
    # `vs` then a target or the other side (grammar/crux.ebnf, versus); `1d20+5 vs15` reads too
    versus = pp.Regex(VERSUS_WORD).set_name("vs")
    against = (pp.Suppress(versus) - expr).set_parse_action(lambda t: Against(t[0]))
    body = countdown - pp.StringEnd() | expr + pp.Optional(against)
    return (pp.Optional(roll) + pp.Optional(repeat) + body).set_parse_action(positioned(_statement))


# every spelling of an attribute starts with one of these: a text holding none names no attribute, and its tree
# is not walked to look for one (a batch of different dice lines reads each: tests/bench/bench_batch.py)
ATTRIBUTE_STEM = Pattern(r"(?is).*?(?:" + "|".join(sorted({name[:3] for name in ATTRIBUTE_NAMES})) + ")")


def parse(text: str, keyword: str = "") -> syntax.DiceStatement:
    """The syntax tree of one dice statement (`keyword` is its first word, unused: dice have none)."""
    check_input(text)
    if not text.strip():
        raise CruxError("the dice expression is empty", text=text, position=0, hint=HINT)
    tree = scan(text) if FAST_PATH else None
    if tree is None:
        tree = parsed(text)
    if not isinstance(tree, syntax.Countdown) and ATTRIBUTE_STEM.match(text) is not None and (
            syntax.names_attribute(tree.expr) or (
            isinstance(tree, syntax.Versus) and syntax.names_attribute(tree.against))):
        tree = tree.replace(reads_sheet=True)  # `1d20 + DEX`: the sheet's value is put in at each roll
    return tree


def parsed(text: str) -> syntax.DiceStatement:
    """The tree the pyparsing grammar reads (a statement the scanner left to it), or its refusal."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, PARSE_RECURSION_LIMIT))
    try:
        tree = grammar().parse_with_tabs().parse_string(text, parse_all=True)[0]  # positions as typed
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
