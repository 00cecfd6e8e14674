"""Odds of generic dice expressions (crux-notation(7) DICE EXPRESSIONS), as functions with plain parameters.

The dice AST compiles to these in a few lines: each dice term to `dice_term`,
each `+ - * /` and unary minus to the `Dist` operators (`/` is `//`: it floors),
a bare integer to `constant`, and the whole expression to `dice_odds`
(crux_cli.probability.result). A countdown die has `countdown_odds`.

A term means, per die, in this order (as grammar/dice.md rules and the roller
does): the face (`sides` 1..10000, "%", "F" or 66); a reroll (`ro` once, `rr`
while the face matches), which explosion dice get too; an explosion (`!` on
the top face, or on faces a test picks), each added face rolled like the
first; then, over all the dice, one keep or drop (`khN` `klN` `dhN` `dlN`),
then success counting among the kept dice (`>=T`), or else the kept sum.

With `!` every added face is a die of its own, so keep/drop and success
counting choose among all the dice rolled; with `!!` (compound) a die's chain
is one value. Their sums are the same.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

from crux_cli.core.errors import CruxError
from crux_cli.core.limits import EXPLOSION_DEPTH, MAX_SIDES
from crux_cli.core.vocabulary import COUNTDOWN_SIZES
from crux_cli.probability import cost
from crux_cli.probability.cost import (
    Shape,
    bind_cost,
    convolve_cost,
    convolve_shape,
    explode_cost,
    explode_sum_cost,
    explode_sum_shape,
    keep_cost,
    sum_cost,
)
from crux_cli.probability.dist import (
    Dist,
    Predicate,
    Score,
    check_outcomes,
    constant,
    d66,
    default_depth,
    die,
    fudge,
    percentile,
)
from crux_cli.probability.result import Distribution, Odds, rows

KEEPS = ("kh", "kl", "dh", "dl")
EXPLOSION_CALLS = 20  # interpreted calls, at least, per number of explosions `exploded_plan` mixes


def base_die(sides: int | str) -> Dist:
    """One die of a dice expression: `dS`, `d%`, `dF`, `d66`."""
    if sides == "%":
        return percentile()
    if isinstance(sides, str) and sides.upper() == "F":
        return fudge()
    if sides == 66:
        return d66()
    if not isinstance(sides, int) or sides < 1:
        raise CruxError(f"there is no die d{sides}")
    check_table(sides)
    return die(sides)


def check_table(sides: int) -> None:
    """Refuse, before it is made, a die whose table of weights would pass the odds' memory. A roll's
    limit on sides (MAX_SIDES) does not bound the odds, which count rather than roll (core/limits.py)."""
    if sides > MAX_SIDES:
        cost.check_held(cost.held(sides, sides.bit_length()))


class Plan(NamedTuple):
    """A dice term, worked out only when `compute` is called: what it will cost and give first."""

    shape: Shape
    seconds: float
    compute: Callable[[], Dist]


def dice_term(count: int, sides: int | str, *, reroll: Predicate | None = None, reroll_once: bool = False,
              explode: bool | Predicate = False, compound: bool = False, depth: int | None = None,
              keep: tuple[str, int] | None = None, success: Predicate | None = None) -> Dist:
    """The distribution of one dice term, e.g. `4d6kh3`, `3d6!`, `2d10!>=9`, `4d6ro<2`, `5d10kh3>=8`.

    `reroll`, `explode` and `success` are face tests (the AST's `Compare.test`);
    `explode=True` explodes on the top face. `keep` is ("kh"|"kl"|"dh"|"dl", N).
    `depth` caps the dice one die's explosions add: by default the least that
    leaves under 1e-12 uncounted over the `count` dice, at most the roller's own
    cap (EXPLOSION_DEPTH), where the last added face stands, as it does in a roll.
    Refused (the odds limit) when it would take too long.
    """
    plan = term_plan(count, sides, reroll=reroll, reroll_once=reroll_once, explode=explode, compound=compound,
                     depth=depth, keep=keep, success=success)
    cost.check(plan.seconds)
    return plan.compute()


def term_plan(count: int, sides: int | str, *, reroll: Predicate | None = None, reroll_once: bool = False,
              explode: bool | Predicate = False, compound: bool = False, depth: int | None = None,
              keep: tuple[str, int] | None = None, success: Predicate | None = None) -> Plan:
    """`dice_term`, planned: the one die is made (that is quick), the work on all of them is not."""
    if keep is not None and keep[0] not in KEEPS:
        raise CruxError(f"'{keep[0]}' is not a way to keep or drop dice", hint="use kh, kl, dh or dl")
    single = base_die(sides)
    top = single.outcomes[-1]  # the die's top face, even when a reroll makes it impossible
    if reroll is not None:
        single = single.reroll_once(reroll) if reroll_once else single.reroll(reroll)
    score: Score | None = (lambda face: 1 if success(face) else 0) if success is not None else None
    if explode is not False:
        explodes: Predicate = (lambda face: face == top) if explode is True else explode
        if depth is None:
            depth = default_depth(single.probability(explodes), count)
        truncate = depth >= EXPLOSION_DEPTH
        if not compound and (keep is not None or score is not None):
            return exploded_plan(count, single, explodes, depth, keep=keep, score=score)
        if keep is None and score is None:
            chained, shape = single, explode_sum_shape(single, count, depth)
            check_outcomes(shape.outcomes)  # every total of the span has a weight
            return Plan(shape,
                        explode_sum_cost(single, count, depth, explodes, truncate),
                        lambda: chained.explode_sum(count, depth, on=explodes, truncate=truncate))
        cost.check(explode_cost(single, depth, explodes, truncate))
        single = single.explode(depth, on=explodes, truncate=truncate)  # one chain per die, kept as a value
    return _kept_plan(single, count, keep, score)


def exploded_plan(count: int, single: Dist, explodes: Predicate, depth: int, *,
                  keep: tuple[str, int] | None = None, score: Score | None = None) -> Plan:
    """`count` dice that explode with every added face a die of its own, then kept or dropped, summed or
    scored (successes), planned. No enumeration of the dice:

    A die's chain is some exploding faces, then one that stops it. Given that `e`
    faces exploded among all the dice, those `e` are independent draws of an
    exploding face, and the `count` last ones of a stopping face. When every
    exploding face is above every stopping face (the top face, `!>=T`), or below
    (`!<=T`), a keep takes one group first; the answer mixes, over the number
    of explosions, a keep within each group. Chains past `depth` are left over.
    """
    explodes_part = single.part(explodes)
    if not explodes_part.outcomes:
        return _kept_plan(single, count, keep, score)
    exploding, stopping, upper_is_exploding = _exploding_and_stopping(single, explodes_part, explodes)
    up, down, each = exploding.denominator, stopping.denominator, single.denominator
    # explosions of one die: t with probability up**t * down / each**(t+1), t <= depth; the rest left over
    per_die = Dist(tuple(range(depth + 1)),
                   tuple(up ** t * down * each ** (depth - t) for t in range(depth + 1)), each ** (depth + 1))
    keeps = _ExplodedKeeps(exploding, stopping, upper_is_exploding, count, keep, score)
    explosions = range(count * depth + 1)
    # each number of explosions is a keep to look up, a sum and a share of the mixture: refused at
    # once when there are too many to go through even that quickly
    seconds = cost.calls(EXPLOSION_CALLS * len(explosions)) + sum_cost(per_die, count)
    cost.check(seconds)
    sketches = [keeps.split(keeps.sketch, exploded) for exploded in explosions]
    bits = count * (depth + 1) * each.bit_length()  # of the answer's denominator, and so of a part's weight
    values, seconds = _checked_mixture(keeps, sketches, bits, seconds)
    low = min(s.shape.low for s in sketches)
    span = max(s.shape.high for s in sketches) - low
    result = Shape(values, span, bits, low)
    return Plan(result, seconds,
                lambda: per_die.sum_of(count).bind(lambda exploded: keeps.split(keeps.keeper, exploded)))


def _exploding_and_stopping(single: Dist, explodes_part: Dist, explodes: Predicate) -> tuple[Dist, Dist, bool]:
    """A die's exploding faces and its stopping faces, each as a die of its own (given it exploded, given it
    stopped), and whether the exploding ones are above the others; refused when one group is not all
    above the other, or when every face explodes."""
    stops_part = single.part(lambda face: not explodes(face))
    if not stops_part.outcomes:
        raise CruxError("every face of this die explodes, so the roll never ends",
                        hint="explode on fewer faces, e.g. only the highest")
    exploding = Dist(explodes_part.outcomes, explodes_part.weights, explodes_part.total)  # given it exploded
    stopping = Dist(stops_part.outcomes, stops_part.weights, stops_part.total)
    if exploding.outcomes[0] > stopping.outcomes[-1]:
        return exploding, stopping, True
    if exploding.outcomes[-1] < stopping.outcomes[0]:
        return exploding, stopping, False
    raise CruxError("exact odds are not available for keeping or counting dice that explode on "
                    "faces between others", hint="explode on the top faces (!>=T) or the bottom ones (!<=T)")


class Sketch(NamedTuple):
    """What a keep will be and what adding it to another costs, for `exploded_plan`'s first pass."""

    shape: Shape
    seconds: float

    def __add__(self, other: object) -> "Sketch":
        assert isinstance(other, Sketch)
        return Sketch(convolve_shape(self.shape, other.shape),
                      self.seconds + other.seconds + convolve_cost(self.shape, other.shape))


