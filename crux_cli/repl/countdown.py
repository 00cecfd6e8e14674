"""Countdown dice (NOTATION §2): roll each round; a 1 shrinks the die a size, and a 1 on a d4 ends it."""

import re
from typing import TYPE_CHECKING, NamedTuple

from crux_cli.errors import CruxError

if TYPE_CHECKING:
    from crux_cli.engine.rng import Roller

SIZES = (4, 6, 8, 10, 12, 20)
DIE = re.compile(r"[Cc]?[dD](\d+)")


class Countdown(NamedTuple):
    sides: int
    label: str = ""

    def __str__(self) -> str:
        return f"Cd{self.sides}" + (f" {self.label}" if self.label else "")


class Tick(NamedTuple):
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
    if not match or int(match.group(1)) not in SIZES:
        raise CruxError(f"'{word}' is not a countdown die",
                        hint="countdown dice are Cd4, Cd6, Cd8, Cd10, Cd12 or Cd20")
    return int(match.group(1))


def tick(countdown: Countdown, roller: "Roller") -> "Tick":
    face = roller.die(countdown.sides)
    if face != 1:
        return Tick(countdown, face, countdown)
    index = SIZES.index(countdown.sides)
    after = Countdown(SIZES[index - 1], countdown.label) if index > 0 else None
    return Tick(countdown, face, after)
