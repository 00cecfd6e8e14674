"""The odds limit: a bound on the time an answer takes, predicted before the work is done.

Exact odds are integers of up to thousands of digits, so the time an answer takes
depends on how many there are and how long, not on the dice alone. Each step of
`dist` has a model of its own cost, built from the two things CPython does: big
multiplications (schoolbook, then Karatsuba) and loops over lists of big integers.
A statement's odds add up the steps they will take, and the presentation of the
answer (a float per value for the text, an exact fraction per value for JSON),
and are refused before any of it when the total passes `LIMIT_SECONDS`.

The constants were measured on the project's 2-core machine while it was busy, and the
estimates fitted to what each step takes there (`python tools/calibrate_odds.py` prints every
family's predictions beside measured times); the limit leaves room for the misses.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import NamedTuple

from crux_cli.core.errors import LimitError

# Of predicted work per answer. The predictions are fitted to within about 30 % either way on a busy
# machine (tools/calibrate_odds.py), and start-up and reading take 0.2 s: under 2 s of CPU in all.
LIMIT_SECONDS = 1.3
LIMIT_BYTES = 40_000_000  # the largest packed polynomial (a product holds three): under 200 MB in all

KARATSUBA_DIGITS = 70  # CPython switches from schoolbook to Karatsuba at 70 digits of 30 bits
SCHOOLBOOK = 1.6e-9  # seconds per digit x digit
KARATSUBA = 1.2e-8  # seconds per (digits ** 1.585)
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
    if seconds > LIMIT_SECONDS:
        raise too_big(seconds)


def check_answer(seconds: float, result: Shape | None) -> None:
    """Refuse a whole answer (its steps, `seconds`, and showing `result`) that would pass the limit,
    with a hint to drop --json when only the exact fractions of JSON make it too long."""
    shown = presentation(result) if result is not None else 0.0
    if seconds + shown <= LIMIT_SECONDS:
        return
    text_only = result is not None and exact_rows.get() and seconds + presentation(result, False) <= LIMIT_SECONDS
    error = too_big(seconds + shown)
    if text_only:
        error.hint = ("exact fractions for every value are what pass it: `crux odds` without --json answers it "
                      "(its rows rounded); rolling it still works")
    raise error


def check_memory(size: float) -> None:
    if size > LIMIT_BYTES:
        raise LimitError(f"these exact odds pass the odds size limit: one polynomial of {size / 1e6:,.0f} MB of "
                         f"exact weights, where the limit is {LIMIT_BYTES // 1_000_000} MB",
                         hint="ask for fewer dice, fewer sides or fewer kept; rolling it still works")


def too_big(seconds: float) -> LimitError:
    return LimitError(f"these exact odds pass the odds size limit: working them out would take about "
                      f"{_duration(seconds)}, where the limit is {LIMIT_SECONDS:g} s",
                      hint="ask for fewer dice, fewer sides or fewer kept; rolling it still works")


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 3600 * 48:
        return f"{seconds / 60:,.0f} minutes" if seconds < 7200 else f"{seconds / 3600:,.0f} hours"
    return "longer than anyone would wait"
