"""Exact odds for the Crux engine's requests (crux_cli.rulesets.crux.engine), ruling for ruling.

These answer the same `PoolRequest` and `AttackRequest` that `roll_pool` and
`roll_attack` roll, and reuse the engine's own helpers (bands, Grit, the order
of armour, resistance and vulnerability) so that the odds cannot drift from
what a roll does.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.odds.dist import Dist, constant, default_depth, die, mix
from crux_cli.odds.result import AtLeast, Distribution, Odds, Table, rows
from crux_cli.rulesets.crux.engine import (
    BANDS,
    INITIATIVE_ACTIONS,
    SAVE_EFFECTS,
    AttackRequest,
    PoolRequest,
    apply_target,
    grit_gained,
    pool_size,
)

OUTCOME_ORDER = ("failure", "partial", "success")


def kept_die(sides: int, net: int) -> Dist:
    """The kept die of a pool: 1 + |net| dice, the highest when net > 0, the lowest when net < 0."""
    count = pool_size(net)
    return die(sides).lowest(count) if net < 0 else die(sides).highest(count)


def request_odds(request: PoolRequest | AttackRequest, at_least: int | None = None,
                 depth: int | None = None) -> Odds:
    """The odds of whatever the compiler made of a Crux statement (the rule set's `odds` hook).

    `at_least` and `depth` concern damage, so a test, save or initiative ignores them.
    """
    if isinstance(request, AttackRequest):
        return attack_odds(request, at_least=at_least, depth=depth)
    return pool_odds(request)


def pool_odds(request: PoolRequest) -> Odds:
    """Tests, saves and initiative: outcome bands, the kept face, Grit earned (and effect or actions)."""
    if request.ambush:
        kept = constant(0)  # no roll: every table is certain
        bands = {"failure": Fraction(0), "partial": Fraction(0), "success": Fraction(1)}
        faces: tuple[tuple[str, Fraction], ...] = ()
    else:
        kept = kept_die(6, request.net)
        bands = {band: kept.probability(in_band(band)) for band in OUTCOME_ORDER}
        faces = rows([(str(face), p) for face, p in kept.items()])
    tables = [] if request.ambush else [Table("kept", "kept die", faces)]
    if request.kind == "save":
        tables.append(Table("effect", "effect", rows([(SAVE_EFFECTS[b], p) for b, p in bands.items()])))
    if request.kind == "initiative":
        tables.append(Table("actions", "actions in the first round",
                            rows([(str(INITIATIVE_ACTIONS[b]), p) for b, p in bands.items()])))
    tables.append(_grit_table(kept, request.grit_before))
    return Odds(kind=request.kind, outcomes=rows(bands), tables=tuple(tables))


def in_band(band: str) -> Callable[[int], bool]:
    """Whether a kept face falls in `band` (failure, partial, success)."""
    return lambda face: BANDS[face] == band


def attack_odds(request: AttackRequest, at_least: int | None = None, depth: int | None = None) -> Odds:
    """Attacks: miss/hit/crit, Grit earned, the damage distribution after the target's rules, its mean.

    `depth` caps the crit's explosion chain: the most re-rolls of the primary die
    counted, as the engine's `explosions` (a chain whose last counted re-roll still
    shows the maximum is left over). By default the smallest cap leaving less than
    1e-12 uncounted. At the engine's own cap (EXPLOSION_DEPTH) or beyond, the chain
    stops there as the engine's does, and nothing is left over.
    """
    sides = request.sides
    primary = kept_die(sides, request.net)
    others = die(sides).sum_of(request.count - 1)
    if depth is None:
        depth = default_depth(Fraction(1, sides)) + 1  # the first crit re-roll, then fresh rolls on a max
    depth = min(max(depth, 0), EXPLOSION_DEPTH)

    def damage(crit: bool) -> Callable[[int], int]:
        return lambda dice_total: apply_target(dice_total + request.flat, dice_total, request, crit)[1]

    missed = primary.part(lambda face: face == 1).map(lambda _: 0)
    hits = (primary.part(lambda face: 1 < face < sides) + others).map(damage(False))
    crit = primary.part(lambda face: face == sides)
    if depth == 0:  # not even the first re-roll is counted: every crit is left over
        crits = crit.part(lambda _: False)
    else:
        chain = die(sides).explode(depth - 1, truncate=depth >= EXPLOSION_DEPTH)
        crits = (crit + chain + others).map(damage(True))
    damage_dist = mix(missed, hits, crits)

    outcomes = rows({
        "miss": primary.probability(lambda face: face == 1),
        "hit": primary.probability(lambda face: 1 < face < sides),
        "crit": primary.probability(lambda face: face == sides),
    })
    tables = [_grit_table(primary, request.grit_before)]
    if request.minion:
        tables.append(Table("minion", "minion", rows({
            "killed": damage_dist.probability(lambda dealt: dealt > 0),
            "survives": damage_dist.probability(lambda dealt: dealt <= 0),
        })))
    leftover = damage_dist.leftover
    return Odds(
        kind="attack",
        outcomes=outcomes,
        tables=tuple(tables),
        distribution=Distribution.of(damage_dist),
        label="damage",
        mean=damage_dist.mean(),
        leftover=leftover,
        depth=depth,
        at_least=AtLeast(at_least, damage_dist.at_least(at_least)) if at_least is not None else None,
    )


def _grit_table(kept: Dist, grit_before: int | None) -> Table:
    earned = kept.probability(lambda face: grit_gained(face, grit_before) == 1)
    return Table("grit_gained", "Grit earned", rows({"1": earned, "0": 1 - earned}))
