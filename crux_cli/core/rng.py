"""Random sources and the per-statement roller that counts dice against the limit.

The engine never touches global random state: every rule function takes a
`Roller`, which draws from a `RandomSource`. A seeded source repeats a run
exactly; a scripted source lets tests decide every face.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Protocol

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_DICE, MAX_SIDES


class RandomSource(Protocol):
    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        ...


def seeded(seed: int | None = None) -> RandomSource:
    """A source that repeats exactly for the same seed (fresh entropy when None)."""
    import random  # here rather than at the top: `crux odds` rolls nothing and never makes one

    return random.Random(seed)


class ScriptedSource:
    """Faces decided in advance, for tests: each call takes the next one.

    A face outside the die's range or running out of faces is a test bug,
    so both raise at once rather than silently rolling something else.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def randint(self, low: int, high: int) -> int:
        if self.used >= len(self.faces):
            raise AssertionError(f"scripted dice ran out after {self.used} faces (wanted d{high})")
        face = self.faces[self.used]
        self.used += 1
        if not low <= face <= high:
            raise AssertionError(f"scripted face {face} is not on a die of {low}..{high}")
        return face

    @property
    def left(self) -> int:
        return len(self.faces) - self.used


class Roller:
    """Rolls the dice of one statement and refuses to pass the dice limit."""

    # Set, every roll is added to it as sides, count, face, face, … (a run of plain ints a call, so what the
    # journal holds by the thousand is nothing the garbage collector walks): the journal keeps what replays
    # a roll, and counts faces by die size from it (crux log --stats) without rolling again.
    drawn: list[int] | None = None

    def __init__(self, source: RandomSource, limit: int = MAX_DICE) -> None:
        self.source = source
        self.limit = limit
        self.rolled = 0
        # A plain seeded Random draws `randint(1, n)` as `1 + _randbelow(n)`: calling that directly gives the
        # same faces in the same order and skips two layers of argument checks, a few percent of a batch.
        self.below: Callable[[int], int] | None = (
            source._randbelow if type(source) is _plain_random() else None)  # type: ignore[attr-defined]

    def reserve(self, count: int) -> None:
        """Refuse up front when `count` more dice would pass the limit."""
        if self.rolled + count > self.limit:
            raise LimitError(
                f"this statement would roll more than {self.limit:,} dice (the limit)",
                hint="roll fewer dice, or split the roll into several statements",
            )

    def die(self, sides: int) -> int:
        """One die of `sides` faces, 1..sides."""
        if sides > MAX_SIDES:
            raise LimitError(f"a die may have at most {MAX_SIDES:,} sides")
        if self.rolled >= self.limit:
            self.reserve(1)
        self.rolled += 1
        face = self.below(sides) + 1 if self.below is not None and sides > 0 else self.source.randint(1, sides)
        if self.drawn is not None:
            self.drawn += (sides, 1, face)
        return face

    def dice(self, count: int, sides: int) -> list[int]:
        self.reserve(count)
        below = self.below
        if below is None or not 0 < sides <= MAX_SIDES:
            return [self.die(sides) for _ in range(count)]
        self.rolled += count  # the faces `die` would give, one after another, without its checks per die
        faces = [below(sides) + 1 for _ in range(count)]
        if self.drawn is not None:
            self.drawn += (sides, count)
            self.drawn += faces
        return faces


def _plain_random() -> type | None:
    """random.Random, when the random module is loaded: until it is, no source can be one."""
    module = sys.modules.get("random")
    return module.Random if module is not None else None


def bad_seed(shown: str) -> CruxError:
    """The refusal of a seed that is not a whole number, in the same words wherever it is given."""
    return CruxError(f"the seed must be a whole number, not {shown}",
                     hint="a seed such as 42 repeats the same dice; leave it out for fresh dice")