Keeper = Callable[[bool, int, str, int], Any]  # (exploding group?, its dice, "kh" | "kl" | "all", kept)


class _ExplodedKeeps:
    """The keeps within the exploding and the stopping dice that `exploded_plan`'s mixture needs.

    Many numbers of explosions share a keep (the stopping dice are always `count`), so each
    distinct keep is computed once; they are sketched first, to refuse at once what would take too long.
    """

    def __init__(self, exploding: Dist, stopping: Dist, upper_is_exploding: bool, count: int,
                 keep: tuple[str, int] | None, score: Score | None) -> None:
        self.groups = {True: exploding, False: stopping}
        self.upper_is_exploding = upper_is_exploding
        self.count = count
        self.keep = keep
        self.score = score
        self.needed: set[tuple[bool, int, str, int]] = set()
        self.done: dict[tuple[bool, int, str, int], Dist] = {}
        self.sketched: dict[tuple[bool, int, str, int], Sketch] = {}

    def split(self, keeper: Keeper, exploded: int) -> Any:
        if self.upper_is_exploding:
            return _split_keep(keeper, True, exploded, False, self.count, self.keep)
        return _split_keep(keeper, False, self.count, True, exploded, self.keep)

    def sketch(self, exploding_group: bool, dice: int, how: str, n: int) -> Sketch:
        call = (exploding_group, dice, how, n)
        self.needed.add(call)
        if call not in self.sketched:  # one object per keep, as `keeper` gives: the mixture's runs are told by it
            self.sketched[call] = Sketch(_keep_shape(self.groups[exploding_group], dice, how, n, self.score), 0.0)
        return self.sketched[call]

    def keeper(self, exploding_group: bool, dice: int, how: str, n: int) -> Dist:
        call = (exploding_group, dice, how, n)
        if call not in self.done:
            self.done[call] = _keep_in(self.groups[exploding_group], dice, how, n, self.score)
        return self.done[call]


