"""Countdowns kept by a session (crux-notation(7) DICE EXPRESSIONS, Dice): each round they roll together
through the dice engine's `roll_countdown`; a 1 shrinks the die a size, and a 1 on a d4 ends it."""

import re
from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.vocabulary import COUNTDOWN_HINT, COUNTDOWN_SIZES
from crux_cli.dice.engine import roll_countdown

if TYPE_CHECKING:
    from crux_cli.core.rng import Roller

DIE = re.compile(r"[Cc]?[dD](\d+)")


class Countdown(Record):
    sides: int
    label: str = ""

    def __str__(self) -> str:
        return f"Cd{self.sides}" + (f" {self.label}" if self.label else "")


class Tick(Record):
    """One countdown rolled: its face, and the die it leaves (None when it ran out)."""

    before: Countdown
    face: int
    after: "Countdown | None"

    def __str__(self) -> str:
        if self.face != 1:
            return f"{self.before}: {self.face} · stays d{self.before.sides}"
        if self.after is None:
            return f"{self.before}: 1 · ends"
        return f"{self.before}: 1 · shrinks to d{self.after.sides}"


def parse_die(word: str) -> int:
    """`Cd8`, `cd8` or `d8` → 8; only the sizes that can shrink are countdown dice."""
    match = DIE.fullmatch(word)
    if not match or int(match.group(1)) not in COUNTDOWN_SIZES:
        raise CruxError(f"'{word}' is not a countdown die", hint=COUNTDOWN_HINT)
    return int(match.group(1))


def tick(countdown: Countdown, roller: "Roller") -> Tick:
    rolled = roll_countdown(roller, countdown.sides)
    after = None if rolled.next_sides is None else Countdown(rolled.next_sides, countdown.label)
    return Tick(countdown, rolled.face, after)
