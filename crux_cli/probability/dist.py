"""Exact distributions over integers: integer weights over one shared denominator.

A `Dist` is immutable. Its weights are Python ints and its probabilities are
`weight / denominator`; Fractions appear only when a caller asks to present
them. The weights may sum to *less* than the denominator: the gap is the
*leftover*, probability the distribution does not account for (an exploding
chain cut off at its depth cap). Every operation keeps that meaning: an event
is counted only when every die it depends on is counted.

Speed comes from treating a distribution as a polynomial (weight of outcome
``o`` is the coefficient of ``x**o``) and packing the coefficients into one big
integer, a slot of fixed width each, so that a convolution is one big-integer
multiplication and N copies one `pow` (CPython does those in C). No operation
enumerates dice combinations: highest/lowest of n is the cumulative
distribution to the n-th power, keep-k-of-n a dynamic programme over sorted
outcomes on packed polynomials.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from itertools import accumulate
from math import gcd, lcm
from operator import add, mul, sub

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.probability import cost, polynomial
from crux_cli.probability.cost import STILL_ROLLS, dense_enough, shape
from crux_cli.probability.cost import Predicate as Predicate  # a distribution's names, kept here too
from crux_cli.probability.cost import Score as Score
from crux_cli.probability.polynomial import (
    dense_of,
    pack,
    power_by_recurrence,
    slot_bytes,
    uniform_power,
    unpack,
)

# The odds size limit bounds time: each step below is refused before its work when the model of its cost
# (crux_cli.probability.cost, where every prediction and its fitted constants live) passes the limit.
MAX_OUTCOMES = 300_000  # distinct values one distribution may have (a row each in JSON)
NOTHING_LEFT = Fraction(0)  # the leftover of a distribution that counts every outcome
LEFTOVER_TARGET = Fraction(1, 10**12)  # default explosion depth: leftover below this



class Dist:
    """An exact distribution over integers (see the module docstring)."""

    __slots__ = ("_total", "denominator", "outcomes", "weights")

    outcomes: tuple[int, ...]  # ascending, each with a positive weight
    weights: tuple[int, ...]
    denominator: int  # >= sum(weights); the gap is the leftover
    _total: int  # sum(weights) once asked for (or given); -1 until then

    def __init__(self, outcomes: tuple[int, ...], weights: tuple[int, ...], denominator: int, total: int = -1) -> None:
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "denominator", denominator)
        object.__setattr__(self, "_total", total)  # set, not left unset: an unset slot is read by raising

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Dist is immutable")

    # ----- construction -------------------------------------------------------------------------

    @staticmethod
    def from_weights(weights: Mapping[int, int], denominator: int | None = None) -> Dist:
        """From outcome -> integer weight; the denominator defaults to the sum of the weights."""
        if any(w < 0 for w in weights.values()):
            raise ValueError("weights must not be negative")
        total = sum(weights.values())
        denominator = total if denominator is None else denominator
        if denominator <= 0 or denominator < total:
            raise ValueError("the denominator must be positive and at least the sum of the weights")
        return _from_map(dict(weights), denominator)

    # ----- presentation -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.outcomes)

    def __repr__(self) -> str:
        body = ", ".join(f"{o}: {w}" for o, w in zip(self.outcomes, self.weights, strict=True))
        return f"Dist({{{body}}} / {self.denominator})"

    def __eq__(self, other: object) -> bool:
        """Equal when every outcome has the same probability (denominators may differ)."""
        if not isinstance(other, Dist):
            return NotImplemented
        return (self.outcomes == other.outcomes
                and all(a * other.denominator == b * self.denominator
                        for a, b in zip(self.weights, other.weights, strict=True))
                and self.total * other.denominator == other.total * self.denominator)

    def __hash__(self) -> int:
        reduced = self.reduced()
        return hash((reduced.outcomes, reduced.weights, reduced.denominator))

    @property
    def total(self) -> int:
        """The sum of the weights (the denominator less the leftover's share), added up once."""
        total = self._total
        if total < 0:
            total = sum(self.weights)
            object.__setattr__(self, "_total", total)
        return total

    @property
    def leftover(self) -> Fraction:
        """Probability left uncounted (explosions past the depth cap); 0 for most distributions."""
        uncounted = self.denominator - self.total
        # most have none: the shared zero, rather than a Fraction made and reduced every time
        return Fraction(uncounted, self.denominator) if uncounted else NOTHING_LEFT

    def items(self) -> list[tuple[int, Fraction]]:
        return [(o, Fraction(w, self.denominator)) for o, w in zip(self.outcomes, self.weights, strict=True)]

    def probability(self, predicate: Predicate) -> Fraction:
        hits = sum(w for o, w in zip(self.outcomes, self.weights, strict=True) if predicate(o))
        return Fraction(hits, self.denominator)

    def at_least(self, k: int) -> Fraction:
        return self.probability(lambda o: o >= k)

    def mean(self) -> Fraction:
        """Sum of outcome x probability over the counted outcomes (exact when there is no leftover)."""
        return Fraction(sum(map(mul, self.outcomes, self.weights)), self.denominator)

    def reduced(self) -> Dist:
        """The same distribution with weights and denominator divided by their common factor."""
        common = gcd(self.denominator, *self.weights)
        if common == 1:
            return self
        return Dist(self.outcomes, tuple(w // common for w in self.weights), self.denominator // common)

    # ----- arithmetic of independent terms ------------------------------------------------------

    def __neg__(self) -> Dist:
        return Dist(tuple(-o for o in reversed(self.outcomes)), self.weights[::-1], self.denominator)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(tuple(o + other for o in self.outcomes), self.weights, self.denominator)
        return _convolve(self, other)

    __radd__ = __add__

    def __sub__(self, other: Dist | int) -> Dist:
        return self + (-other)

    def __rsub__(self, other: int) -> Dist:
        return (-self) + other

    def __mul__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return self.map(lambda o: o * other)
        return _combine(self, other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other: Dist | int) -> Dist:
        """Division rounding down (towards minus infinity), as a dice expression's `/` (crux-notation(7))."""
        if isinstance(other, int):
            if other == 0:
                raise CruxError("division by zero", hint="divide by a number other than 0")
            return self.map(lambda o: o // other)
        if 0 in other.outcomes:
            raise CruxError("the divisor can be 0, so these odds are undefined",
                            hint="make sure the term after '/' can never be 0")
        return _combine(self, other, lambda a, b: a // b)

    def __rfloordiv__(self, other: int) -> Dist:
        return constant(other) // self

    def map(self, function: Callable[[int], int]) -> Dist:
        """The distribution of function(outcome)."""
        table: dict[int, int] = {}
        for o, w in zip(self.outcomes, self.weights, strict=True):
            key = function(o)
            table[key] = table.get(key, 0) + w
        return _from_map(table, self.denominator)

    def bind(self, function: Callable[[int], Dist | int]) -> Dist:
        """The mixture: each outcome o, weighted by its probability, followed by function(o).

        One part is held at a time (each may be large: `exploded_plan`'s keeps), and a run of
        outcomes whose parts are one and the same distribution adds their weights first and goes
        through its values once (`cost.bind_cost` counts it so)."""
        table: dict[int, int] = {}
        common = 1  # of the parts added so far
        run: Dist | None = None
        weight = 0

        def add(part: Dist, w: int) -> None:
            nonlocal common
            if common % part.denominator:  # a new denominator: what is added so far is scaled up to it
                wider = lcm(common, part.denominator)
                for o in table:
                    table[o] *= wider // common
                common = wider
            scale = w * (common // part.denominator)
            for o, pw in zip(part.outcomes, part.weights, strict=True):
                table[o] = table.get(o, 0) + pw * scale

        for o, w in zip(self.outcomes, self.weights, strict=True):
            part = _as_dist(function(o))
            if part is run:
                weight += w
                continue
            if run is not None:
                add(run, weight)
            run, weight = part, w
        if run is not None:
            add(run, weight)
        return _from_map(table, self.denominator * common)

    # ----- several dice ------------------------------------------------------------------------

    def sum_of(self, count: int) -> Dist:
        """The total of `count` independent copies (exponentiation, not repeated addition)."""
        if count < 0:
            raise ValueError("count must not be negative")
        if count == 0:
            return constant(0)
        if count == 1:
            return self
        if len(self) == 1:
            return Dist((self.outcomes[0] * count,), (self.weights[0] ** count,), self.denominator ** count)
        lo, span = self.outcomes[0], self.outcomes[-1] - self.outcomes[0]
        if dense_enough(self):
            if len(self) == span + 1:  # no gaps: every total of the range has a weight
                check_outcomes(count * span + 1)
            cost.check(cost.sum_cost(self, count))
            slots = count * span + 1
            dense = dense_of(self)
            if len(set(dense)) == 1:  # NdS: uniform over a run of integers
                scale = dense[0] ** count
                dense = uniform_power(span, count)
                if scale != 1:
                    dense = [c * scale for c in dense]
            elif cost.by_recurrence(self, count):
                dense = power_by_recurrence(dense, count)
            else:
                width = slot_bytes(self.total ** count)
                dense = unpack(pack(dense, width) ** count, width, slots)
            return _from_dense(count * lo, dense, self.denominator ** count)
        result, square, n = constant(0), self, count
        while n:
            if n & 1:
                result = result + square
            n >>= 1
            if n:
                square = square + square
        return result

    def highest(self, count: int) -> Dist:
        """The highest of `count` copies: P(max <= o) is the cumulative probability to the count-th power."""
        _check_count(count)
        cost.check(cost.highest_cost(self, count))
        cumulative, previous, weights = 0, 0, []
        for w in self.weights:
            cumulative += w
            power = cumulative ** count
            weights.append(power - previous)
            previous = power
        return Dist(self.outcomes, tuple(weights), self.denominator ** count)

    def lowest(self, count: int) -> Dist:
        return -((-self).highest(count))

    def keep_highest(self, count: int, keep: int, score: Score | None = None) -> Dist:
        """The sum of the `keep` highest of `count` copies, or of `score(face)` over them
        (e.g. 1 for a success, 0 otherwise: how many kept dice succeed)."""
        keep = max(0, min(keep, count))
        if count == 0 or keep == 0:
            return Dist((0,), (self.total ** count,), self.denominator ** count)
        if len(self) == 1:  # one value (the exploding face of `exploded_plan`): every die shows it
            value = self.outcomes[0] if score is None else score(self.outcomes[0])
            return Dist((value * keep,), (self.total ** count,), self.denominator ** count)
        if keep == count:
            return (self.map(score) if score else self).sum_of(count)
        if keep == 1:
            return self.highest(count).map(score) if score else self.highest(count)
        return _from_dense(*polynomial.keep_highest(self, count, keep, score))

    def keep_lowest(self, count: int, keep: int, score: Score | None = None) -> Dist:
        if score is None:
            return -((-self).keep_highest(count, keep))
        return (-self).keep_highest(count, keep, lambda o: score(-o))

    def drop_highest(self, count: int, drop: int, score: Score | None = None) -> Dist:
        return self.keep_lowest(count, count - max(0, drop), score)

    def drop_lowest(self, count: int, drop: int, score: Score | None = None) -> Dist:
        return self.keep_highest(count, count - max(0, drop), score)

    # ----- one die, changed -------------------------------------------------------------------

    def explode(self, depth: int | None = None, *, on: Predicate | None = None, count: int = 1,
                truncate: bool = False) -> Dist:
        """One die that adds a fresh roll of itself while it shows an exploding face.

        `on` picks the exploding faces (default: the highest outcome). `depth` is the
        most fresh rolls one die may add; by default the smallest depth that leaves less
        than 1e-12 uncounted across `count` such dice (capped at the engine's
        EXPLOSION_DEPTH). Past the cap the chain is the leftover, or, with `truncate`,
        the last exploding face simply stands (as the engine does at its own cap, and
        as icepool's `explode(depth=...)` does).
        """
        top = self.outcomes[-1]
        on = on or (lambda o: o == top)
        exploding = self.part(on)
        stopping = self.part(lambda o: not on(o))
        if not exploding.outcomes:
            return self
        if not stopping.outcomes:
            raise CruxError("every face of this die explodes, so the roll never ends",
                            hint="explode on fewer faces, e.g. only the highest")
        if depth is None:
            depth = default_depth(Fraction(exploding.total, self.denominator), count)
        top, low, high = exploding.outcomes[0], stopping.outcomes[0], stopping.outcomes[-1]
        if len(exploding) == 1 and top > high and top + low > high:
            return Dist(*polynomial.layered_chain(stopping, exploding, depth, truncate))
        chain = _sum_parts(stopping, exploding) if truncate else stopping
        for _ in range(depth):
            chain = _sum_parts(_scale(stopping, chain.denominator), _convolve(exploding, chain))
        return chain

    def explode_sum(self, count: int, depth: int | None = None, *, on: Predicate | None = None,
                    truncate: bool = False) -> Dist:
        """The total of `count` dice that explode as `explode` says: `explode(...).sum_of(count)`.

        When one face (above 0) explodes and the chains are cut (no `truncate`), the total is the
        stopping faces' sum plus that face times the number of explosions k among all
        the dice, and k has a closed form: the ways are those of (1 + z + ... + z**depth)
        ** count, each weighted up**k * each**(count*depth - k). So no chain is summed.
        """
        top = self.outcomes[-1]
        on = on or (lambda o: o == top)
        exploding = self.part(on)
        stopping = self.part(lambda o: not on(o))
        if (count == 0 or not exploding.outcomes or not stopping.outcomes or len(exploding) > 1
                or exploding.outcomes[0] <= 0 or truncate):
            return self.explode(depth, on=on, count=count, truncate=truncate).sum_of(count)
        if depth is None:
            depth = default_depth(Fraction(exploding.total, self.denominator), count)
        face, up = exploding.outcomes[0], exploding.weights[0]
        return _from_dense(*polynomial.exploding_total(stopping.sum_of(count), stopping.denominator, face, up,
                                                       count, depth))

    def reroll_once(self, on: Predicate) -> Dist:
        """Roll again, once, when the die shows a face `on` picks; the second roll stands."""
        redo = self.part(on).total
        table = {o: w * (0 if on(o) else self.denominator) + redo * w
                 for o, w in zip(self.outcomes, self.weights, strict=True)}
        return _from_map(table, self.denominator ** 2)

    def reroll(self, on: Predicate) -> Dist:
        """Roll again as long as the die shows a face `on` picks: the die conditioned on the others."""
        kept = self.part(lambda o: not on(o))
        if not kept.outcomes:
            raise CruxError("every face of this die is rerolled, so the roll never ends",
                            hint="reroll fewer faces")
        return Dist(kept.outcomes, kept.weights, self.denominator - self.part(on).total)

    def successes(self, count: int, on: Predicate) -> Dist:
        """How many of `count` copies show a face `on` picks."""
        hit = self.part(on).total
        miss = self.total - hit
        return _from_map({0: miss, 1: hit}, self.denominator).sum_of(count)

    def part(self, keep: Predicate) -> Dist:
        """The outcomes `keep` picks, over the same denominator (a sub-distribution: the rest
        becomes leftover). Parts of one distribution are put back together with `mix`."""
        pairs = [(o, w) for o, w in zip(self.outcomes, self.weights, strict=True) if keep(o)]
        return Dist(tuple(o for o, _ in pairs), tuple(w for _, w in pairs), self.denominator)


# ----- the dice of dice expressions -----------------------------------------------------------------


@lru_cache(maxsize=256)
def die(sides: int) -> Dist:
    """A fair die numbered 1..sides."""
    if sides < 1:
        raise CruxError("a die needs at least one side")
    return Dist(tuple(range(1, sides + 1)), (1,) * sides, sides, sides)


def constant(value: int) -> Dist:
    return Dist((value,), (1,), 1)


def fudge() -> Dist:
    """dF: -1, 0 or +1."""
    return Dist((-1, 0, 1), (1, 1, 1), 3)


def d66() -> Dist:
    """Two d6 read as tens then ones: 11..66."""
    return Dist(tuple(10 * t + u for t in range(1, 7) for u in range(1, 7)), (1,) * 36, 36)


def percentile() -> Dist:
    """d%: 1..100."""
    return die(100)


def pool(count: int, single: Dist, *, keep_highest: int | None = None, keep_lowest: int | None = None,
         drop_highest: int | None = None, drop_lowest: int | None = None) -> Dist:
    """`count` dice like `single`, summed after at most one keep/drop (khN, klN, dhN, dlN)."""
    if keep_highest is not None:
        return single.keep_highest(count, keep_highest)
    if keep_lowest is not None:
        return single.keep_lowest(count, keep_lowest)
    if drop_highest is not None:
        return single.drop_highest(count, drop_highest)
    if drop_lowest is not None:
        return single.drop_lowest(count, drop_lowest)
    return single.sum_of(count)


def mix(*parts: Dist) -> Dist:
    """Disjoint parts of one experiment (each a sub-distribution) as one distribution.

    Each part's weights count its own events over its own denominator; they are
    brought to a common denominator and added. The parts' leftovers stay leftover.
    """
    common = lcm(*(part.denominator for part in parts))
    table: dict[int, int] = {}
    for part in parts:
        scale = common // part.denominator
        for o, w in zip(part.outcomes, part.weights, strict=True):
            table[o] = table.get(o, 0) + w * scale
    return _from_map(table, common)


def default_depth(p_explode: Fraction, count: int = 1, target: Fraction = LEFTOVER_TARGET) -> int:
    """The fewest fresh rolls per die that leave less than `target` uncounted over `count` dice.

    A die's chain is cut with probability p**(depth+1); over `count` dice the
    leftover is at most count * p**(depth+1). Capped at the engine's EXPLOSION_DEPTH.
    """
    if p_explode <= 0:
        return 0
    depth = 0
    while count * p_explode ** (depth + 1) >= target and depth < EXPLOSION_DEPTH:
        depth += 1
    return depth


def add_dice(dist: Dist, count: int, single: Dist, total: Dist | None = None) -> Dist:
    """`dist` plus `count` copies of `single` (whose sum is `total`, if it was worked out): when
    `dist`'s weights are long and `single` is a fair die, a cheap slide per die beats one sum with
    their total, whose weights would be padded to the longest."""
    if count == 0:
        return dist
    total = single.sum_of(count) if total is None else total
    slides = cost.slides_cost(shape(dist), count, single)
    if slides is not None and slides < cost.convolve_estimate(dist, total):
        for _ in range(count):
            dist = dist + single
        return dist
    return dist + total


# ----- internals -----------------------------------------------------------------------------------


def _as_dist(value: Dist | int) -> Dist:
    return constant(value) if isinstance(value, int) else value


def _check_count(count: int) -> None:
    if count < 1:
        raise ValueError("count must be at least 1")


def _from_map(table: dict[int, int], denominator: int) -> Dist:
    outcomes = tuple(sorted(o for o, w in table.items() if w))
    if len(outcomes) > MAX_OUTCOMES:
        raise _too_many(len(outcomes))
    return Dist(outcomes, tuple(table[o] for o in outcomes), denominator)


def check_outcomes(values: int) -> None:
    """Refuse, before the work, a distribution that will have more values than MAX_OUTCOMES: once the
    time limit lets more through on a fast machine, the count after the work comes too late."""
    if values > MAX_OUTCOMES:
        raise _too_many(values)


def _too_many(values: int) -> LimitError:
    return LimitError(f"these exact odds pass the odds size limit: {values:,} values, where the limit is "
                      f"{MAX_OUTCOMES:,}", hint="ask for fewer dice or fewer sides" + STILL_ROLLS)


def _from_dense(low: int, dense: list[int], denominator: int) -> Dist:
    outcomes = tuple(low + offset for offset, w in enumerate(dense) if w)
    if len(outcomes) > MAX_OUTCOMES:
        raise _too_many(len(outcomes))
    return Dist(outcomes, tuple(filter(None, dense)), denominator)


def _convolve(a: Dist, b: Dist) -> Dist:
    """The sum of two independent distributions, by the cheapest way that applies."""
    if not a.outcomes or not b.outcomes:  # an empty part (every event left over) stays empty
        return Dist((), (), a.denominator * b.denominator)
    estimate, method = min(_convolve_methods(a, b), key=lambda pair: pair[0])
    cost.check(estimate)
    return method()


def _convolve_methods(a: Dist, b: Dist) -> list[tuple[float, Callable[[], Dist]]]:
    """The ways to add two distributions that apply (`cost.convolve_ways` says which), each with its cost."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    methods: dict[str, Callable[[], Dist]] = {
        "shift": lambda: _shift(a, b),
        "slide a": partial(_slide, b, a),
        "slide b": partial(_slide, a, b),
        "scaled copies": lambda: _scaled_copies(short, long),
        "packed": lambda: _packed_sum(a, b),
        "pair by pair": lambda: _combine(a, b, lambda x, y: x + y),
    }
    return [(seconds, methods[way]) for way, seconds in cost.convolve_ways(a, b).items()]


def _shift(a: Dist, b: Dist) -> Dist:
    """`a + b` when one of them has a single value: the other, moved and scaled."""
    single, other = (a, b) if len(a) == 1 else (b, a)
    shift, weight = single.outcomes[0], single.weights[0]
    return Dist(tuple(o + shift for o in other.outcomes), tuple(w * weight for w in other.weights),
                a.denominator * b.denominator)


def _scaled_copies(short: Dist, long: Dist) -> Dist:
    """`short + long` as one copy of `long`, shifted and scaled, per value of `short`."""
    dense, low = dense_of(long), short.outcomes[0]
    totals = [0] * (short.outcomes[-1] - low + len(dense))
    for value, weight in zip(short.outcomes, short.weights, strict=True):
        at = value - low
        totals[at:at + len(dense)] = map(add, totals[at:at + len(dense)], map(weight.__mul__, dense))
    return _from_dense(low + long.outcomes[0], totals, short.denominator * long.denominator)


def _packed_sum(a: Dist, b: Dist) -> Dist:
    """`a + b` as one product of packed polynomials."""
    span = (a.outcomes[-1] - a.outcomes[0]) + (b.outcomes[-1] - b.outcomes[0]) + 1
    bound = min(a.total * b.total, max(a.weights) * max(b.weights) * min(len(a), len(b)))
    width = slot_bytes(bound)
    packed = pack(dense_of(a), width) * pack(dense_of(b), width)
    return _from_dense(a.outcomes[0] + b.outcomes[0], unpack(packed, width, span), a.denominator * b.denominator)


def _slide(other: Dist, run: Dist) -> Dist:
    """`other + run` where `run` has one weight on consecutive values (a fair die): each total is
    that weight times a window of `other`, a difference of two prefix sums."""
    dense, width, weight = dense_of(other), len(run), run.weights[0]
    prefix = [0, *accumulate(dense)]
    upper = prefix[1:] + [prefix[-1]] * (width - 1)  # the sum up to each total's last die face
    lower = [0] * (width - 1) + prefix[:-1]  # less the sum before its first
    totals = list(map(sub, upper, lower))
    if weight != 1:
        totals = list(map(weight.__mul__, totals))
    return _from_dense(other.outcomes[0] + run.outcomes[0], totals, other.denominator * run.denominator)


def _combine(a: Dist, b: Dist, operation: Callable[[int, int], int]) -> Dist:
    """Any binary operation of independent terms, pair by pair."""
    cost.check(cost.combine_cost(shape(a), shape(b)))
    table: dict[int, int] = {}
    for x, wx in zip(a.outcomes, a.weights, strict=True):
        for y, wy in zip(b.outcomes, b.weights, strict=True):
            key = operation(x, y)
            table[key] = table.get(key, 0) + wx * wy
    return _from_map(table, a.denominator * b.denominator)


def _scale(dist: Dist, factor: int) -> Dist:
    """The same probabilities over a denominator `factor` times larger."""
    return Dist(dist.outcomes, tuple(w * factor for w in dist.weights), dist.denominator * factor)


def _sum_parts(a: Dist, b: Dist) -> Dist:
    """Two disjoint parts of one distribution (same denominator) put together."""
    table = dict(zip(a.outcomes, a.weights, strict=True))
    for o, w in zip(b.outcomes, b.weights, strict=True):
        table[o] = table.get(o, 0) + w
    return _from_map(table, a.denominator)