def _checked_mixture(keeps: _ExplodedKeeps, sketches: list[Sketch], bits: int,
                     seconds: float) -> tuple[int, float]:
    """The values of the mixture of `sketches` and the seconds of it all, refused as soon as it is over the limit."""
    runs = [s for i, s in enumerate(sketches) if i == 0 or s is not sketches[i - 1]]  # as `bind` goes through them
    seconds += sum(s.seconds for s in runs) + bind_cost([s.shape for s in runs], bits)
    cost.check(seconds)
    values = _covered([(s.shape.low, s.shape.high) for s in sketches])
    check_outcomes(values)  # before the keeps are worked out: they can take long and much memory
    # the mixture's table (weights of `bits`) and the largest part it adds
    cost.check_held(cost.held(values, bits) + max(cost.held(s.shape.outcomes, s.shape.bits) for s in runs))
    for flag, dice, how, n in keeps.needed:
        seconds += _keep_cost(keeps.groups[flag], dice, how, n, keeps.score)
        cost.check(seconds)  # as soon as it is over: the keeps can be many
    return values, seconds


def _covered(ranges: list[tuple[int, int]]) -> int:
    """How many integers the ranges (low, high) cover together: the values a mixture of dense parts has."""
    covered, reached = 0, None
    for low, high in sorted(ranges):
        if reached is not None and low <= reached:
            low = reached + 1
        if high >= low:
            covered += high - low + 1
        reached = high if reached is None else max(reached, high)
    return covered


