"""Challenge-roll rules (seed 004): action, fortune and resistance rolls.

Roll a pool of d6 and read the single highest die: two or more 6s are a
`critical`, a 6 a `strong hit`, 4–5 a `weak hit`, 1–3 a `miss`. A pool of zero
dice or fewer rolls 2d6 and keeps the lowest, and cannot be critical. The
outcome is then read in the seed's words for the roll (and, for actions, the
risk level). The rulings where the seed is open are in grammar/rulesets.md.
"""

from __future__ import annotations

from typing import ClassVar

from crux_cli.core.record import Record
from crux_cli.core.rng import Roller

OUTCOMES = ("critical", "strong hit", "weak hit", "miss")
RISKS = ("minor", "moderate", "major")
DEFAULT_RISK = "moderate"
ZERO_POOL = 2  # a pool of zero dice or fewer rolls two and keeps the lowest

# Taking action: the seed's words (verbatim) for each risk level and outcome, with the XP it gains.
ACTION_TEXT: dict[str, dict[str, tuple[str, int]]] = {
    "minor": {
        "critical": ("A success with increased reward.", 0),
        "strong hit": ("Things go as planned and all is well. A success.", 0),
        "weak hit": ("Your character has a sudden realization that their approach will certainly succeed, "
                     "but with a cost. They can try a different approach, or continue on and suffer the "
                     "consequences.", 0),
        "miss": ("Your character fails before any consequences occur, but a new risky opportunity lies "
                 "before them. They can attempt again with that approach or try something else.", 0),
    },
    "moderate": {
        "critical": ("A success with increased reward.", 0),
        "strong hit": ("A success, and you realize what was at stake.", 0),
        "weak hit": ("Overall a success, but you must suffer the consequences.", 0),
        "miss": ("Things do not go your way. Gain +1 XP and you must suffer the consequences.", 1),
    },
    "major": {
        "critical": ("A success with increased reward. Gain +1 XP.", 1),
        "strong hit": ("A success, narrowly avoiding the consequences. Gain +1 XP.", 1),
        "weak hit": ("Technically a success, but there is a severe cost. Gain +1 XP and you must suffer the "
                     "consequences accordingly.", 1),
        "miss": ("The worst outcome has happened. Gain +1 XP and you must suffer the consequences "
                 "accordingly.", 1),
    },
}

FORTUNE_TEXT = {
    "critical": "Exceptional result / Major. Great reward.",
    "strong hit": "Good result / Moderate. Full reward.",
    "weak hit": "Mixed result / Minor. Partial reward.",
    "miss": "Bad result / Poor. Little or no reward.",
}

RESIST_COST = 1  # "Mark 1 grit" to resist at all
RESIST_TEXT = {
    "critical": "You avoid all consequences and you are now in control of the situation. Gain 1 grit back.",
    "strong hit": "The consequences are avoided.",
    "weak hit": "The consequences are reduced. If taking damage, take half damage. You can mark 1 grit to "
                 "avoid them completely.",
    "miss": "The consequences still happen. You can mark 1 grit to reduce them (half damage if taking "
            "damage) or mark 2 grit to avoid them completely.",
}
RESIST_GRIT_BACK = {"critical": 1}
# What more Grit can buy after the roll: (extra Grit to mark, what it does).
RESIST_OPTIONS: dict[str, tuple[tuple[int, str], ...]] = {
    "critical": (),
    "strong hit": (),
    "weak hit": ((1, "avoid the consequences completely"),),
    "miss": ((1, "reduce the consequences (half damage if taking damage)"),
             (2, "avoid the consequences completely")),
}


class ChallengeRoll(Record):
    """The challenge roll itself, shared by actions, fortune and resistance."""

    pool: int  # dice asked for (rating ± advantages); may be zero or less
    dice: tuple[int, ...]  # every d6 rolled
    kept: int  # the highest (the lowest for a zero pool)
    outcome: str  # critical | strong hit | weak hit | miss

    @property
    def zero_pool(self) -> bool:
        return self.pool <= 0


def read(dice: tuple[int, ...], zero_pool: bool) -> tuple[int, str]:
    """(kept die, outcome) for the faces of a challenge roll."""
    kept = min(dice) if zero_pool else max(dice)
    if kept == 6:
        return kept, "critical" if not zero_pool and dice.count(6) >= 2 else "strong hit"
    return kept, "weak hit" if kept >= 4 else "miss"


def challenge(roller: Roller, pool: int) -> ChallengeRoll:
    dice = tuple(roller.dice(pool if pool > 0 else ZERO_POOL, 6))
    kept, outcome = read(dice, pool <= 0)
    return ChallengeRoll(pool, dice, kept, outcome)


class ActionRequest(Record):
    rating: int  # dots in the approach the GM named
    advantage: bool = False
    disadvantage: bool = False
    risk: str = DEFAULT_RISK

    @property
    def pool(self) -> int:
        return self.rating + int(self.advantage) - int(self.disadvantage)


class ActionResult(Record):
    kind: ClassVar[str] = "action"
    request: ActionRequest
    roll: ChallengeRoll
    text: str
    xp: int


def roll_action(roller: Roller, request: ActionRequest) -> ActionResult:
    roll = challenge(roller, request.pool)
    text, xp = ACTION_TEXT[request.risk][roll.outcome]
    return ActionResult(request, roll, text, xp)


class FortuneRequest(Record):
    rating: int  # the stat assessed (1 for sheer luck)
    advantages: int = 0  # major advantages: +1D each
    disadvantages: int = 0  # major disadvantages: -1D each

    @property
    def pool(self) -> int:
        return self.rating + self.advantages - self.disadvantages


class FortuneResult(Record):
    kind: ClassVar[str] = "fortune"
    request: FortuneRequest
    roll: ChallengeRoll
    text: str


def roll_fortune(roller: Roller, request: FortuneRequest) -> FortuneResult:
    roll = challenge(roller, request.pool)
    return FortuneResult(request, roll, FORTUNE_TEXT[roll.outcome])


class ResistRequest(Record):
    rating: int  # dots in the attribute the GM chose (plus the endure action)

    @property
    def pool(self) -> int:
        return self.rating


class ResistResult(Record):
    kind: ClassVar[str] = "resist"
    request: ResistRequest
    roll: ChallengeRoll
    text: str
    grit_marked: int  # always RESIST_COST: the price of resisting
    grit_back: int  # 1 on a critical
    options: tuple[tuple[int, str], ...]  # more Grit the player may mark, and what it buys

    @property
    def grit_net(self) -> int:
        return self.grit_marked - self.grit_back


def roll_resist(roller: Roller, request: ResistRequest) -> ResistResult:
    roll = challenge(roller, request.pool)
    return ResistResult(request, roll, RESIST_TEXT[roll.outcome], RESIST_COST,
                        RESIST_GRIT_BACK.get(roll.outcome, 0), RESIST_OPTIONS[roll.outcome])
