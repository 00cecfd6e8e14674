"""Exact odds of generic dice statements: the dice tree (crux_cli.dice.ast) compiled to
distributions, term by term (`crux_cli.odds.generic`), with the operators of `Dist`.

The tree is planned before anything is worked out: each term's single die is made (that is
quick) and what all its dice will cost is predicted, as is each operator's cost from the shapes
of its operands. A statement whose plan passes the odds limit is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable

from crux_cli.core.errors import CruxError
from crux_cli.dice import ast
from crux_cli.odds import cost
from crux_cli.odds.cost import Shape
from crux_cli.odds.dist import Dist, combine_cost, combine_shape, constant, convolve_cost, convolve_shape
from crux_cli.odds.generic import Plan, countdown_odds, explosion_depth, term_plan
from crux_cli.odds.result import Distribution, Odds, WeightedRows, dice_odds


def statement_odds(statement: ast.DiceStatement, depth: int | None = None) -> Odds:
    """The odds of one roll of the statement (`6x ...` rolls the same odds six times).

    `depth` caps every explosion chain; by default each exploding term takes the
    least cap that leaves under 1e-12 uncounted.
    """
    if isinstance(statement, ast.Countdown):
        return countdown_odds(statement.sides)
    if isinstance(statement, ast.Versus):
        return versus_odds(statement, depth)
    depths: set[int] = set()
    plan = expression_plan(statement.expr, depth, depths)
    cost.check_answer(plan.seconds, plan.shape)
    dist = plan.compute()
    label = "successes" if isinstance(_unwrapped(statement.expr), ast.Successes) else "total"
    return dice_odds(dist, depth=max(depths) if depths else None, label=label)


WRAPPERS = (ast.Group, ast.Labelled)  # made once: `A | B` in a test builds the union at every call


def _unwrapped(node: ast.Expr) -> ast.Expr:
    """The node under any parentheses and labels."""
    while isinstance(node, WRAPPERS):
        node = node.expr
    return node


def expression_plan(node: ast.Expr, depth: int | None, depths: set[int]) -> Plan:
    """What an expression will cost and give, and how to work it out."""
    match node:
        case ast.Number(value):
            return Plan(Shape(1, 0, 1, value), 0.0, lambda: constant(value))
        case ast.Group(inner) | ast.Labelled(inner):
            return expression_plan(inner, depth, depths)
        case ast.Negate(operand):
            inner_plan = expression_plan(operand, depth, depths)
            negated = Shape(*inner_plan.shape[:3], -inner_plan.shape.high)
            return Plan(negated, inner_plan.seconds, lambda: -inner_plan.compute())
        case ast.Sum(first, rest) | ast.Product(first, rest):
            total = expression_plan(first, depth, depths)
            for op, operand in rest:
                total = _operator_plan(op, total, expression_plan(operand, depth, depths), operand)
            return total
    return term_plan_of(node, depth, depths)


def _operator_plan(op: str, left: Plan, right: Plan, operand: ast.Expr) -> Plan:
    operation: Callable[[int, int], int]
    if op in "+-":
        right_shape = right.shape if op == "+" else Shape(*right.shape[:3], -right.shape.high)
        shape = convolve_shape(left.shape, right_shape)
        seconds = convolve_cost(left.shape, right_shape)
    else:
        operation = (lambda x, y: x * y) if op == "*" else (lambda x, y: x // y if y else x)
        shape = combine_shape(left.shape, right.shape, operation)
        seconds = combine_cost(left.shape, right.shape)
    return Plan(shape, left.seconds + right.seconds + seconds,
                lambda: _apply(op, left.compute(), right.compute(), operand))


def term_plan_of(term: ast.DiceTerm, depth: int | None, depths: set[int]) -> Plan:
    """One dice term, planned: its modifiers unpacked as the roller unpacks them (engine/dice.py DicePlan)."""
    reroll = explode = keep = target = None
    while not isinstance(term, ast.BaseDice):
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
    if explode and depth is not None:
        depths.add(depth)
    try:
        return term_plan(term.count, sides, reroll=reroll_test, reroll_once=once, explode=explodes,
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


def versus_odds(statement: ast.Versus, depth: int | None = None) -> Odds:
    """A target's P(pass) and P(fail), or an opposed roll's P(win), P(tie), P(lose), with the margin's
    distribution (this side's total less the target or the other side's total) and its mean."""
    depths: set[int] = set()
    mine = expression_plan(statement.expr, depth, depths)
    other = expression_plan(statement.against, depth, depths)
    plan = _operator_plan("-", mine, other, statement.against)
    cost.check_answer(plan.seconds, plan.shape)
    margin = plan.compute()
    above = sum(w for m, w in zip(margin.outcomes, margin.weights, strict=True) if m > 0)
    level = sum(w for m, w in zip(margin.outcomes, margin.weights, strict=True) if m == 0)
    below = margin.total - above - level
    names, weights = (("win", "tie", "lose"), [above, level, below]) if statement.opposed else (
        ("pass", "fail"), [above + level, below])
    leftover = margin.leftover
    return Odds(kind="opposed" if statement.opposed else "target",
                outcomes=WeightedRows(names, weights, margin.denominator),
                distribution=Distribution.of(margin), label="margin", mean=margin.mean(), leftover=leftover,
                depth=(max(depths) if depths else None) if leftover or depths else None)
