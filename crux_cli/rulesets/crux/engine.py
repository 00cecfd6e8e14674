"""The Crux System's rules (seed 001): tests, saves, initiative and attacks.

Each roll is described by a *request* (what the compiler worked out from the
statement and the hero: the net of Boons and Banes, the pool, the armour...)
and answered with a *result* that records every die. The same requests feed
the exact odds in `crux_cli.rulesets.crux.probability`.
"""

# No `from __future__ import annotations`: typing.NamedTuple turns each string annotation into a ForwardRef,
# compiling it, about 1.3 ms of every roll's start-up for Source and GritChange (tests/bench/bench_startup.py).
from typing import ClassVar, NamedTuple

from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.core.memo import kept_property
from crux_cli.core.record import Record, field
from crux_cli.core.rng import Roller

BANDS = {1: "failure", 2: "failure", 3: "partial", 4: "partial", 5: "success", 6: "success"}
SAVE_EFFECTS = {"failure": "full effect", "partial": "partial", "success": "resisted"}
INITIATIVE_ACTIONS = {"failure": 1, "partial": 2, "success": 3}
GRIT_MAX = 5  # a hero holds 0..5 Grit (seed §3)


class Source(NamedTuple):
    """Where a Boon or Bane came from, so the output can say why the pool is what it is."""

    what: str  # "rating", "boons", "banes", "grit", "help", "adv", "dis", "vs rushed", "rushed", "frightened"...
    net: int  # its contribution to the net: +N boons, -N banes


class GritChange(NamedTuple):
    spent: int = 0
    gained: int = 0


# the four Grit changes a roll can make, made once (a NamedTuple's __new__ is a Python function: a batch makes one
# a line); immutable, so every result shares them
GRIT_CHANGES = {(spent, gained): GritChange(spent, gained) for spent in (0, 1) for gained in (0, 1)}


class PoolRequest(Record):
    """A d6 pool test: what tests, saves and initiative have in common."""

    kind: str  # "test" | "save" | "initiative"
    attribute: str | None
    sources: tuple[Source, ...] = ()
    grit_spent: bool = False
    grit_before: int | None = None  # the hero's Grit after spending; None without a sheet
    stance: str | None = None  # saves: "adv" | "dis" | None
    vs_rushed: bool = False  # saves against a rushed attack's effect
    ambush: bool = False  # initiative: no roll, 3 actions
    position: str | None = None  # narrative labels, carried into the output
    effect: str | None = None

    @kept_property  # kept in the instance: a request is reused by every roll of its statement
    def net(self) -> int:
        return sum(s.net for s in self.sources)


class AttackRequest(Record):
    count: int  # dice in the pool; the first is the primary die
    sides: int
    sources: tuple[Source, ...] = ()  # act on the primary die only
    flat: int = 0
    armour: str = "unarmoured"
    resist: bool = False
    vuln: bool = False
    minion: bool = False
    grit_spent: bool = False
    grit_before: int | None = None
    position: str | None = None  # narrative labels, carried into the output
    effect: str | None = None
    crits: bool = True  # False: the primary die's maximum is a plain hit (minions, §11 "usually do not crit")

    @kept_property  # kept in the instance: a request is reused by every roll of its statement
    def net(self) -> int:
        return sum(s.net for s in self.sources)


class PoolResult(Record):
    kind: ClassVar[str] = "pool"
    request: PoolRequest
    dice: tuple[int, ...]  # every face rolled
    kept: int | None  # None only for an ambush, which rolls nothing
    outcome: str  # failure | partial | success
    grit: GritChange

    @property
    def net(self) -> int:
        return self.request.net

    @property
    def effect(self) -> str:
        return SAVE_EFFECTS[self.outcome]

    @property
    def actions(self) -> int:
        return INITIATIVE_ACTIONS[self.outcome]


class AttackResult(Record):
    kind: ClassVar[str] = "attack"
    request: AttackRequest
    primary_dice: tuple[int, ...]  # the primary die's pool (1 + |net| dice)
    primary: int  # the kept primary die
    explosions: tuple[int, ...]  # crit re-rolls of the primary die, in order
    dice: tuple[int, ...]  # the other damage dice
    outcome: str  # miss | hit | crit
    dice_total: int
    total: int  # dice + flat, before armour
    after_armour: int
    damage: int
    killed: bool | None  # minions only
    grit: GritChange
    steps: tuple[tuple[str, int], ...] = field(default=())  # (what changed the damage, the damage after)


def pool_size(net: int) -> int:
    """Net 0 rolls one die; net ±N rolls 1 + N dice."""
    return 1 + abs(net)


def keep(dice: tuple[int, ...], net: int) -> int:
    """Keep the highest die when the net favours the roller, the lowest when it hurts."""
    return min(dice) if net < 0 else max(dice)