def _split_keep(keeper: Keeper, upper: bool, uppers: int, lower: bool, lowers: int,
                keep: tuple[str, int] | None) -> Any:
    """Keep or drop among `uppers` dice of the `upper` group and `lowers` of the `lower`, where
    every face of the upper group is above every face of the lower; `keeper(group, dice, how, n)`
    makes each group's keep (a `Dist`, or a `Sketch` of one)."""
    total = uppers + lowers
    if keep is None:
        return keeper(upper, uppers, "all", uppers) + keeper(lower, lowers, "all", lowers)
    how, n = keep
    if how in ("dh", "dl"):  # dropping n keeps the others, from the other end
        how, n = ("kl" if how == "dh" else "kh"), total - n
    n = max(0, min(n, total))
    if how == "kh":
        if n <= uppers:
            return keeper(upper, uppers, "kh", n)
        return keeper(upper, uppers, "all", uppers) + keeper(lower, lowers, "kh", n - uppers)
    if n <= lowers:
        return keeper(lower, lowers, "kl", n)
    return keeper(lower, lowers, "all", lowers) + keeper(upper, uppers, "kl", n - lowers)


def _keep_shape(group: Dist, dice: int, how: str, n: int, score: Score | None) -> Shape:
    values = [score(o) for o in group.outcomes] if score else group.outcomes
    kept = dice if how == "all" else n
    span = kept * (max(values) - min(values))
    return Shape(span + 1, span, dice * group.denominator.bit_length(), kept * min(values))


def _keep_cost(group: Dist, dice: int, how: str, n: int, score: Score | None) -> float:
    if how == "all":
        return sum_cost(group.map(score) if score else group, dice) if dice else 0.0
    return keep_cost(group if how == "kh" else -group, dice, n,
                     (lambda o: score(-o)) if score and how == "kl" else score)


def _keep_in(group: Dist, dice: int, how: str, n: int, score: Score | None) -> Dist:
    if how == "all":
        return _all(group, dice, score)
    return group.keep_highest(dice, n, score) if how == "kh" else group.keep_lowest(dice, n, score)


def _all(single: Dist, count: int, score: Score | None) -> Dist:
    """Every one of `count` dice kept: their sum, or their scores' sum."""
    if count == 0:
        return constant(0)
    return (single.map(score) if score else single).sum_of(count)


def _kept_plan(single: Dist, count: int, keep: tuple[str, int] | None, score: Score | None) -> Plan:
    """`_kept`, planned: a drop is the keep of the others, from the other end."""
    values = [score(o) for o in single.outcomes] if score else single.outcomes
    if keep is None:
        how, n = "all", count
    else:
        how, n = keep
        if how in ("dh", "dl"):
            how, n = ("kl" if how == "dh" else "kh"), count - n
        n = max(0, min(n, count))
    kept = n if how != "all" else count
    low, high = (min(values), max(values)) if score else (values[0], values[-1])  # outcomes are in order
    span = kept * (high - low)
    return Plan(Shape(span + 1, span, count * single.denominator.bit_length(), kept * low),
                _keep_cost(single, count, how, n, score), lambda: _kept(single, count, keep, score))


def _kept(single: Dist, count: int, keep: tuple[str, int] | None, score: Score | None) -> Dist:
    if keep is None:
        return _all(single, count, score)
    how, n = keep
    if how == "kh":
        return single.keep_highest(count, n, score)
    if how == "kl":
        return single.keep_lowest(count, n, score)
    if how == "dh":
        return single.drop_highest(count, n, score)
    return single.drop_lowest(count, n, score)


def explosion_depth(count: int, sides: int | str, explode: bool | Predicate = True,
                    reroll: Predicate | None = None, reroll_once: bool = False) -> int:
    """The default cap `dice_term` uses for `count` exploding dice (for the odds' text)."""
    single = base_die(sides)
    top = single.outcomes[-1]
    if reroll is not None:
        single = single.reroll_once(reroll) if reroll_once else single.reroll(reroll)
    explodes: Predicate = (lambda face: face == top) if explode is True else explode  # type: ignore[assignment]
    return default_depth(single.probability(explodes), count)


def countdown_odds(sides: int) -> Odds:
    """`Cd8`: a 1 shrinks the die a size (d8 -> d6); a 1 on Cd4 ends it."""
    face = die(sides)
    one = face.probability(lambda f: f == 1)
    change = "ends" if sides == COUNTDOWN_SIZES[0] else "shrinks"
    return Odds(kind="countdown", outcomes=rows({"holds": 1 - one, change: one}),
                distribution=Distribution.of(face), label="face", mean=face.mean())

