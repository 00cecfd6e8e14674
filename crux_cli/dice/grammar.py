"""The grammar of generic dice expressions (crux-notation(7) DICE EXPRESSIONS; grammar/crux.ebnf, grammar/dice.md).

Arithmetic is written as linear precedence levels (sum → product → unary →
labelled → atom, with a Forward only for parentheses) rather than with
`pp.infix_notation`, which is slow and nests Python frames per operator. Parse
actions build the frozen tree of `dice_ast` directly and refuse what breaks a
limit (dice, sides, integers, sign runs) at the position of the offending word,
before anything is rolled.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from typing import Any, cast

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import check_input, integer, not_understood, pp
from crux_cli.core.limits import MAX_DICE, MAX_NESTING, MAX_REPEAT, MAX_SIDES, rolling
from crux_cli.core.ruleset import lazy
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES, COUNTDOWN_HINT, COUNTDOWN_SIZES
from crux_cli.dice import syntax

HINT = ("dice look like 2d6+1, 4d6kh3, d20!, 3d6>=5 or (2d4+1)*3; "
        "statements start with a word such as DEX, save, init or atk")
COMPARE = r"(?:>=|<=|>|<|=)"
# the tokens scan.py shares with the grammar
BASE = r"(?P<count>[0-9]+)?[dD](?P<sides>[0-9]+|%|[fF])"
MODIFIER = (r"(?P<keep>kh|kl|dh|dl|k)(?P<n>[0-9]+)?"  # matched case-insensitively
            rf"|(?P<reroll>rr|ro)(?P<rop>{COMPARE})?(?P<rv>[0-9]+)"
            rf"|(?P<bang>!!|!)(?:(?P<eop>{COMPARE})(?P<ev>[0-9]+))?"
            rf"|(?P<sop>{COMPARE})(?P<sv>[0-9]+)"
            r"|(?P<sort>s)")  # show the dice in order of face
REPEAT = r"(?P<times>[0-9]+)[xX](?=[ \t0-9(+\-]|[dD][0-9%fF]|[cC][dD][0-9]|$)"
FAST_PATH = True  # plain statements are read by scan.py; tests turn it off to compare with the grammar
_scan = lazy("crux_cli.dice.scan", "scan")  # imported at the first statement (scan.py imports this module)
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


# -- limits, checked where the number was written -------------------------------------------------

def dice_count(value: str, per_die: int, text: str, loc: int) -> int:
    count = integer(value, text, loc) if value else 1
    if count * per_die > MAX_DICE and rolling("dice"):
        raise LimitError(f"{count:,} dice is more than {MAX_DICE:,}, the limit of dice rolled per statement",
                         text=text, position=loc, hint="roll fewer dice, or split the roll into several statements")
    return count


def die_sides(value: str, text: str, loc: int) -> int:
    sides = integer(value, text, loc)
    if sides > MAX_SIDES and rolling("sides"):
        raise LimitError(f"a d{sides:,} has more than {MAX_SIDES:,} sides, the limit for a die",
                         text=text, position=loc)
    if sides > MAX_SIDES:  # counted, not rolled (odds): held to what the odds may hold, before its faces are read
        from crux_cli.probability.generic import check_table

        try:
            check_table(sides)
        except CruxError as error:
            raise error.at(text, loc) from None
    if sides < 1:
        raise CruxError("a die has at least one side", text=text, position=loc, hint="try d6, d20 or d100")
    return sides


def compare(op: str | None, value: str, text: str, loc: int) -> syntax.Compare:
    return syntax.Compare(op or "=", integer(value, text, loc))


# -- dice terms ------------------------------------------------------------------------------------

def _base_dice(s: str, loc: int, toks: pp.ParseResults) -> syntax.BaseDice:
    sides, count = toks["sides"], toks.get("count", "")
    if sides in ("f", "F"):
        return syntax.Fudge(dice_count(count, 1, s, loc), loc)
    if sides == "%":
        return syntax.Dice(dice_count(count, 1, s, loc), 100, loc)
    faces = die_sides(sides, s, loc + len(count or "") + 1)  # just past the d (BASE: digits, d, sides)
    if faces == 66:  # d66 is tens and ones, however the 66 is written (d066 too)
        return syntax.D66(dice_count(count, 2, s, loc), loc)
    return syntax.Dice(dice_count(count, 1, s, loc), faces, loc)


def _modifier(s: str, loc: int, toks: pp.ParseResults) -> tuple[str, Any, int]:
    """One modifier word as (stage, fields, loc); the term's action puts them in order."""
    if toks.get("keep"):
        word = toks["keep"].lower()
        count = integer(toks["n"], s, loc) if toks.get("n") else 1
        return ("keep", (word, count), loc)
    if toks.get("reroll"):
        return ("reroll", (toks["reroll"].lower() == "ro", compare(toks.get("rop"), toks["rv"], s, loc)), loc)
    if toks.get("bang"):
        when = compare(toks["eop"], toks["ev"], s, loc) if toks.get("ev") else None
        return ("explode", (toks["bang"] == "!!", when), loc)
    if toks.get("sort"):
        return ("sort", None, loc)
    return ("successes", compare(toks["sop"], toks["sv"], s, loc), loc)


