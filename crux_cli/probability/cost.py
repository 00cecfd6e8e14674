"""The odds limit: a bound on the work an answer takes, predicted from the statement before the work is done.

Exact odds are integers of up to thousands of digits, so the work an answer takes
depends on how many there are and how long, not on the dice alone. Each step of
`dist` has a model of its own cost, here (the last part of this module), built from
the two things CPython does: big multiplications (schoolbook, then Karatsuba) and
loops over lists of big integers. Where `dist` has several ways to one answer, the
same models pick the cheapest (`convolve_ways`, `keep_ways`, `by_recurrence`).
A statement's odds add up the steps they will take, and the presentation of the
answer (a float per value for the text, an exact fraction per value for JSON),
and are refused before any of it when the total passes `LIMIT_SECONDS`.

The unit of work is a *reference second*: a second of the project's 2-core machine, busy, where the
constants were fitted (`python tools/calibrate_odds.py` prints every family's predictions beside
measured times). A prediction is a function of the statement alone — no clock, no probe of the
machine — so the same statement is answered or refused the same way on any machine at any load, and
a script can rely on `crux odds` (issue 33; an earlier crux scaled predictions by a timed probe, and a
busy machine refused what a quiet one answered). What the user is promised in time, every request
answered or refused within 2 s of CPU on the project's machine, is checked by
`tests/bench/bench_odds.py --memory`, not by a timed test.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from math import ceil, log2
from typing import TYPE_CHECKING, NamedTuple, Protocol

from crux_cli.core.errors import LimitError

# No `from __future__ import annotations` here nor in generic.py: with it, typing.NamedTuple (`Shape`, and
# generic's `Plan` and `Sketch`) turned each field's string annotation into a ForwardRef and compiled it, at
# every `crux odds`; the first compile() of a process also builds the ast module's types (core/lines.py).
Predicate = Callable[[int], bool]
Score = Callable[[int], int]  # what a kept face counts for, when not its own value

if TYPE_CHECKING:
    class Weighted(Protocol):
        """A distribution as the cost model and the algorithms (`polynomial.py`) read it; a `dist.Dist` is
        one: outcomes ascending, each with a positive weight, over a denominator at least their total."""

        @property
        def outcomes(self) -> tuple[int, ...]: ...

        @property
        def weights(self) -> tuple[int, ...]: ...

        @property
        def denominator(self) -> int: ...

        @property
        def total(self) -> int: ...

        def __len__(self) -> int: ...

        def map(self, function: Callable[[int], int]) -> "Weighted": ...  # each outcome o as function(o)

        def part(self, keep: Predicate) -> "Weighted": ...  # the outcomes `keep` picks, same denominator
else:
    Weighted = object  # the Protocol is mypy's; at run time the annotations below only need the name

# Of predicted work per answer, in reference seconds. The predictions run from about half to 1.6 times
# what the work takes there, family by family (tools/calibrate_odds.py): 0.75 predicted is at most about
# 1.4 s of work on the busy reference machine, under 2 s of CPU with start-up and reading (0.2 s).
STILL_ROLLS = "; rolling it still works"  # a hint's end when only the odds are refused (the runner reads it)
FEWER_DICE = "ask for fewer dice, fewer sides or fewer kept"  # the hint of a refusal (`fewer`: a rule set may word it)

LIMIT_SECONDS = 0.75
# Seconds of the project's machine per reference second: a constant, not a measurement. The reference's
# constants were fitted on the project's machine, busy; the old timed probe read it at 0.3 quiet and
# 0.45-0.52 with a test suite and other work on both cores (load 3). Half is the figure for a machine at
# work: 0.75 s then admits 1.5 reference seconds, which a busy project machine does in 0.8-2.4 s
# (0.2 s of start-up aside) and a quiet one in well under a second (tests/bench/bench_odds.py --memory).
SPEED = 0.5
LIMIT_BYTES = 40_000_000  # the largest packed polynomial (a product holds three): under 200 MB in all
# What a mixture of large parts (`Dist.bind`) holds at once, as Python objects: its table, the part it
# adds and the answer made of them. Start-up (20 MB) and the rendering take the rest of 200 MB.
LIMIT_HELD = 160_000_000
VALUE_BYTES = 160  # per value held besides its weight's digits: int objects, a dict entry, tuple slots, copies
HELD_BITS_PER_BYTE = 6  # a weight's digits as the allocator holds them (30 bits in 4 bytes, and its rounding)
# The rows of an answer held at once, predicted from its shape (tests/bench/bench_odds.py --memory): each value's
# weight (its bytes and about 60 more of object and list), in about 1.5 lists at the peak (1000d200 peaked at
# 305 MB, 300d1000 at 206 MB); with --json, the exact fractions' text too (two numbers of the weight's digits
# and about 80 characters a row), in about 3 copies (70d2000 peaked at 274 MB). Under LIMIT_ROW_BYTES, a whole
# process, start-up included (about 22 MB), stays under 200 MB.
LIMIT_ROW_BYTES = 170_000_000
ROW_BYTES, ROW_COPIES = 60, 1.5
JSON_ROW_CHARS, JSON_COPIES = 80, 3.0

KARATSUBA_DIGITS = 70  # CPython switches from schoolbook to Karatsuba at 70 digits of 30 bits
SCHOOLBOOK = 1.6e-9  # seconds per digit x digit
KARATSUBA = 1.2e-8  # seconds per (digits ** 1.585)
SQUARE = 0.7  # a square costs CPython this share of a product of two numbers as long (measured: 0.45-0.9)
PER_ITEM = 8e-8  # seconds per big integer a loop touches (a comprehension, accumulate, map)
PER_ITEM_BIT = 8e-11  # and per bit of it
PER_PASS = 5e-8  # seconds per big integer of a pass in C (accumulate, map of an operator)
PER_PASS_BIT = 5e-11  # and per bit of it
PER_CALL = 3e-6  # seconds per call of a small interpreted function
STR_DIGIT_SQUARED = 1.9e-11  # str(n) is quadratic in the digits of n
GCD_DIGIT_SQUARED = 2.9e-11  # gcd(a, b), to reduce an exact fraction: per digit of a times digit of b
EXACT_DIGIT = 4e-9  # and the JSON text of each digit
JSON_ROW = 1.2e-5  # seconds per value of a JSON distribution besides its digits (a dict, a rounded float)
LOG10_2 = 0.30103

exact_rows: ContextVar[bool] = ContextVar("exact_rows", default=False)  # JSON: a fraction for every value
predicted: ContextVar[list[float] | None] = ContextVar("predicted", default=None)  # see `tallied`


def here(seconds: float) -> float:
    """A reference prediction in seconds of the project's machine (`SPEED`): a constant, never a measurement,
    so the same statement gives the same figure everywhere (a comparison tallies the figures, `tallied`)."""
    seconds *= SPEED
    counts = predicted.get()
    if counts and seconds > counts[-1]:
        counts[-1] = seconds
    return seconds


@contextmanager
def tallied() -> Iterator[list[float]]:
    """Count, inside the block, the largest prediction each statement's checks make: the caller appends a
    0.0 before each statement and reads the list (a comparison holds their sum to a limit, in the same
    units as every other limit here, so it too is the same on any machine)."""
    counts: list[float] = []
    token = predicted.set(counts)
    try:
        yield counts
    finally:
        predicted.reset(token)


class Shape(NamedTuple):
    """What the cost of a distribution depends on: how many values, over what range, how long."""

    outcomes: int  # values with a weight
    span: int  # highest value less the lowest
    bits: int  # of the denominator, which bounds every weight
    low: int = 0  # the lowest value
    weight_bits: int | None = None  # of a typical weight, when far below `bits` (an exploding tail)

    @property
    def high(self) -> int:
        return self.low + self.span


def product(bits_a: float, bits_b: float) -> float:
    """Seconds for one multiplication of integers of these sizes."""
    small, large = sorted((max(bits_a, 30.0) / 30, max(bits_b, 30.0) / 30))
    if small < KARATSUBA_DIGITS:
        return SCHOOLBOOK * small * large
    karatsuba: float = small ** 1.585  # per piece: CPython cuts the larger into pieces of the smaller
    return KARATSUBA * (large / small) * karatsuba


def items(count: float, bits: float) -> float:
    """Seconds for an interpreted loop doing a few operations on each of `count` integers of `bits`."""
    return count * (PER_ITEM + PER_ITEM_BIT * bits)


def passes(count: float, bits: float) -> float:
    """Seconds for `count` integers of `bits` through a loop in C (`accumulate`, `map(add, ...)`)."""
    return count * (PER_PASS + PER_PASS_BIT * bits)


def calls(count: float) -> float:
    """Seconds for `count` calls of a small interpreted function."""
    return count * PER_CALL


def packed(slots: float, width_bits: float) -> float:
    """Seconds to pack and unpack `slots` coefficients of `width_bits` each (bytes, then ints)."""
    check_memory(slots * width_bits / 8)
    return items(2 * slots, width_bits)


def presentation(shape: Shape, exact: bool | None = None) -> float:
    """Seconds to show a distribution: a float per value, or (JSON, `exact`) a reduced fraction per value."""
    floats = items(2 * shape.outcomes, shape.bits)
    if not (exact_rows.get() if exact is None else exact):
        return floats
    bottom = shape.bits * LOG10_2  # digits of the denominator, and of a typical numerator
    top = (shape.bits if shape.weight_bits is None else shape.weight_bits) * LOG10_2
    each = (JSON_ROW + EXACT_DIGIT * (top + bottom) + STR_DIGIT_SQUARED * (top * top + bottom * bottom)
            + GCD_DIGIT_SQUARED * top * bottom)
    return floats + shape.outcomes * each


def check(seconds: float) -> None:
    """Refuse one step predicted to pass the odds limit, naming it and how far past it goes."""
    if here(seconds) > LIMIT_SECONDS:
        raise too_big(here(seconds))


def check_answer(seconds: float, result: Shape | None, fewer: str = FEWER_DICE) -> None:
    """Refuse a whole answer (its steps, `seconds`, and showing `result`) that would pass the limit,
    with a hint to drop --json when only the exact fractions of JSON make it too long. `fewer` is the hint
    otherwise: a rule set whose statements have no sides or keeps words it its own way."""
    if result is not None:
        check_rows(result, fewer)
    shown = presentation(result) if result is not None else 0.0
    if here(seconds + shown) <= LIMIT_SECONDS:
        return
    text_only = (result is not None and exact_rows.get()
                 and here(seconds + presentation(result, False)) <= LIMIT_SECONDS)
    error = too_big(here(seconds + shown), fewer)
    if text_only:
        error = error.with_hint("exact fractions for every value are what pass it: `crux odds` without --json "
                                "answers it (its rows rounded)" + STILL_ROLLS)
    raise error


def row_bytes(shape: Shape, exact: bool) -> float:
    """The memory an answer of this shape holds at its peak, besides start-up (see LIMIT_ROW_BYTES)."""
    rows = shape.outcomes * (shape.bits / 8 + ROW_BYTES) * ROW_COPIES
    if not exact:
        return rows
    weight = shape.bits if shape.weight_bits is None else shape.weight_bits
    return rows + shape.outcomes * ((shape.bits + weight) * LOG10_2 + JSON_ROW_CHARS) * JSON_COPIES


def check_rows(shape: Shape, fewer: str = FEWER_DICE) -> None:
    """Refuse an answer whose rows would pass the memory the odds promise (200 MB in all)."""
    size = row_bytes(shape, exact_rows.get())
    if size <= LIMIT_ROW_BYTES:
        return
    text_only = exact_rows.get() and row_bytes(shape, False) <= LIMIT_ROW_BYTES
    raise LimitError(f"these exact odds pass the odds size limit: their {shape.outcomes:,} rows of exact weights "
                     f"would hold about {size / 1e6:,.0f} MB, where the limit is {LIMIT_ROW_BYTES // 1_000_000} MB",
                     hint="exact fractions for every value are what pass it: `crux odds` without --json answers "
                          "it (its rows rounded)" + STILL_ROLLS if text_only else
                          fewer + STILL_ROLLS)


def check_memory(size: float) -> None:
    if size > LIMIT_BYTES:
        raise LimitError(f"these exact odds pass the odds size limit: one polynomial of {size / 1e6:,.0f} MB of "
                         f"exact weights, where the limit is {LIMIT_BYTES // 1_000_000} MB",
                         hint=FEWER_DICE + STILL_ROLLS)


def held(values: float, bits: float) -> float:
    """Bytes that `values` exact weights of `bits` each take as Python objects, with what holds them
    (fitted on exploding keeps of 30 to 45 dice: the process's peak was this and its start-up, or less)."""
    return values * (bits / HELD_BITS_PER_BYTE + VALUE_BYTES)


def check_held(size: float) -> None:
    """Refuse an answer whose distributions would hold more than LIMIT_HELD bytes at once."""
    if size > LIMIT_HELD:
        raise LimitError(f"these exact odds pass the odds size limit: they would hold about {size / 1e6:,.0f} MB "
                         f"of exact weights at once, where the limit is {LIMIT_HELD // 1_000_000} MB",
                         hint=FEWER_DICE + STILL_ROLLS)


def too_big(seconds: float, fewer: str = FEWER_DICE) -> LimitError:
    """The refusal of odds that would take `seconds` on this machine."""
    return LimitError(f"these exact odds pass the odds size limit: working them out would take about "
                      f"{_duration(seconds)}, where the limit is {LIMIT_SECONDS:g} s",
                      hint=fewer + STILL_ROLLS)


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 3600 * 48:
        return f"{seconds / 60:,.0f} minutes" if seconds < 7200 else f"{seconds / 3600:,.0f} hours"
    return "longer than anyone would wait"


# ----- what each step of `dist` costs, in seconds -------------------------------------------------

def shape(dist: Weighted) -> Shape:
    if not dist.outcomes:
        return Shape(0, 0, dist.denominator.bit_length())
    low = dist.outcomes[0]
    return Shape(len(dist), dist.outcomes[-1] - low, dist.denominator.bit_length(), low)


def dense_enough(dist: Weighted) -> bool:
    """Worth packing: few gaps between the lowest and highest outcome."""
    return dist.outcomes[-1] - dist.outcomes[0] < 4 * len(dist) + 16


def uniform_run(dist: Weighted) -> bool:
    """Equal weights on a run of consecutive integers: a fair die, maybe shifted or cut by a reroll."""
    return (dist.outcomes[-1] - dist.outcomes[0] + 1 == len(dist)
            and dist.weights.count(dist.weights[0]) == len(dist))


def sum_cost(single: Weighted, count: int) -> float:
    """`sum_of(count)`."""
    if count <= 1 or len(single) <= 1:
        return 0.0
    return power_cost(shape(single), count, uniform=len(set(single.weights)) == 1,
                      dense=dense_enough(single), total_bits=single.total.bit_length())


def power_cost(single: Shape, count: int, *, uniform: bool = False, dense: bool = True,
               total_bits: int | None = None) -> float:
    """`sum_of(count)` of a distribution of this shape: for a dense one, the uniform power, the
    recurrence or a packed power (as `sum_of` picks); else repeated squaring."""
    if count <= 1 or single.outcomes <= 1:
        return 0.0
    slots = count * single.span + 1
    bits = count * (single.bits if total_bits is None else total_bits)
    if not dense:  # repeated squaring: the last convolution is most of it
        half = sum_shape(single, count // 2)
        return 2 * convolve_cost(half, half)
    if uniform:
        return items(12 * slots, bits)  # half the slots, a few operations each, the scale, the values
    return min(_recurrence_cost(slots, single.outcomes, bits), _pow_cost(slots, bits, count))


def sum_shape(single: Shape, count: int) -> Shape:
    span = single.span * count
    return Shape(min(span + 1, single.outcomes ** min(count, 8)), span, single.bits * count, single.low * count)


def _recurrence_cost(slots: int, outcomes: int, bits: int) -> float:
    return items(5 * slots * outcomes, bits)  # an interpreted step of two products and a sum per term


def _pow_cost(slots: int, bits: int, count: int) -> float:
    """A packed `pow` to `count` with `slots` slots of `bits` in the answer: the products of binary
    powering, left to right (x**e of e/count of the answer's size), then packing and unpacking."""
    base = slots * bits / count
    seconds, power = packed(slots, bits), 1
    for bit in bin(count)[3:]:
        seconds += SQUARE * product(power * base, power * base)
        power *= 2
        if bit == "1":
            seconds += product(power * base, base)
            power += 1
    return seconds


def by_recurrence(single: Weighted, count: int) -> bool:
    slots = count * (single.outcomes[-1] - single.outcomes[0]) + 1
    bits = count * single.total.bit_length()
    return _recurrence_cost(slots, len(single), bits) < _pow_cost(slots, bits, count)


def highest_cost(single: Weighted, count: int) -> float:
    """`highest(count)`: a power of each cumulative weight."""
    bits = count * single.total.bit_length()
    return len(single) * (0.7 * product(bits / 2, bits / 2) + items(2, bits))


def convolve_cost(a: Shape, b: Shape) -> float:
    """`a + b` for distributions of these shapes, by the cheapest of the ways that need no more than
    the shapes to apply (`_convolve` may find a cheaper one)."""
    bits = a.bits + b.bits
    if min(a.outcomes, b.outcomes) <= 1:
        return items(max(a.outcomes, b.outcomes), bits)
    estimates = [combine_cost(a, b)]
    short, long = sorted((a, b), key=lambda s: s.outcomes)
    if long.span + 1 <= 4 * long.outcomes + 16:
        estimates.append(_scaled_copies_cost(short.outcomes, long.span + 1, short.bits, long.bits))
    if a.span + b.span + 1 <= a.outcomes * b.outcomes + 64:
        estimates.append(_packed_cost(a, b, bits))
    return min(estimates)


def convolve_estimate(a: Weighted, b: Weighted) -> float:
    """Seconds `a + b` takes, by the way `_convolve` will pick."""
    if not a.outcomes or not b.outcomes:
        return 0.0
    return min(convolve_ways(a, b).values())


def convolve_ways(a: Weighted, b: Weighted) -> dict[str, float]:
    """The ways to add two distributions that apply, each with its cost (`dist._convolve` takes the
    cheapest): a shift when one has a single value, a sliding window when one is a fair die ("slide a":
    `a` is), one scaled copy of the longer per value of the shorter, a packed product when both are
    dense, else pair by pair."""
    bits = a.total.bit_length() + b.total.bit_length()
    if len(a) == 1 or len(b) == 1:
        return {"shift": items(max(len(a), len(b)), bits)}
    ways: dict[str, float] = {}
    for way, run, other in (("slide a", a, b), ("slide b", b, a)):
        if uniform_run(run) and dense_enough(other):
            slots = other.outcomes[-1] - other.outcomes[0] + len(run)
            ways[way] = items(10 * slots, bits)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if dense_enough(long):
        span = long.outcomes[-1] - long.outcomes[0] + 1
        ways["scaled copies"] = _scaled_copies_cost(len(short), span, short.total.bit_length(),
                                                    long.total.bit_length())
    if a.outcomes[-1] - a.outcomes[0] + b.outcomes[-1] - b.outcomes[0] + 1 <= len(a) * len(b) + 64:
        ways["packed"] = _packed_cost(shape(a), shape(b), bits)
    ways["pair by pair"] = combine_cost(shape(a), shape(b))
    return ways


def _scaled_copies_cost(values: int, span: int, short_bits: int, long_bits: int) -> float:
    """`_scaled_copies`: for each of the short side's `values`, `span` products of a weight of each side
    (big integers: their multiplication, not only the pass over them, is most of the time), added in."""
    copies = values * span
    return items(2 * copies, short_bits + long_bits) + copies * product(short_bits, long_bits) \
        + calls(values)


def _packed_cost(a: Shape, b: Shape, width: int) -> float:
    return packed(a.span + b.span + 1, width) + product((a.span + 1) * width, (b.span + 1) * width)


def combine_cost(a: Shape, b: Shape) -> float:
    """Any operation pair by pair (`_combine`)."""
    return items(4 * a.outcomes * b.outcomes, a.bits + b.bits)


def convolve_shape(a: Shape, b: Shape) -> Shape:
    span = a.span + b.span
    return Shape(min(span + 1, a.outcomes * b.outcomes), span, a.bits + b.bits, a.low + b.low)


def combine_shape(a: Shape, b: Shape, operation: Callable[[int, int], int]) -> Shape:
    """The shape of `operation` pair by pair, from the ends of both ranges (products and quotients
    of ranges take their extremes at the ends)."""
    ends = [operation(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    span = max(ends) - min(ends)
    return Shape(min(span + 1, a.outcomes * b.outcomes), span, a.bits + b.bits, min(ends))


def add_dice_estimate(dist: Weighted, count: int, single: Weighted, total: Weighted) -> float:
    """Seconds `add_dice(dist, count, single, total)` takes."""
    if count == 0:
        return 0.0
    slides = slides_cost(shape(dist), count, single)
    once = convolve_estimate(dist, total)
    return once if slides is None else min(slides, once)


def slides_cost(base: Shape, count: int, single: Weighted) -> float | None:
    if not base.outcomes or len(single) == 1 or not uniform_run(single) or base.span + 1 > 4 * base.outcomes + 16:
        return None
    span, bits = single.outcomes[-1] - single.outcomes[0], single.denominator.bit_length()
    # each slide: the dense list, its prefix sums, the window differences, the outcomes and weights kept
    return sum(items(10 * (base.span + i * span + len(single)), base.bits + i * bits) for i in range(1, count + 1))


def keep_cost(single: Weighted, count: int, keep: int, score: Score | None = None) -> float:
    """`keep_highest(count, keep, score)` (or any keep or drop that comes to it)."""
    keep = min(keep, count)
    if count == 0 or keep == 0 or len(single) == 1:
        return 0.0
    if keep == count:
        return sum_cost(single.map(score) if score else single, count)
    if keep == 1:
        return highest_cost(single, count)
    return min(keep_ways(single, count, keep, score).values())


def keep_ways(single: Weighted, count: int, keep: int, score: Score | None) -> dict[str, float]:
    """The ways to work out a keep that apply here, each with its cost in seconds (`polynomial.keep_highest`
    takes the cheapest): "uniform" for a fair die's faces, else "placing" and "threshold".

    Every weight of the answer (and every partial sum) fits in about count * log2(total + 1) bits.
    """
    bits = count * (single.total.bit_length() + 1)
    outcomes = len(single)
    if score is None and uniform_run(single):
        # the ways per face; k*k*faces/2 terms, each a weight times a binomial (of k/2 bits on average)
        # added in; and k prefix sums over k*faces coefficients
        terms = (outcomes - 1) * keep * keep / 2
        estimate = (calls(3 * outcomes + outcomes * keep) + items(6 * keep * outcomes, bits)
                    + items(keep * keep * outcomes, bits)
                    + terms * (product(bits, keep / 2) + items(2, bits)))
        return {"uniform": estimate}
    values = [score(o) for o in single.outcomes] if score else list(single.outcomes)
    span = max(values) - min(values)
    polynomial = (keep * span + 1) * bits
    check_memory(polynomial / 8)
    # the polynomials grow to that size from nothing and the multipliers are shorter than `bits`
    # on average: measured, about a third of these products' worst case
    placing = outcomes * keep * keep / 6 * (product(polynomial, bits) + items(3, polynomial))
    threshold = outcomes * keep / 3 * (product(polynomial, (span + 1) * bits) + items(3, polynomial))
    return {"placing": placing, "threshold": threshold}


def explode_cost(single: Weighted, depth: int, on: Predicate, truncate: bool) -> float:
    """`explode(depth, on=on)`: a layered chain is written out; any other is `depth` convolutions."""
    exploding = single.part(on)
    size = len(single) * (depth + 1)
    bits = single.denominator.bit_length() * (depth + 1)
    if len(exploding) == 1 and not truncate:
        return items(size, bits)
    chain = shape(single)
    total = 0.0
    for _ in range(depth):
        total += convolve_cost(shape(exploding), chain)
        chain = convolve_shape(shape(exploding), chain)
    return total


def explode_sum_cost(single: Weighted, count: int, depth: int, on: Predicate, truncate: bool) -> float:
    """`explode_sum(count, depth, on=on)`."""
    exploding = single.part(on)
    stopping = single.part(lambda o: not on(o))
    if count == 0 or not exploding.outcomes or not stopping.outcomes:
        return 0.0
    if len(exploding) > 1 or exploding.outcomes[0] <= 0 or truncate:
        chain = Shape(len(single) * (depth + 1), (single.outcomes[-1] - single.outcomes[0] + 1) * (depth + 1),
                      single.denominator.bit_length() * (depth + 1))
        return 2 * explode_cost(single, depth, on, truncate) + power_cost(chain, count)
    face, each, rolls = exploding.outcomes[0], single.denominator, count * depth
    stops = count * (stopping.outcomes[-1] - stopping.outcomes[0]) + 1
    column = max(1, stops // face)
    width = (count * stopping.total.bit_length() + column * each.bit_length()
             + count * (depth + 1).bit_length() + rolls * exploding.total.bit_length() // max(1, count) + 8)
    out_bits = (rolls + count) * each.bit_length()
    residue = product(column * width, (rolls + 1) * width) + packed(column + 2 * rolls, width)
    if exploding.weights[0] == 1:  # as `polynomial.exploding_total` picks: the cheaper of a product and prefix sums
        residue = min(residue, window_cost(column, depth + 1, count, width))
    residue += calls(30)
    return (sum_cost(stopping, count) + min(face, stops) * residue
            + (stops + face * rolls) * product(width, out_bits / 2))


def explode_sum_shape(single: Weighted, count: int, depth: int) -> Shape:
    span = count * (single.outcomes[-1] - single.outcomes[0]) * (depth + 1)
    bits = ceil(count * (depth + 1) * log2(single.denominator))  # of the denominator, each**(rolls + count)
    # a total's weight falls geometrically with the explosions it needs: over the long tail, a typical
    # weight has about half the denominator's digits (measured: 100d6!, 200d6!, 100d10!)
    return Shape(span + 1, span, bits, count * single.outcomes[0], bits // 2)


def window_cost(column: int, width: int, count: int, bits: float) -> float:
    """Seconds `polynomial.times_window_power` takes on a column of this length and weights of `bits`."""
    length = column + (width - 1) * count
    return passes(count * length, bits) + items(2 * column * min(count + 1, length // width + 1), bits)


def residue_cost(column: int, rolls: int, width: int) -> float:
    """Seconds one residue's packed product takes in `polynomial.exploding_total` (slots of `width` bytes)."""
    bits = 8 * width
    return product(column * bits, (rolls + 1) * bits) + packed(column + 2 * rolls, bits)


BIND_ITEMS = 4  # a value of `bind`'s loop is a zip step, a dict look-up, a product, a sum and a store
BIND_PRODUCT = 2.5  # its products (a few hundred bits by a thousand or two) take this times the schoolbook
# model's digit products: each makes a new integer (measured: 240,000 of 390 x 1,560 bits)

def bind_cost(parts: list[Shape], bits: int) -> float:
    """`bind` over runs of parts of these shapes (a run is one part, weighted once), into an answer whose
    weights have `bits`: each value of each part is multiplied by its weight and added to the table."""
    return sum(part.outcomes * (BIND_PRODUCT * product(part.bits, max(bits - part.bits, 1))
                                + items(BIND_ITEMS, bits))
               for part in parts)
