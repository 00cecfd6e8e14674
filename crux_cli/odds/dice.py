"""Exact odds of generic dice statements: the dice tree (crux_cli.notation.dice_ast) compiled to
distributions, term by term (`crux_cli.odds.generic`), with the operators of `Dist`."""

from __future__ import annotations

from crux_cli.errors import CruxError
from crux_cli.notation import dice_ast as ast
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
    """One dice term: its modifiers unpacked as the roller unpacks them."""
    parts: dict[str, object] = {}
    while not isinstance(term, ast.Dice | ast.D66 | ast.Fudge):
        parts[type(term).__name__] = term
        term = term.dice
    sides: int | str = term.sides if isinstance(term, ast.Dice) else 66 if isinstance(term, ast.D66) else "F"
    reroll = parts.get("Reroll")
    explode = parts.get("Explode")
    keep = parts.get("Keep") or parts.get("Drop")
    target = parts.get("Successes")
    options: dict[str, object] = {}
    if isinstance(reroll, ast.Reroll):
        options.update(reroll=reroll.when.test, reroll_once=reroll.once)
    if isinstance(explode, ast.Explode):
        explodes = explode.when.test if explode.when else True
        options.update(explode=explodes, compound=explode.compound)
        used = depth if depth is not None else explosion_depth(
            term.count, sides, explodes, options.get("reroll"), bool(options.get("reroll_once")))  # type: ignore[arg-type]
        options["depth"] = used
        if depths is not None:
            depths.add(used)
    if isinstance(keep, ast.Keep | ast.Drop):
        letter = "k" if isinstance(keep, ast.Keep) else "d"
        options["keep"] = (letter + ("h" if keep.highest else "l"), keep.count)
    if isinstance(target, ast.Successes):
        options["success"] = target.target.test
    try:
        return dice_term(term.count, sides, **options)  # type: ignore[arg-type]
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
