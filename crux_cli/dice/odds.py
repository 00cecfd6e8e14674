"""Exact odds of generic dice statements: the dice tree (crux_cli.dice.ast) compiled to
distributions, term by term (`crux_cli.odds.generic`), with the operators of `Dist`."""

from __future__ import annotations

from crux_cli.core.errors import CruxError
from crux_cli.dice import ast
from crux_cli.odds.dist import Dist, constant
from crux_cli.odds.generic import countdown_odds, dice_term, explosion_depth
from crux_cli.odds.result import Odds, dice_odds


def statement_odds(statement: ast.DiceStatement, depth: int | None = None) -> Odds:
    """The odds of one roll of the statement (`6x ...` rolls the same odds six times).

    `depth` caps every explosion chain; by default each exploding term takes the
    least cap that leaves under 1e-12 uncounted.
    """
    if isinstance(statement, ast.Countdown):
        return countdown_odds(statement.sides)
    depths: set[int] = set()
    dist = expression_dist(statement.expr, depth, depths)
    label = "successes" if isinstance(_unwrapped(statement.expr), ast.Successes) else "total"
    return dice_odds(dist, depth=max(depths) if depths else None, label=label)


def _unwrapped(node: ast.Expr) -> ast.Expr:
    """The node under any parentheses and labels."""
    while isinstance(node, ast.Group | ast.Labelled):
        node = node.expr
    return node


def expression_dist(node: ast.Expr, depth: int | None = None, depths: set[int] | None = None) -> Dist:
    """The distribution of an expression's value."""
    depths = set() if depths is None else depths
    match node:
        case ast.Number(value):
            return constant(value)
        case ast.Group(inner) | ast.Labelled(inner):
            return expression_dist(inner, depth, depths)
        case ast.Negate(operand):
            return -expression_dist(operand, depth, depths)
        case ast.Sum(first, rest) | ast.Product(first, rest):
            total = expression_dist(first, depth, depths)
            for op, operand in rest:
                total = _apply(op, total, expression_dist(operand, depth, depths), operand)
            return total
    return term_dist(node, depth, depths)


def term_dist(term: ast.DiceTerm, depth: int | None = None, depths: set[int] | None = None) -> Dist:
    """One dice term: its modifiers unpacked as the roller unpacks them (engine/dice.py DicePlan)."""
    reroll = explode = keep = target = None
    while not isinstance(term, ast.Dice | ast.D66 | ast.Fudge):
        match term:
            case ast.Successes():
                target = term.target
            case ast.Keep() | ast.Drop():
                keep = (("k" if isinstance(term, ast.Keep) else "d") + ("h" if term.highest else "l"), term.count)
            case ast.Explode():
                explode = term
            case ast.Reroll():
                reroll = term
        term = term.dice
    sides: int | str = term.sides if isinstance(term, ast.Dice) else 66 if isinstance(term, ast.D66) else "F"
    reroll_test = reroll.when.test if reroll else None
    once = bool(reroll and reroll.once)
    explodes = (explode.when.test if explode.when else True) if explode else False
    if explode and depth is None:
        depth = explosion_depth(term.count, sides, explodes, reroll_test, once)
    if explode and depths is not None and depth is not None:
        depths.add(depth)
    try:
        return dice_term(term.count, sides, reroll=reroll_test, reroll_once=once, explode=explodes,
                         compound=bool(explode and explode.compound), depth=depth, keep=keep,
                         success=target.test if target else None)
    except CruxError as error:
        error.position = error.position if error.position is not None else term.pos
        raise


def _apply(op: str, left: Dist, right: Dist, operand: ast.Expr) -> Dist:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    try:
        return left // right
    except CruxError as error:
        error.position = operand.pos
        raise