STAGE_NAMES = {"reroll": "reroll (ro/rr)", "explode": "explosion (!, !!)", "keep": "keep or drop (kh, kl, dh, dl)",
               "successes": "success target (>=T)", "sort": "sort (s)"}


def _dice_term(s: str, loc: int, toks: pp.ParseResults) -> syntax.DiceTerm:
    """Base dice and modifiers in any written order, nested in the one order they apply."""
    base: syntax.BaseDice
    base, *mods = toks
    by_stage: dict[str, tuple[Any, int]] = {}
    for stage, fields, where in mods:
        if stage in by_stage:
            raise CruxError(f"a roll takes one {STAGE_NAMES[stage]}", text=s, position=where,
                            hint="split it into two terms, or use one modifier of each kind")
        by_stage[stage] = (fields, where)
    term: syntax.DiceTerm  # declared apart from its first value, so mypy narrows it stage by stage
    term = base
    if "reroll" in by_stage:
        (once, when), where = by_stage["reroll"]
        term = _reroll(base, when, once, s, where)
    if "explode" in by_stage:
        (compound, when), where = by_stage["explode"]
        term = _explode(term, when, compound, s, where)
    if "keep" in by_stage:
        (word, count), where = by_stage["keep"]
        highest = word in ("kh", "k", "dh")
        kind = syntax.Keep if word.startswith("k") else syntax.Drop
        term = kind(term, highest, count, where)
    if "successes" in by_stage:
        target, where = by_stage["successes"]
        term = syntax.Successes(term, target, where)
    if "sort" in by_stage:
        term = syntax.Sorted(term, by_stage["sort"][1])
    return term


def _reroll(base: syntax.BaseDice, when: syntax.Compare, once: bool, s: str, where: int) -> syntax.Reroll:
    """Refuse `rr` on every face: it could never stop (`ro` rerolls once, so it always does)."""
    if not once and all(when.test(face) for face in base.faces()):
        raise CruxError(f"'rr{when}' rerolls every face of {base}, so it would never stop", text=s,
                        position=where, hint="reroll only some faces, or use 'ro' to reroll once")
    return syntax.Reroll(base, when, once, where)


def _explode(term: syntax.BaseDice | syntax.Reroll, when: syntax.Compare | None, compound: bool, s: str,
             where: int) -> syntax.Explode:
    """Refuse an explosion that every face the die can end on sets off: it could never stop."""
    base = syntax.base_of(term)
    faces = list(base.faces())
    if isinstance(term, syntax.Reroll) and not term.once:  # faces `rr` takes away never stay
        faces = [face for face in faces if not term.when.test(face)]
    if all((when.test(face) if when else face == base.top) for face in faces):
        raise CruxError(f"{base} explodes on every face it can show, so it would never stop", text=s,
                        position=where, hint="explode on the top face of a die of two or more sides, "
                                             "or on a threshold some faces miss (!>=5)")
    return syntax.Explode(term, when, compound, where)


# -- arithmetic ------------------------------------------------------------------------------------

def _chain(kind: type[syntax.Sum] | type[syntax.Product]) -> Callable[[str, int, pp.ParseResults], syntax.Expr]:
    def fold(s: str, loc: int, toks: pp.ParseResults) -> syntax.Expr:
        first: syntax.Expr
        first, *rest = toks
        if not rest:
            return first
        return kind(first, tuple(zip(rest[0::2], rest[1::2], strict=True)), loc)

    return fold


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


def _repeat(s: str, loc: int, toks: pp.ParseResults) -> int:
    times = integer(toks["times"], s, loc)
    if times < 1:
        raise CruxError("a roll is repeated at least once", text=s, position=loc, hint="try 6x 4d6kh3")
    if times > MAX_REPEAT:
        raise LimitError(f"{times:,} repetitions is more than {MAX_REPEAT:,} (the limit)", text=s, position=loc)
    return times


def _countdown(s: str, loc: int, toks: pp.ParseResults) -> syntax.Countdown:
    sides = integer(toks["sides"], s, loc)
    if sides not in COUNTDOWN_SIZES:
        raise CruxError(f"there is no countdown die Cd{sides}", text=s, position=loc,
                        hint=COUNTDOWN_HINT)
    return syntax.Countdown(sides, pos=loc)


class Against:
    """What follows `vs` (a target or the other side of an opposed roll), until the statement is built."""

    __slots__ = ("expr",)

    def __init__(self, expr: syntax.Expr) -> None:
        self.expr = expr


def _statement(s: str, loc: int, toks: pp.ParseResults) -> syntax.DiceStatement:
    *prefix, body = toks
    against = None
    if isinstance(body, Against):
        against = body
        *prefix, body = prefix
    repeat = prefix[0] if prefix else 1
    if isinstance(body, syntax.Countdown):
        return syntax.Countdown(body.sides, repeat, body.pos)
    if against is not None:
        return syntax.Versus(body, against.expr, repeat, loc)
    return syntax.Roll(body, repeat, loc)


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
        tree: syntax.DiceStatement | None = _scan(text)
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
        raise not_understood(text, failure.loc, "a dice expression", HINT) from None
    except RecursionError:
        raise LimitError("the expression nests too deeply to read", text=text,
                         hint=f"use at most {MAX_NESTING} levels of parentheses") from None
    except CruxError as error:
        raise error.at(text) from None
    finally:
        sys.setrecursionlimit(limit)
