"""The words of a dice statement and what each becomes, and a fast path in front of the dice grammar.

The words (`BASE`, `MODIFIER`, `REPEAT`) and their parse actions (`_base_dice`, `_modifier`, `_dice_term`,
`_chain`, `_repeat`, `_statement`) are the grammar's (grammar.py builds its pyparsing elements on them) and
the scanner's alike; they live here, below the grammar, so that the grammar imports the scanner and the
scanner never imports the grammar.

The scanner reads the plain shape most lines have: dice terms and numbers joined by + - * / and grouped in
parentheses, after an optional `roll` and `Nx` (no signs, labels or countdown dice). Each word is handed to
its parse action with the position the grammar would give it, so the tree is the grammar's, node for node,
positions included. A statement the scanner does not read, or one an action refuses, returns None and goes
through the grammar, which words the error. tests/test_dice_scan.py checks the two against each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import Pattern, integer, pp
from crux_cli.core.limits import MAX_DICE, MAX_NESTING, MAX_REPEAT, MAX_SIDES, rolling
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES, COUNTDOWN_HINT, COUNTDOWN_SIZES
from crux_cli.dice import syntax

COMPARE = r"(?:>=|<=|>|<|=)"
BASE = r"(?P<count>[0-9]+)?[dD](?P<sides>[0-9]+|%|[fF])"
MODIFIER = (r"(?P<keep>kh|kl|dh|dl|k)(?P<n>[0-9]+)?"  # matched case-insensitively
            rf"|(?P<reroll>rr|ro)(?P<rop>{COMPARE})?(?P<rv>[0-9]+)"
            rf"|(?P<bang>!!|!)(?:(?P<eop>{COMPARE})(?P<ev>[0-9]+))?"
            rf"|(?P<sop>{COMPARE})(?P<sv>[0-9]+)"
            r"|(?P<sort>s)")  # show the dice in order of face
POOL_KEEP_WORD = r"(?i)(?P<keep>kh|kl|dh|dl|k)(?P<n>[0-9]+)?"  # right after a grouped roll's }
EXTREME_WORD = r"(?i)(?:min|max)[ \t]*\("
SHEET_VALUE_WORD = rf"(?i)(?:{'|'.join(sorted(ATTRIBUTE_NAMES, key=len, reverse=True))})(?![A-Za-z0-9_])"
COUNTDOWN_WORD = r"[cC][dD](?P<sides>[0-9]+)"
VERSUS_WORD = r"[vV][sS](?![A-Za-z_])"  # `1d20+5 vs15` reads too
REPEAT = r"(?P<times>[0-9]+)[xX](?=[ \t0-9(+\-]|[dD][0-9%fF]|[cC][dD][0-9]|$)"


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


# -- arithmetic and the statement ---------------------------------------------------------------------

def _chain(kind: type[syntax.Sum] | type[syntax.Product]) -> Callable[[str, int, pp.ParseResults], syntax.Expr]:
    def fold(s: str, loc: int, toks: pp.ParseResults) -> syntax.Expr:
        first: syntax.Expr
        first, *rest = toks
        if not rest:
            return first
        return kind(first, tuple(zip(rest[0::2], rest[1::2], strict=True)), loc)

    return fold


def _repeat(s: str, loc: int, toks: pp.ParseResults) -> int:
    times = integer(toks["times"], s, loc)
    if times < 1:
        raise CruxError("a roll is repeated at least once", text=s, position=loc, hint="try 6x 4d6kh3")
    if times > MAX_REPEAT:
        raise LimitError(f"{times:,} repetitions is more than {MAX_REPEAT:,} (the limit)", text=s, position=loc)
    return times


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


# -- grouped rolls, signs, labels and countdown dice ---------------------------------------------------

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


# -- the fast path -----------------------------------------------------------------------------------

# The parse actions are typed for pyparsing's ParseResults; the scanner hands them a dict of the same named
# groups or a list of the same tokens, which is all they read, so it calls them through these untyped names.
base_dice: Any = _base_dice
modifier: Any = _modifier
dice_term: Any = _dice_term
repeat: Any = _repeat
statement_of: Any = _statement
unary: Any = _unary
labelled_of: Any = _labelled
pool_of: Any = _pool
pool_keep: Any = _pool_keep
extreme_of: Any = _extreme
countdown_of: Any = _countdown

GAP = re.compile(r"[ \t]*")
ROLL = re.compile(r"(?i:roll)(?![A-Za-z0-9_$])")
REPEAT_WORD = re.compile(REPEAT)
BASE_WORD = re.compile(BASE)
MODIFIER_WORD = re.compile(MODIFIER, re.IGNORECASE)
NUMBER = re.compile(r"[0-9]+")
OPERATOR = re.compile(r"[ \t]*([-+*/])[ \t]*")
OPEN = re.compile(r"\([ \t]*")
CLOSE = re.compile(r"[ \t]*\)")
# the rarer words, compiled when first met (core.grammar.Pattern): a plain roll never pays for them
SIGNS = Pattern(r"[+-](?:[ \t]*[+-])*")
LABEL = Pattern(r"\[[^\[\]]*\]")
POOL_KEEP = Pattern(POOL_KEEP_WORD)
EXTREME = Pattern(EXTREME_WORD)
SHEET_VALUE = Pattern(SHEET_VALUE_WORD)
COUNTDOWN = Pattern(COUNTDOWN_WORD)
VERSUS = Pattern(VERSUS_WORD)


def past_gap(text: str, loc: int) -> int:
    """`loc` moved past any spaces and tabs (GAP always matches, if only the empty string)."""
    if not text.startswith(BLANKS, loc):  # the usual case, told without a match
        return loc
    if not text.startswith(BLANKS, loc + 1):  # one space: the usual gap between words
        return loc + 1
    gap = GAP.match(text, loc)
    return gap.end() if gap is not None else loc


BLANKS = (" ", "\t")


def operand(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """The grammar's `unary`: signs, then an atom and its label (`-d6`, `(2d6+3) [fire]`)."""
    if text.startswith(("+", "-"), loc):
        signs = SIGNS.match(text, loc)
        if signs is None:
            return None
        found = labelled(text, past_gap(text, signs.end()))
        if found is None:
            return None
        node: syntax.Expr = unary(text, loc, [signs.group(), found[0]])
        return node, found[1]
    return labelled(text, loc)


