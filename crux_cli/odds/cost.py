"""The odds limit: a bound on the time an answer takes, predicted before the work is done.

Exact odds are integers of up to thousands of digits, so the time an answer takes
depends on how many there are and how long, not on the dice alone. Each step of
`dist` has a model of its own cost, built from the two things CPython does: big
multiplications (schoolbook, then Karatsuba) and loops over lists of big integers.
A statement's odds add up the steps they will take, and the presentation of the
answer (a float per value for the text, an exact fraction per value for JSON),
and are refused before any of it when the total passes `LIMIT_SECONDS`.

The constants were measured on the project's 2-core machine while it was busy, so
they lean to the slow side: a refusal may come a little early, never late.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import NamedTuple

from crux_cli.core.errors import LimitError

LIMIT_SECONDS = 1.4  # of predicted work per answer; with start-up and parsing, under 2 s of CPU
LIMIT_BYTES = 40_000_000  # the largest packed polynomial (a product holds three): under 200 MB in all

KARATSUBA_DIGITS = 70  # CPython switches from schoolbook to Karatsuba at 70 digits of 30 bits
SCHOOLBOOK = 1.6e-9  # seconds per digit x digit
KARATSUBA = 1.2e-8  # seconds per (digits ** 1.585)
PER_ITEM = 1.2e-7  # seconds per big integer an interpreted loop touches
PER_ITEM_BIT = 1.2e-10  # and per bit of it
PER_CALL = 3e-6  # seconds per call of a small interpreted function
STR_DIGIT_SQUARED = 1.6e-10  # str(n) is quadratic in the digits
LOG10_2 = 0.30103

exact_rows: ContextVar[bool] = ContextVar("exact_rows", default=False)  # JSON: a fraction for every value


class Shape(NamedTuple):
    """What the cost of a distribution depends on: how many values, over what range, how long."""

    outcomes: int  # values with a weight
    span: int  # highest value less the lowest
    bits: int  # of the denominator, which bounds every weight
    low: int = 0  # the lowest value

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
    digits = shape.bits * LOG10_2
    return floats + shape.outcomes * (2 * STR_DIGIT_SQUARED * digits * digits + 10 * PER_ITEM)


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
        error.hint = "without --json the text answers it (its rows are rounded); rolling it still works"
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
