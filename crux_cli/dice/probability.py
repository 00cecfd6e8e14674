"""Exact odds of generic dice statements: the dice tree (crux_cli.dice.syntax) compiled to
distributions, term by term (`crux_cli.probability.generic`), with the operators of `Dist`.

The tree is planned before anything is worked out: each term's single die is made (that is
quick) and what all its dice will cost is predicted, as is each operator's cost from the shapes
of its operands. A statement whose plan passes the odds limit is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

from crux_cli.core.errors import CruxError
from crux_cli.core.limits import MAX_DICE, MAX_SIDES
from crux_cli.dice import syntax
from crux_cli.probability import cost
from crux_cli.probability.cost import Shape, combine_cost, combine_shape, convolve_cost, convolve_shape
from crux_cli.probability.dist import Dist, constant
from crux_cli.probability.generic import Plan, countdown_odds, explosion_depth, term_plan
from crux_cli.probability.result import Distribution, Odds, WeightedRows, dice_odds


def statement_odds(statement: syntax.DiceStatement, depth: int | None = None) -> Odds:
    """The odds of one roll of the statement (`6x ...` rolls the same odds six times).

    `depth` caps every explosion chain; by default each exploding term takes the
    least cap that leaves under 1e-12 uncounted.
    """
    if isinstance(statement, syntax.Countdown):
        return countdown_odds(statement.sides)
    if isinstance(statement, syntax.Versus):
        return versus_odds(statement, depth)
    depths: set[int] = set()
    plan = expression_plan(statement.expr, depth, depths)
    cost.check_answer(plan.seconds + past_the_roll(plan.shape, statement.expr), plan.shape)
    dist = plan.compute()
    label = "successes" if syntax.counts_successes(_unwrapped(statement.expr)) else "total"
    return dice_odds(dist, depth=max(depths) if depths else None, label=label)


COUNTED_ROWS = 16  # exact values of an answer reduced to lowest terms, at most: its mean, variance, a few rows


def past_the_roll(result: Shape, *expressions: syntax.Expr) -> float:
    """Seconds the odds model leaves out within the roll's dice limits, and counts past them (odds count
    dice a roll would refuse: core/limits.py `counting`): a few exact values of the answer (its mean and
    variance, a few rows) reduced to lowest terms, each a gcd of the denominator's length squared."""
    for expression in expressions:
        for leaf in syntax.leaves(expression):
            if not isinstance(leaf, syntax.DiceTerm):
                continue
            base = syntax.base_of(leaf)
            if base.count * (2 if isinstance(base, syntax.D66) else 1) > MAX_DICE or \
                    (isinstance(base, syntax.Dice) and base.sides > MAX_SIDES):
                return cost.presentation(Shape(COUNTED_ROWS, COUNTED_ROWS, result.bits), exact=True)
    return 0.0


WRAPPERS = (syntax.Group, syntax.Labelled)  # made once: `A | B` in a test builds the union at every call


def _unwrapped(node: syntax.Expr) -> syntax.Expr:
    """The node under any parentheses and labels."""
    while isinstance(node, WRAPPERS):
        node = node.expr
    return node


def expression_plan(node: syntax.Expr, depth: int | None, depths: set[int]) -> Plan:
    """What an expression will cost and give, and how to work it out."""
    match node:
        case syntax.Number(value):
            return Plan(Shape(1, 0, 1, value), 0.0, lambda: constant(value))
        case syntax.Group(inner) | syntax.Labelled(inner):
            return expression_plan(inner, depth, depths)
        case syntax.Negate(operand):
            inner_plan = expression_plan(operand, depth, depths)
            negated = Shape(*inner_plan.shape[:3], -inner_plan.shape.high)
            return Plan(negated, inner_plan.seconds, lambda: -inner_plan.compute())
        case syntax.Sum(first, rest) | syntax.Product(first, rest):
            total = expression_plan(first, depth, depths)
            for op, operand in rest:
                total = _operator_plan(op, total, expression_plan(operand, depth, depths), operand)
            return total
        case syntax.Pool():
            return pool_plan(node, depth, depths)
        case syntax.SheetValue():  # the handler puts the sheet's values in first: here, there is none
            from crux_cli.dice.sheet_values import no_sheet

            no_sheet(node)
    return term_plan_of(node, depth, depths)


POOL_WORK = 400_000  # (kept totals so far) x (an item's values) a grouped roll's exact odds may walk (~1 us each)