def labelled(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """An atom, and the label written after it (`1d20 [to hit]`)."""
    found = atom(text, loc)
    if found is None:
        return None
    label_at = past_gap(text, found[1])
    if not text.startswith("[", label_at):
        return found
    label = LABEL.match(text, label_at)
    if label is None:
        return None
    node: syntax.Expr = labelled_of(text, loc, [found[0], label.group()])
    return node, label.end()


def atom(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """A dice term with its modifiers (written right after it), a whole number, `( expression )`, a grouped
    roll, `min(…)` or `max(…)`, or an attribute: tried in the grammar's order."""
    base = BASE_WORD.match(text, loc)
    if base is not None:
        return dice(text, loc, base)
    number = NUMBER.match(text, loc)
    if number is not None:
        return syntax.Number(integer(number.group(), text, loc), loc), number.end()
    if text.startswith("(", loc):
        opened = OPEN.match(text, loc)
        found = expression(text, opened.end()) if opened is not None else None
        if found is None or (closed := CLOSE.match(text, found[1])) is None:
            return None
        return syntax.Group(found[0], loc), closed.end()
    if text.startswith("{", loc):
        return grouped(text, loc)
    extreme = EXTREME.match(text, loc)
    if extreme is not None:
        found_items = items(text, past_gap(text, extreme.end()), ")")
        if found_items is None:
            return None
        return extreme_of(text, loc, [extreme.group(), *found_items[0]]), found_items[1]
    value = SHEET_VALUE.match(text, loc)
    if value is not None:
        return syntax.SheetValue(ATTRIBUTE_NAMES[value.group().lower()], loc), value.end()
    return None


def dice(text: str, loc: int, base: re.Match[str]) -> tuple[syntax.Expr, int]:
    tokens: list[Any] = [base_dice(text, loc, base.groupdict())]
    end = base.end()
    while (modifier_word := MODIFIER_WORD.match(text, end)) is not None and modifier_word.end() > end:
        tokens.append(modifier(text, end, modifier_word.groupdict()))
        end = modifier_word.end()
    if len(tokens) == 1:  # plain dice: the term's action would give them back as they are
        return tokens[0], end
    return dice_term(text, loc, tokens), end


def grouped(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """`{A, B}` and the keep or drop written right after its `}`."""
    found = items(text, past_gap(text, loc + 1), "}")
    if found is None:
        return None
    tokens, end = found
    keep = POOL_KEEP.match(text, end)
    if keep is not None:
        tokens.append(pool_keep(text, end, keep.groupdict()))
        end = keep.end()
    return pool_of(text, loc, tokens), end


def items(text: str, loc: int, closing: str) -> tuple[list[Any], int] | None:
    """Expressions parted by commas up to `closing` (the grammar's DelimitedList), and the end past it."""
    found: list[Any] = []
    while True:
        item = expression(text, loc)
        if item is None:
            return None
        found.append(item[0])
        loc = past_gap(text, item[1])
        if text.startswith(",", loc):
            loc = past_gap(text, loc + 1)
        elif text.startswith(closing, loc):
            return found, loc + 1
        else:
            return None


PRODUCT: Any = _chain(syntax.Product)  # the grammar's folds, made once
SUM: Any = _chain(syntax.Sum)


def expression(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """Operands and operators up to the end of the text: products first, then the sum of them."""
    sum_tokens: list[Any] = []
    product: list[Any] = []
    product_start = sum_start = loc
    while True:
        found = operand(text, loc)
        if found is None:
            return None
        node, loc = found
        product.append(node)
        op = OPERATOR.match(text, loc) if loc < len(text) else None
        if op is None or op.group(1) in "+-":
            sum_tokens.append(PRODUCT(text, product_start, product))
            if op is None:
                return SUM(text, sum_start, sum_tokens), loc
            sum_tokens.append(op.group(1))
            product, product_start = [], op.end()
        else:
            product.append(op.group(1))
        loc = op.end()


def body(text: str, loc: int) -> tuple[Any, int] | None:
    """What follows `roll` and `Nx`: a countdown die alone, or an expression and what follows `vs`."""
    if text.startswith(("c", "C"), loc) and (countdown := COUNTDOWN.match(text, loc)) is not None:
        return countdown_of(text, loc, countdown.groupdict()), countdown.end()
    found = expression(text, loc)
    if found is None:
        return None
    after = past_gap(text, found[1])
    if after == len(text) or (versus := VERSUS.match(text, after)) is None:
        return found
    against = expression(text, past_gap(text, versus.end()))
    if against is None:
        return None
    return [found[0], Against(against[0])], against[1]


def scan(text: str) -> syntax.DiceStatement | None:
    """The grammar's tree for a dice statement, or None: leave it to the grammar."""
    if not text.isascii():
        return None
    try:
        start = loc = past_gap(text, 0)
        prefix: list[Any] = []
        if text.startswith(("r", "R"), loc) and (roll := ROLL.match(text, loc)) is not None:
            loc = past_gap(text, roll.end())
        if (repeated := REPEAT_WORD.match(text, loc)) is not None:
            prefix.append(repeat(text, loc, repeated.groupdict()))
            loc = past_gap(text, repeated.end())
        found = body(text, loc)
        if found is None or past_gap(text, found[1]) != len(text):
            return None
        words = found[0] if isinstance(found[0], list) else [found[0]]
        statement: syntax.DiceStatement = statement_of(text, start, [*prefix, *words])
        return statement
    except CruxError:
        return None