def grit_gained(kept: int | None, grit_before: int | None) -> int:
    """A kept 1 earns 1 Grit unless the hero already has the most there is."""
    if kept != 1:
        return 0
    return 1 if grit_before is None or grit_before < GRIT_MAX else 0


def roll_pool(roller: Roller, request: PoolRequest) -> PoolResult:
    spent = 1 if request.grit_spent else 0
    if request.ambush:
        return PoolResult(request, (), None, "success", GRIT_CHANGES[spent, 0])
    net = request.net
    # `pool_size`, `keep` and `grit_gained` spelled out: a batch rolls a pool at most lines (PERFORMANCE.md)
    dice = tuple(roller.dice(1 + abs(net), 6))
    kept = min(dice) if net < 0 else max(dice)
    before = request.grit_before
    gained = 1 if kept == 1 and (before is None or before < GRIT_MAX) else 0
    return PoolResult(request, dice, kept, BANDS[kept], GRIT_CHANGES[spent, gained])


def explode(roller: Roller, sides: int) -> tuple[int, ...]:
    """Crit: roll the primary die again, and again while it shows its maximum (at most EXPLOSION_DEPTH times).

    The re-rolls are outside the statement's dice limit (crux-notation(7) LIMITS): the attack's pool is held to
    it before anything is rolled, so whether an attack is refused is a matter of what was written, never of a
    crit (`atk 1000d2` was refused on a crit only). The chain is bounded by EXPLOSION_DEPTH on its own.
    """
    rolls: list[int] = []
    counted = roller.rolled
    roller.rolled = 0  # not counted: a chain of at most EXPLOSION_DEPTH dice, below any dice limit
    try:
        while len(rolls) < EXPLOSION_DEPTH:
            rolls.append(roller.die(sides))
            if rolls[-1] != sides:
                break
    finally:
        roller.rolled = counted
    return tuple(rolls)


def apply_target(total: int, dice_total: int, request: AttackRequest,
                 crit: bool) -> tuple[int, int, list[tuple[str, int]]]:
    """Armour, then resistance, then vulnerability (crux-notation(7) CRUX STATEMENTS, Attacks); damage never below 0.

    Returns (damage after armour, final damage, the steps that changed it).
    """
    steps: list[tuple[str, int]] = []
    if request.armour == "unarmoured" or crit or request.vuln:
        damage = max(0, total)
        if request.armour != "unarmoured":
            steps.append((f"{'crit' if crit else 'vulnerability'} ignores {request.armour} armour", damage))
    elif request.armour == "medium":
        damage = max(0, dice_total)
        steps.append(("medium armour: dice only", damage))
    else:
        damage = max(0, dice_total) // 2
        steps.append(("heavy armour: half the dice", damage))
    after_armour = damage
    if request.resist:
        damage //= 2
        steps.append(("resistance halves", damage))
    if request.vuln:
        damage *= 2
        steps.append(("vulnerability doubles", damage))
    return after_armour, damage, steps


def roll_attack(roller: Roller, request: AttackRequest) -> AttackResult:
    net, sides = request.net, request.sides
    primary_dice = tuple(roller.dice(1 + abs(net), sides))  # `pool_size`, `keep`, spelled out as in `roll_pool`
    primary = min(primary_dice) if net < 0 else max(primary_dice)
    others = tuple(roller.dice(request.count - 1, sides))
    grit = GRIT_CHANGES[1 if request.grit_spent else 0, grit_gained(primary, request.grit_before)]
    if primary == 1:
        return AttackResult(request, primary_dice, primary, (), others, "miss", 0, 0, 0, 0,
                            False if request.minion else None, grit)
    crit = primary == sides
    explosions = explode(roller, sides) if crit else ()
    dice_total = primary + sum(explosions) + sum(others)
    total = dice_total + request.flat
    after_armour, damage, steps = apply_target(total, dice_total, request, crit)
    killed = damage > 0 if request.minion else None
    result = AttackResult(request, primary_dice, primary, explosions, others, "crit" if crit else "hit",
                          dice_total, total, after_armour, damage, killed, grit, tuple(steps))
    return result if request.crits else without_crit(result)


def without_crit(result: AttackResult) -> AttackResult:
    """The same roll read with its maximum as a plain hit, for attackers who do not crit (minions, §11).

    The explosions are dropped and armour applies as on any hit.
    """
    if result.outcome != "crit":
        return result
    request = result.request
    dice_total = result.primary + sum(result.dice)
    total = dice_total + request.flat
    after_armour, damage, steps = apply_target(total, dice_total, request, False)
    killed = damage > 0 if request.minion else None
    return result.replace(outcome="hit", explosions=(), dice_total=dice_total, total=total,
                          after_armour=after_armour, damage=damage, killed=killed, steps=tuple(steps))