def pool_plan(pool: syntax.Pool, depth: int | None, depths: set[int]) -> Plan:
    """A grouped roll or min/max: each item planned on its own, then the kept totals added up.

    Everything kept: the sum of the items. One kept: the highest (or lowest) by the product of the items'
    cumulative weights. More, of items written alike: the items' keep-highest, as dice keep theirs. More, of
    different items: a walk over the kept totals so far, refused past POOL_WORK steps.
    """
    plans = [expression_plan(item, depth, depths) for item in pool.items]
    n, kept = len(plans), pool.kept_count()
    if kept == n:
        total = plans[0]
        for item, plan in zip(pool.items[1:], plans[1:], strict=True):
            total = _operator_plan("+", total, plan, item)
        return total
    if kept == 0:
        return Plan(Shape(1, 0, 1, 0), sum(p.seconds for p in plans), lambda: constant(0))
    lows = sorted(p.shape.low for p in plans)
    highs = sorted(p.shape.high for p in plans)
    low, high = (sum(lows[-kept:]), sum(highs[-kept:])) if pool.highest else (sum(lows[:kept]), sum(highs[:kept]))
    bits = sum(p.shape.bits for p in plans)
    values = max(p.shape.outcomes for p in plans)
    alike = all(item == pool.items[0] for item in pool.items)  # worked out as dice are, which checks its own cost
    # steps of the walk: (kept totals so far, at most the multisets of `kept` values) x (an item's values) per item
    work = n * values * (min(comb(values + kept - 1, kept), values ** kept) if kept > 1 and not alike else 1)
    seconds = sum(p.seconds for p in plans) + cost.items(min(work, 1e12), bits) + cost.calls(min(work, 1e12) / 2.5)
    shape = Shape(min(high - low + 1, values ** kept), high - low, bits, low)

    def compute() -> Dist:
        dists = [plan.compute() for plan in plans]
        if not pool.highest:
            return -_keep_highest_of([-d for d in dists], kept, pool.items)
        return _keep_highest_of(dists, kept, pool.items)

    return Plan(shape, seconds, compute)


def _keep_highest_of(dists: list[Dist], kept: int, items: tuple[syntax.Expr, ...]) -> Dist:
    """The sum of the `kept` highest values of independent `dists`."""
    if all(item == items[0] for item in items):  # alike: the pool's own keep-highest
        return dists[0].keep_highest(len(dists), kept)
    denominator = 1
    for dist in dists:
        denominator *= dist.denominator
    if kept == 1:
        return _highest_of(dists, denominator)
    return _highest_kept_of(dists, kept, denominator)


def _highest_of(dists: list[Dist], denominator: int) -> Dist:
    """The highest value of independent `dists`: P(highest <= v) is the product of each one's P(<= v)."""
    values = sorted({o for dist in dists for o in dist.outcomes})
    weights: dict[int, int] = {}
    previous = 0
    cumulative = [0] * len(dists)
    index = [0] * len(dists)
    for value in values:
        product = 1
        for i, dist in enumerate(dists):
            while index[i] < len(dist.outcomes) and dist.outcomes[index[i]] <= value:
                cumulative[i] += dist.weights[index[i]]
                index[i] += 1
            product *= cumulative[i]
        if product != previous:
            weights[value] = product - previous
        previous = product
    return Dist.from_weights(weights, denominator)


def _highest_kept_of(dists: list[Dist], kept: int, denominator: int) -> Dist:
    """The sum of the `kept` highest values of independent `dists`, through the kept values after each one."""
    states: dict[tuple[int, ...], int] = {(): 1}
    work = 0
    for dist in dists:
        work += len(states) * len(dist.outcomes)
        if work > POOL_WORK:
            raise cost.too_big(cost.here(cost.items(work * len(dists), 64)))
        following: dict[tuple[int, ...], int] = {}
        for state, weight in states.items():
            for value, w in zip(dist.outcomes, dist.weights, strict=True):
                top = tuple(sorted((*state, value), reverse=True)[:kept])
                following[top] = following.get(top, 0) + weight * w
        states = following
    sums: dict[int, int] = {}
    for state, weight in states.items():
        sums[sum(state)] = sums.get(sum(state), 0) + weight
    return Dist.from_weights(sums, denominator)


def _operator_plan(op: str, left: Plan, right: Plan, operand: syntax.Expr) -> Plan:
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


def term_plan_of(term: syntax.DiceTerm, depth: int | None, depths: set[int]) -> Plan:
    """One dice term, planned: its modifiers unpacked as the roller unpacks them (engine/dice.py DicePlan)."""
    reroll = explode = keep = target = None
    while not isinstance(term, syntax.BaseDice):
        match term:
            case syntax.Successes():
                target = term.target
            case syntax.Keep() | syntax.Drop():
                keep = (("k" if isinstance(term, syntax.Keep) else "d") + ("h" if term.highest else "l"), term.count)
            case syntax.Explode():
                explode = term
            case syntax.Reroll():
                reroll = term
        term = term.dice
    sides: int | str = term.sides if isinstance(term, syntax.Dice) else 66 if isinstance(term, syntax.D66) else "F"
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
        raise (error if error.position is not None else error.replace(position=term.pos)) from None


def _apply(op: str, left: Dist, right: Dist, operand: syntax.Expr) -> Dist:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    try:
        return left // right
    except CruxError as error:
        raise error.replace(position=operand.pos) from None


def versus_odds(statement: syntax.Versus, depth: int | None = None) -> Odds:
    """A target's P(pass) and P(fail), or an opposed roll's P(win), P(tie), P(lose), with the margin's
    distribution (this side's total less the target or the other side's total) and its mean."""
    depths: set[int] = set()
    mine = expression_plan(statement.expr, depth, depths)
    other = expression_plan(statement.against, depth, depths)
    plan = _operator_plan("-", mine, other, statement.against)
    cost.check_answer(plan.seconds + past_the_roll(plan.shape, statement.expr, statement.against), plan.shape)
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
