"""d20 check rules (seed 003): checks against a Difficulty, and damage against Armor, Immune and Weak.

Difficulty = 20 − Stat (the Stat doubled when Trained). A natural 20 is a crit:
always a pass, and +1 Luck. Favor adds a d6 to the d20, Hinder subtracts one;
they cancel one for one and never stack. The rulings where the seed is open are
in grammar/rulesets.md.
"""

from __future__ import annotations

from typing import ClassVar

from crux_cli.core.record import Record
from crux_cli.core.rng import Roller

CHECK_DIE = 20
FAVOR_DIE = 6
CHECK_OUTCOMES = ("crit", "pass", "fail")
DAMAGE_OUTCOMES = ("harmed", "unharmed")


def net_favor(favored: int, hindered: int) -> int:
    """+1 favored, −1 hindered, 0 neither: they cancel 1-for-1 and what is left does not stack."""
    return (favored > hindered) - (favored < hindered)


class CheckRequest(Record):
    stat: int
    trained: bool = False
    favor: int = 0  # +1 favored, -1 hindered, 0 neither (see net_favor)

    @property
    def difficulty(self) -> int:
        return CHECK_DIE - self.stat * (2 if self.trained else 1)


class CheckResult(Record):
    kind: ClassVar[str] = "check"
    request: CheckRequest
    d20: int
    favor_die: int | None  # the d6 of favor or hinder, when one was rolled
    total: int  # d20 ± the d6
    difficulty: int
    outcome: str  # crit | pass | fail
    luck: int  # Luck gained: 1 on a crit

    @property
    def dice(self) -> tuple[int, ...]:
        return (self.d20,) if self.favor_die is None else (self.d20, self.favor_die)


def check_outcome(d20: int, total: int, difficulty: int) -> str:
    if d20 == CHECK_DIE:
        return "crit"  # an unmodified 20 passes whatever the Difficulty and the hinder die
    return "pass" if total >= difficulty else "fail"


def roll_check(roller: Roller, request: CheckRequest) -> CheckResult:
    d20 = roller.die(CHECK_DIE)
    favor_die = roller.die(FAVOR_DIE) if request.favor else None
    total = d20 + request.favor * (favor_die or 0)
    outcome = check_outcome(d20, total, request.difficulty)
    return CheckResult(request, d20, favor_die, total, request.difficulty, outcome, int(outcome == "crit"))


class DamageRequest(Record):
    count: int  # damage dice
    sides: int
    flat: int = 0  # added to the dice (a negative flat lowers it)
    armor: int = 0
    immune: bool = False
    weak: bool = False  # ignores Armor and Immune, and deals one extra damage die

    @property
    def dice_count(self) -> int:
        return self.count + (1 if self.weak else 0)


class DamageResult(Record):
    kind: ClassVar[str] = "damage"
    request: DamageRequest
    dice: tuple[int, ...]  # every damage die; with Weak the last one is the extra die
    total: int  # dice + flat, never below 0
    armor: int  # the Armor that applied (0 when Weak)
    damage: int  # what the target loses, never below 0
    outcome: str  # harmed | unharmed
    reason: str | None  # why nothing or less got through: "immune", "armor"; "weak" when it bypassed them


def damage_after(total: int, request: DamageRequest) -> tuple[int, int, str | None]:
    """(armor applied, damage, reason) for a rolled total."""
    if request.weak:
        return 0, total, "weak" if request.armor or request.immune else None
    if request.immune:
        return 0, 0, "immune"
    damage = max(0, total - request.armor)
    return request.armor, damage, "armor" if request.armor and total else None


def roll_damage(roller: Roller, request: DamageRequest) -> DamageResult:
    dice = tuple(roller.dice(request.dice_count, request.sides))
    total = max(0, sum(dice) + request.flat)
    armor, damage, reason = damage_after(total, request)
    return DamageResult(request, dice, total, armor, damage, "harmed" if damage else "unharmed", reason)
