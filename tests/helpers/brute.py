"""Brute-force enumeration of every way the dice of one statement can fall.

It reruns a roll function once per sequence of faces, so rules that roll a
different number of dice on different branches (a save only after Direct
Damage, a zero pool) are enumerated exactly. The odds modules compute the same
numbers by distributions; tests compare the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from crux_cli.core.rng import Roller


class PathSource:
    """Replays a prefix of faces, then shows 1 on every further die, recording each die's size."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.faces: list[int] = []
        self.sides: list[int] = []

    def randint(self, low: int, high: int) -> int:
        i = len(self.faces)
        face = self.prefix[i] if i < len(self.prefix) else low
        self.faces.append(face)
        self.sides.append(high)
        return face


def every_roll(roll: Callable[[Roller], Any]) -> Iterator[tuple[Fraction, Any]]:
    """(probability, result) for every distinct sequence of faces."""
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        source = PathSource(prefix)
        result = roll(Roller(source))
        p = Fraction(1)
        for sides in source.sides:
            p /= sides
        yield p, result
        for i in range(len(prefix), len(source.faces)):
            pending.extend((*source.faces[:i], face) for face in range(2, source.sides[i] + 1))


def brute_odds(roll: Callable[[Roller], Any], read: Callable[[Any], Any]) -> dict[Any, Fraction]:
    """The probability of each value of `read(result)` over every way the dice fall."""
    chances: dict[Any, Fraction] = {}
    for p, result in every_roll(roll):
        key = read(result)
        chances[key] = chances.get(key, Fraction(0)) + p
    return chances


def nonzero(chances: dict[Any, Fraction] | tuple[tuple[Any, Fraction], ...]) -> dict[Any, Fraction]:
    """The possible outcomes only (odds list impossible ones too, at 0)."""
    return {k: p for k, p in dict(chances).items() if p}
