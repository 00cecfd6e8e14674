"""Step-dice rules (seed 002): saves, stepping dice, attacks on armour and Grit, the Mark of Death.

An attribute is a die on the track 0 ↔ d4 ↔ d6 ↔ d8 ↔ d10 ↔ d12, written here as
its number of sides (0 for a die at zero). Requests say what to roll, results
record every die. The rulings where the seed is open are in grammar/rulesets.md.
"""

from __future__ import annotations

from typing import ClassVar

from crux_cli.core.record import Record
from crux_cli.core.rng import Roller

TRACK = (0, 4, 6, 8, 10, 12)
ENVIRONMENT_TARGET = 4  # a save against the environment must beat a 4
ENHANCED_DIE = 12  # enhanced: roll a d12 as well and keep the higher
IMPAIRED_DIE = 4  # impaired: roll a d4 instead
ARMOR_MAX = 3  # "You cannot have more than Armor 3 in total"

SAVE_OUTCOMES = ("win", "tie", "lose")
ATTACK_OUTCOMES = ("deflected", "dodged", "direct")
# The Critical Damage save against Direct Damage: win, tie, lose; and lethal when STR is already 0.
CONSEQUENCES = {"win": "minor", "tie": "critical", "lose": "incapacitated"}
# Direct Damage to an attribute already at zero: "Death for STR. Paralysis for DEX. Catatonia for WIL."
AT_ZERO = {"STR": "dead", "DEX": "paralysed", "WIL": "catatonic"}
CONSEQUENCE_ORDER = ("minor", "critical", "incapacitated", "dead", "paralysed", "catatonic")
DEATH_OUTCOMES = ("taken", "deal", "return")
DEATH_TEXT = {  # the seed's words
    "taken": "You are taken across the Black River by Death.",
    "deal": "Death offers you a deal. If you accept the terms, return to life.",
    "return": "It is not your time. You return to life.",
}


def die_name(sides: int) -> str:
    return f"d{sides}" if sides else "0"


def step(die: int, steps: int) -> int:
    """Move a die `steps` places along the track (negative: down), stopping at 0 and at d12."""
    index = TRACK.index(die) + steps
    return TRACK[min(max(index, 0), len(TRACK) - 1)]


def mode(enhanced: bool, impaired: bool) -> str:
    """Enhanced and impaired cancel each other."""
    if enhanced == impaired:
        return "normal"
    return "enhanced" if enhanced else "impaired"


class Roll(Record):
    """One die rolled: its size and the face it showed."""

    sides: int
    face: int


def compare(score: int, target: int) -> str:
    if score > target:
        return "win"
    return "tie" if score == target else "lose"


# --- saves ---------------------------------------------------------------------------------------


class SaveRequest(Record):
    die: int  # the attribute die (sides), 0 when it is at zero
    target: int = ENVIRONMENT_TARGET  # the number to beat when no creature opposes
    opposing: int | None = None  # an opposing creature's attribute die, rolled instead of `target`
    enhanced: bool = False
    impaired: bool = False

    @property
    def mode(self) -> str:
        return mode(self.enhanced, self.impaired)


class SaveResult(Record):
    kind: ClassVar[str] = "save"
    request: SaveRequest
    rolls: tuple[Roll, ...]  # the saver's dice: attribute die (or the impaired d4), plus the enhanced d12
    score: int | None  # the kept die; None when the attribute is at zero (no roll)
    opposing_roll: Roll | None  # the opposing die, when one was rolled
    target: int  # what the score had to beat: the number, or the opposing face (0 for an opposing 0)
    outcome: str  # win | tie | lose
    automatic: bool  # lost without a roll: the attribute die is at zero


def save_dice(request: SaveRequest) -> tuple[int, ...]:
    """The sizes of the dice the saver rolls (none for a die at zero)."""
    if request.die == 0:
        return ()
    return {"normal": (request.die,), "enhanced": (request.die, ENHANCED_DIE),
            "impaired": (IMPAIRED_DIE,)}[request.mode]


def roll_save(roller: Roller, request: SaveRequest) -> SaveResult:
    if request.die == 0:
        return SaveResult(request, (), None, None, request.target if request.opposing is None else 0,
                          "lose", True)
    rolls = tuple(Roll(sides, roller.die(sides)) for sides in save_dice(request))
    score = max(r.face for r in rolls)
    opposing_roll = None
    target = request.target
    if request.opposing is not None:
        opposing_roll = Roll(request.opposing, roller.die(request.opposing)) if request.opposing else None
        target = opposing_roll.face if opposing_roll else 0
    return SaveResult(request, rolls, score, opposing_roll, target, compare(score, target), False)


