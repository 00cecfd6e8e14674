"""A fast path in front of the dice grammar for the plain shape most lines have: dice terms and
numbers joined by + - * / and grouped in parentheses, after an optional `roll` and `Nx` (no signs,
labels or countdown dice).

The tokens are the grammar's own regular expressions, and each is handed to the grammar's own
parse action (`_base_dice`, `_modifier`, `_dice_term`, `_chain`, `_statement`) with the position
the grammar would give it, so the tree is the grammar's, node for node, positions included. A
statement the scanner does not read, or one an action refuses, returns None and goes through the
grammar, which words the error. tests/test_dice_scan.py checks the two against each other.
"""

from __future__ import annotations

import re
from typing import Any

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import integer
from crux_cli.dice import grammar, syntax

# The grammar's parse actions are typed for pyparsing's ParseResults; the scanner hands them a dict of the
# same named groups or a list of the same tokens, which is all they read, so they are called untyped here.
notation: Any = grammar

GAP = re.compile(r"[ \t]*")
ROLL = re.compile(r"(?i:roll)(?![A-Za-z0-9_$])")
REPEAT = re.compile(notation.REPEAT)
BASE = re.compile(notation.BASE)
MODIFIER = re.compile(notation.MODIFIER, re.IGNORECASE)
NUMBER = re.compile(r"[0-9]+")
OPERATOR = re.compile(r"[ \t]*([-+*/])[ \t]*")
OPEN = re.compile(r"\([ \t]*")
CLOSE = re.compile(r"[ \t]*\)")


def past_gap(text: str, loc: int) -> int:
    """`loc` moved past any spaces and tabs (GAP always matches, if only the empty string)."""
    if not text.startswith(BLANKS, loc):  # the usual case, told without a match
        return loc
    gap = GAP.match(text, loc)
    return gap.end() if gap is not None else loc


BLANKS = (" ", "\t")


def operand(text: str, loc: int) -> tuple[syntax.Expr, int] | None:
    """A dice term with its modifiers (written right after it), a whole number, or `( expression )`."""
    if text.startswith("(", loc) and (opened := OPEN.match(text, loc)) is not None:
        found = expression(text, opened.end())
        if found is None or (closed := CLOSE.match(text, found[1])) is None:
            return None
        return syntax.Group(found[0], loc), closed.end()
    base = BASE.match(text, loc)
    if base is None:
        number = NUMBER.match(text, loc)
        if number is None:
            return None
        return syntax.Number(integer(number.group(), text, loc), loc), number.end()
    tokens: list[Any] = [notation._base_dice(text, loc, base.groupdict())]
    end = base.end()
    while (modifier := MODIFIER.match(text, end)) is not None and modifier.end() > end:
        tokens.append(notation._modifier(text, end, modifier.groupdict()))
        end = modifier.end()
    if len(tokens) == 1:  # plain dice: the term's action would give them back as they are
        return tokens[0], end
    return notation._dice_term(text, loc, tokens), end


PRODUCT, SUM = notation._chain(syntax.Product), notation._chain(syntax.Sum)  # the grammar's folds, made once


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


def scan(text: str) -> syntax.DiceStatement | None:
    """The grammar's tree for a plain dice statement, or None: leave it to the grammar."""
    if not text.isascii():
        return None
    try:
        start = loc = past_gap(text, 0)
        prefix: list[Any] = []
        if text.startswith(("r", "R"), loc) and (roll := ROLL.match(text, loc)) is not None:
            loc = past_gap(text, roll.end())
        if (repeat := REPEAT.match(text, loc)) is not None:
            prefix.append(notation._repeat(text, loc, repeat.groupdict()))
            loc = past_gap(text, repeat.end())
        found = expression(text, loc)
        if found is None or past_gap(text, found[1]) != len(text):
            return None
        statement: syntax.DiceStatement = notation._statement(text, start, [*prefix, found[0]])
        return statement
    except CruxError:
        return None
