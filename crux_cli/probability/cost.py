"""The odds limit: a bound on the time an answer takes, predicted before the work is done.

Exact odds are integers of up to thousands of digits, so the time an answer takes
depends on how many there are and how long, not on the dice alone. Each step of
`dist` has a model of its own cost, built from the two things CPython does: big
multiplications (schoolbook, then Karatsuba) and loops over lists of big integers.
A statement's odds add up the steps they will take, and the presentation of the
answer (a float per value for the text, an exact fraction per value for JSON),
and are refused before any of it when the total passes `LIMIT_SECONDS`.

The constants are seconds on a *reference machine*: the project's 2-core machine, busy, where
they were fitted (`python tools/calibrate_odds.py` prints every family's predictions beside
measured times). Their ratios carry over from machine to machine; their scale does not (a
machine three times as fast answered in a third of the time, and was refused what it could do).
So a prediction is multiplied by this machine's speed, `speed()`: a probe of the same kinds of
work (a Karatsuba product, passes over a list of big integers) timed here against
`PROBE_REFERENCE`, its time on the reference machine. The probe runs once per process, and only
when a prediction comes near enough to the limit for the speed to matter (`PROBE_FROM`):
most odds take microseconds and pay nothing for it.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from itertools import accumulate
from typing import NamedTuple

from crux_cli.core.errors import LimitError

# Of predicted work per answer, in seconds of this machine (a reference prediction times `speed()`). The
# scaled predictions run from about half to 1.6 times what the work takes, family by family
# (tools/calibrate_odds.py), and the machine may be busier than when the probe ran: 0.75 s predicted is
# at most about 1.4 s of work, under 2 s of CPU with start-up and reading (0.2 s).
LIMIT_SECONDS = 0.75
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

# The speed of this machine, measured by a probe. What the probe takes on the reference machine
# (fitted with tools/calibrate_odds.py, so that the scaled predictions sit on the slow side of the
# measured times there):
PROBE_REFERENCE = 8.0e-4
PROBE_RUNS = 5  # the fastest of these counts: an interrupt or a switch only ever slows one down
# Reference seconds below which the speed is not measured: 0.15 s is refused only on a machine five
# times as slow as the reference, and takes 40 to 60 ms on the project's, so the probe (about 2 ms,
# once) is a few percent of the rarest odds that pay it.
PROBE_FROM = 0.15
# The fastest speed believed. A probe that runs in a quiet moment, then a statement that runs while
# the machine is loaded, would let through what then takes too long; below this floor a probe is
# taken for noise. It is 4x the reference machine, a little past the fastest measured (about 3x), so
# that nothing the reference constants predict past 4x the limit (3 s) is ever answered.
FASTEST = 0.25

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
measured_speed: float | None = None  # speed(), once measured in this process


def speed() -> float:
    """Seconds on this machine per reference second: measured by `probe()` on first use, then kept."""
    global measured_speed
    if measured_speed is None:
        measured_speed = max(FASTEST, probe() / PROBE_REFERENCE)
    return measured_speed


def here(seconds: float) -> float:
    """A reference prediction in seconds of this machine; before the speed is measured, a prediction
    too small for it to matter is left as it is (it is compared with the limit, never shown)."""
    if measured_speed is None and seconds < PROBE_FROM:
        return seconds
    return seconds * speed()


def probe() -> float:
    """CPU seconds this machine takes for a little of the work the model counts (the fastest of
    `PROBE_RUNS`): a Karatsuba product, a pass in C and an interpreted pass over 200 big integers."""
    a, b = (1 << 24000) // 7, (1 << 20000) // 11
    column = [a >> (20000 + i) for i in range(200)]  # about 4,000 bits each
    fastest = float("inf")
    for _ in range(PROBE_RUNS):
        start = time.process_time()
        _ = a * b
        _ = list(accumulate(column))
        _ = [x * 3 + 1 for x in column]
        fastest = min(fastest, time.process_time() - start)
    return fastest


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


def check_answer(seconds: float, result: Shape | None) -> None:
    """Refuse a whole answer (its steps, `seconds`, and showing `result`) that would pass the limit,
    with a hint to drop --json when only the exact fractions of JSON make it too long."""
    if result is not None:
        check_rows(result)
    shown = presentation(result) if result is not None else 0.0
    if here(seconds + shown) <= LIMIT_SECONDS:
        return
    text_only = (result is not None and exact_rows.get()
                 and here(seconds + presentation(result, False)) <= LIMIT_SECONDS)
    error = too_big(here(seconds + shown))
    if text_only:
        error = error.with_hint("exact fractions for every value are what pass it: `crux odds` without --json "
                                "answers it (its rows rounded); rolling it still works")
    raise error


def row_bytes(shape: Shape, exact: bool) -> float:
    """The memory an answer of this shape holds at its peak, besides start-up (see LIMIT_ROW_BYTES)."""
    rows = shape.outcomes * (shape.bits / 8 + ROW_BYTES) * ROW_COPIES
    if not exact:
        return rows
    weight = shape.bits if shape.weight_bits is None else shape.weight_bits
    return rows + shape.outcomes * ((shape.bits + weight) * LOG10_2 + JSON_ROW_CHARS) * JSON_COPIES


def check_rows(shape: Shape) -> None:
    """Refuse an answer whose rows would pass the memory the odds promise (200 MB in all)."""
    size = row_bytes(shape, exact_rows.get())
    if size <= LIMIT_ROW_BYTES:
        return
    text_only = exact_rows.get() and row_bytes(shape, False) <= LIMIT_ROW_BYTES
    raise LimitError(f"these exact odds pass the odds size limit: their {shape.outcomes:,} rows of exact weights "
                     f"would hold about {size / 1e6:,.0f} MB, where the limit is {LIMIT_ROW_BYTES // 1_000_000} MB",
                     hint="exact fractions for every value are what pass it: `crux odds` without --json answers "
                          "it (its rows rounded); rolling it still works" if text_only else
                          "ask for fewer dice, fewer sides or fewer kept; rolling it still works")


def check_memory(size: float) -> None:
    if size > LIMIT_BYTES:
        raise LimitError(f"these exact odds pass the odds size limit: one polynomial of {size / 1e6:,.0f} MB of "
                         f"exact weights, where the limit is {LIMIT_BYTES // 1_000_000} MB",
                         hint="ask for fewer dice, fewer sides or fewer kept; rolling it still works")


def held(values: float, bits: float) -> float:
    """Bytes that `values` exact weights of `bits` each take as Python objects, with what holds them
    (fitted on exploding keeps of 30 to 45 dice: the process's peak was this and its start-up, or less)."""
    return values * (bits / HELD_BITS_PER_BYTE + VALUE_BYTES)


def check_held(size: float) -> None:
    """Refuse an answer whose distributions would hold more than LIMIT_HELD bytes at once."""
    if size > LIMIT_HELD:
        raise LimitError(f"these exact odds pass the odds size limit: they would hold about {size / 1e6:,.0f} MB "
                         f"of exact weights at once, where the limit is {LIMIT_HELD // 1_000_000} MB",
                         hint="ask for fewer dice, fewer sides or fewer kept; rolling it still works")


def too_big(seconds: float) -> LimitError:
    """The refusal of odds that would take `seconds` on this machine."""
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