# --- stepping dice -------------------------------------------------------------------------------


class StepRequest(Record):
    die: int
    steps: int  # signed: up is positive


class StepResult(Record):
    kind: ClassVar[str] = "step"
    request: StepRequest
    before: int
    after: int
    stopped: bool  # the track ended before all the steps were taken


def step_die(request: StepRequest) -> StepResult:
    """No dice are rolled; the result is a die on the track."""
    after = step(request.die, request.steps)
    wanted = TRACK.index(request.die) + request.steps
    return StepResult(request, request.die, after, not 0 <= wanted < len(TRACK))


# --- attacks -------------------------------------------------------------------------------------


class AttackRequest(Record):
    """Every attack die at one target, from every attacker and weapon (ganging up)."""

    dice: tuple[int, ...]  # sides of each attack die
    armor: int = 0  # as given; the rules cap it at ARMOR_MAX
    grit: int = 0  # the target's Grit before the attack
    strength: int | None = None  # the die of the attribute hit, for the Critical Damage save
    enhanced: bool = False
    impaired: bool = False
    attribute: str = "STR"  # where Direct Damage goes: STR by default, DEX or WIL (seed 002)

    @property
    def mode(self) -> str:
        return mode(self.enhanced, self.impaired)

    @property
    def effective_armor(self) -> int:
        return min(self.armor, ARMOR_MAX)


class AttackResult(Record):
    kind: ClassVar[str] = "attack"
    request: AttackRequest
    rolls: tuple[Roll, ...]  # every attack die rolled
    highest: int  # the single highest die: the damage dealt
    armor: int  # the armour that applied (at most 3)
    damage: int  # after armour, never below 0
    grit_lost: int
    grit_left: int
    direct: int  # Direct Damage: what Grit could not absorb
    outcome: str  # deflected (armour stopped it) | dodged (Grit took it all) | direct
    save: SaveResult | None  # the Critical Damage save (STR vs the Direct Damage), when STR was given
    consequence: str | None  # minor | critical | incapacitated | dead, after a Critical Damage save
    strength_after: int | None  # the STR die after Critical Damage steps it down


def attack_dice(request: AttackRequest) -> tuple[int, ...]:
    """Impaired rolls one d4 instead of all the attack dice; enhanced adds a d12."""
    return {"normal": request.dice, "enhanced": (*request.dice, ENHANCED_DIE),
            "impaired": (IMPAIRED_DIE,)}[request.mode]


def absorb(damage: int, grit: int) -> tuple[int, int]:
    """Grit soaks damage first; returns (Grit lost, Direct Damage)."""
    lost = min(damage, grit)
    return lost, damage - lost


def attack_outcome(damage: int, direct: int) -> str:
    if damage == 0:
        return "deflected"
    return "direct" if direct else "dodged"


def critical_damage(save: SaveResult, attribute: str = "STR") -> tuple[str, int]:
    """What the Critical Damage save means, and the attribute's die after it."""
    strength = save.request.die
    if strength == 0:
        return AT_ZERO[attribute], 0  # Direct Damage at zero dice: death, paralysis or catatonia
    consequence = CONSEQUENCES[save.outcome]
    return consequence, strength if consequence == "minor" else step(strength, -1)


def roll_attack(roller: Roller, request: AttackRequest) -> AttackResult:
    rolls = tuple(Roll(sides, roller.die(sides)) for sides in attack_dice(request))
    highest = max((r.face for r in rolls), default=0)
    armor = request.effective_armor
    damage = max(0, highest - armor)
    grit_lost, direct = absorb(damage, request.grit)
    save = consequence = strength_after = None
    if direct and request.strength is not None:
        save = roll_save(roller, SaveRequest(request.strength, target=direct))
        consequence, strength_after = critical_damage(save, request.attribute)
    return AttackResult(request, rolls, highest, armor, damage, grit_lost, request.grit - grit_lost, direct,
                        attack_outcome(damage, direct), save, consequence, strength_after)


# --- the Mark of Death ---------------------------------------------------------------------------


class DeathRequest(Record):
    marked: bool = False  # already Marked by Death: a deal on 2-6


class DeathResult(Record):
    kind: ClassVar[str] = "death"
    request: DeathRequest
    roll: int  # the d6
    outcome: str  # taken | deal | return

    @property
    def text(self) -> str:
        return DEATH_TEXT[self.outcome]


def death_outcome(face: int, marked: bool) -> str:
    if face == 1:
        return "taken"
    return "deal" if marked or face <= 3 else "return"


def roll_death(roller: Roller, request: DeathRequest) -> DeathResult:
    face = roller.die(6)
    return DeathResult(request, face, death_outcome(face, request.marked))
