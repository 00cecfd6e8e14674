"""Exact odds for the Crux engine's requests (crux_cli.rulesets.crux.engine), ruling for ruling.

These answer the same `PoolRequest` and `AttackRequest` that `roll_pool` and
`roll_attack` roll, and reuse the engine's own helpers (bands, Grit, the order
of armour, resistance and vulnerability) so that the odds cannot drift from
what a roll does.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import ceil, log2

from crux_cli.core.errors import LimitError
from crux_cli.core.limits import EXPLOSION_DEPTH, MAX_DICE, rolling
from crux_cli.probability import cost
from crux_cli.probability.cost import (
    Shape,
    add_dice_estimate,
    convolve_cost,
    convolve_shape,
    explode_cost,
    highest_cost,
    shape,
    slides_cost,
    sum_cost,
    sum_shape,
)
from crux_cli.probability.dist import Dist, add_dice, constant, default_depth, die, mix
from crux_cli.probability.generic import check_table
from crux_cli.probability.result import AtLeast, Distribution, Odds, Rows, Table, WeightedRows, rows
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
COUNTED_ROWS = 16  # rows of an answer weighed over the kept die's denominator, at most (bands, faces, effect, Grit)
QUICK_PARTS = 0.3  # seconds: an attack's parts this quick are made before the rest is weighed exactly
TAIL_TERMS = 200_000  # the most terms a cut chain's mean is added up from before its closed form takes over


def kept_die(sides: int, net: int) -> Dist:
    """The kept die of a pool: 1 + |net| dice, the highest when net > 0, the lowest when net < 0."""
    count = pool_size(net)
    return die(sides).lowest(count) if net < 0 else die(sides).highest(count)


def request_odds(request: PoolRequest | AttackRequest, at_least: int | None = None,
                 depth: int | None = None) -> Odds:
    """The odds of whatever the compiler made of a Crux statement (the rule set's `odds` hook).

    `at_least` and `depth` concern damage, so a test, save or initiative ignores them.
    A pool a roll would refuse (past the dice limit) is refused here too.
    """
    check_dice(request)
    if isinstance(request, AttackRequest):
        return attack_odds(request, at_least=at_least, depth=depth)
    return pool_odds(request)


def check_dice(request: PoolRequest | AttackRequest) -> None:
    """Refuse, as a roll would, a statement whose dice pass the limit (Boons and Banes add dice). Odds
    count the dice rather than roll them (core/limits.py `counting`): past the roll's limit they are held
    to the odds limit instead, before any work, as the long weights of the kept die's few rows are."""
    dice = pool_size(request.net) + (request.count - 1 if isinstance(request, AttackRequest) else 0)
    if isinstance(request, PoolRequest) and request.ambush:
        dice = 0
    if dice > MAX_DICE and rolling("dice"):
        raise LimitError(f"this statement would roll more than {MAX_DICE:,} dice (the limit)",
                         hint="roll fewer dice, or split the roll into several statements")
    sides = request.sides if isinstance(request, AttackRequest) else 6
    check_table(sides)
    if dice <= MAX_DICE:
        return
    kept = pool_size(request.net)
    count = COUNTED_ROWS if isinstance(request, AttackRequest) else pool_rows(request)
    rows = Shape(count, count, ceil(kept * log2(sides)))  # over the kept die's denominator, sides ** kept
    cost.check(highest_cost(die(sides), kept) + counted_rows(rows))


def pool_rows(request: PoolRequest) -> int:
    """The rows of a pool's answer weighed over the kept die's denominator (`pool_odds`): its bands, the kept
    face, Grit earned, and a save's effect or initiative's actions (a row per band)."""
    extra = len(OUTCOME_ORDER) if request.kind in ("save", "initiative") else 0
    return len(OUTCOME_ORDER) + 6 + 2 + extra


def counted_rows(rows: Shape) -> float:
    """Seconds to show rows of exact weights this long: each reduced to lowest terms (a gcd of two numbers of
    the denominator's length, the text and JSON alike), and with --json written out as a fraction. Measured
    on `DEX +100000b`, `DEX -100000B`, `save STR +100000b` and `init +100000b`: the predictions run 1.4 to 2.0
    times the time taken (text and JSON), where the whole presentation of an exact fraction for the text too,
    and bits rounded up to whole bits a die, ran 5 to 8 times it."""
    if cost.exact_rows.get():
        return cost.presentation(rows, exact=True)
    digits = rows.bits * cost.LOG10_2
    return rows.outcomes * cost.GCD_DIGIT_SQUARED * digits * digits


def pool_odds(request: PoolRequest) -> Odds:
    """Tests, saves and initiative: outcome bands, the kept face, Grit earned (and effect or actions)."""
    # every table is weights over the kept die's denominator: a Fraction is made only for a row read as one
    in_bands = dict.fromkeys(OUTCOME_ORDER, 0)  # the kept faces' weights, added up by band
    if request.ambush:
        kept = constant(0)  # no roll: every table is certain
        in_bands["success"] = 1
    else:
        kept = kept_die(6, request.net)
        for face, weight in zip(kept.outcomes, kept.weights, strict=True):
            in_bands[BANDS[face]] += weight
    bands, weights = tuple(in_bands), tuple(in_bands.values())
    tables = [] if request.ambush else [Table("kept", "kept die", WeightedRows(
        [str(face) for face in kept.outcomes], kept.weights, kept.denominator))]
    if request.kind == "save":
        tables.append(Table("effect", "effect", WeightedRows(
            [SAVE_EFFECTS[band] for band in bands], weights, kept.denominator)))
    if request.kind == "initiative":
        tables.append(Table("actions", "actions in the first round", WeightedRows(
            [str(INITIATIVE_ACTIONS[band]) for band in bands], weights, kept.denominator)))
    tables.append(_grit_table(kept, request.grit_before))
    return Odds(kind=request.kind, outcomes=WeightedRows(bands, weights, kept.denominator), tables=tuple(tables))


def attack_odds(request: AttackRequest, at_least: int | None = None, depth: int | None = None) -> Odds:
    """Attacks: miss/hit/crit, Grit earned, the damage distribution after the target's rules, its mean.

    `depth` caps the crit's explosion chain: the most re-rolls of the primary die
    counted, as the engine's `explosions` (a chain whose last counted re-roll still
    shows the maximum is left over). By default the smallest cap leaving less than
    1e-12 uncounted. At the engine's own cap (EXPLOSION_DEPTH) or beyond, the chain
    stops there as the engine's does, and nothing is left over.
    """
    sides = request.sides
    depth = _crit_depth(request, depth)
    single, count = die(sides), request.count - 1
    parts = _plan_parts(request, depth)  # refused here when the odds would pass the odds limit
    primary = kept_die(sides, request.net)
    others = single.sum_of(count)
    top = sides if request.crits else sides + 1  # without crits the maximum is a plain hit (§11 minions)
    hit = primary.part(lambda face: 1 < face < top)
    crit = primary.part(lambda face: face == top)
    chain = crit + single.explode(depth - 1, truncate=depth >= EXPLOSION_DEPTH) if depth else None
    _plan_sums(parts, hit, chain, single, others, count)  # ... or here, before they are added up

    def damage(crit: bool) -> Callable[[int], int]:
        return lambda dice_total: apply_target(dice_total + request.flat, dice_total, request, crit)[1]

    missed = primary.part(lambda face: face == 1).map(lambda _: 0)
    hits = add_dice(hit, count, single, others).map(damage(False))
    # with no re-roll counted (depth 0), every crit is left over
    crits = crit.part(lambda _: False) if chain is None else add_dice(chain, count, single, others).map(damage(True))
    damage_dist = mix(missed, hits, crits)
    outcomes = rows({
        "miss": primary.probability(lambda face: face == 1),
        "hit": primary.probability(lambda face: 1 < face < top),
        "crit": primary.probability(lambda face: face == top),
    })
    tables = [_grit_table(primary, request.grit_before)]
    if request.minion:
        tables.append(_minion_table(request, damage_dist, damage(True), depth))
    return _damage_odds(request, depth, others, damage_dist, outcomes, tables, at_least)


def _crit_depth(request: AttackRequest, depth: int | None) -> int:
    """The re-rolls of a crit's chain counted: `depth` (the engine's cap at most), by default enough to leave
    less than 1e-12 uncounted; none without crits."""
    if depth is None:
        depth = default_depth(Fraction(1, request.sides)) + 1  # the first crit re-roll, then fresh rolls on a max
    return min(max(depth, 0), EXPLOSION_DEPTH) if request.crits else 0  # no crit, no chain


def _minion_table(request: AttackRequest, damage_dist: Dist, crit_damage: Callable[[int], int], depth: int) -> Table:
    """A minion attacked: killed (any damage) or survives."""
    killed = damage_dist.probability(lambda dealt: dealt > 0)
    # a chain past the cap deals at least what its shortest one would (damage never falls as the
    # dice total rises), so when that kills, every chain left over kills: no cap in the answer
    shortest = request.sides * (depth + 1) + 1 + (request.count - 1)
    if damage_dist.leftover and crit_damage(shortest) > 0:
        killed += damage_dist.leftover
    return Table("minion", "minion", rows({
        "killed": killed,
        "survives": damage_dist.probability(lambda dealt: dealt <= 0),
    }))


def _damage_odds(request: AttackRequest, depth: int, others: Dist, damage_dist: Dist, outcomes: Rows,
                 tables: list[Table], at_least: int | None) -> Odds:
    """An attack's odds: its outcomes and tables, the damage, and the crit chains left over in closed form."""
    leftover = damage_dist.leftover
    tail = _Tail.of(request, depth, others, leftover) if leftover else None
    tail_mean = tail.mean() if tail is not None else None
    mean = damage_dist.mean() + (tail_mean or 0)

    def exact_at_least(k: int) -> Fraction:
        return damage_dist.at_least(k) + (tail.at_least(k) if tail is not None else 0)

    return Odds(
        kind="attack",
        outcomes=outcomes,
        tables=tuple(tables),
        distribution=Distribution.of(damage_dist),
        label="damage",
        mean=mean,
        leftover=leftover,
        depth=depth if request.crits else None,
        at_least=AtLeast(at_least, exact_at_least(at_least)) if at_least is not None else None,
        exact_at_least=exact_at_least,
    )


class _Tail:
    """The crit chains the damage table leaves uncounted, in closed form: the mean and P(damage >= k) are
    exact although the table stops after `depth` re-rolls.

    The leftover is the crits whose first `depth` re-rolls all showed the maximum s (probability
    P(crit) * q**depth, q = 1/s). What follows is a fresh chain R of at most n = EXPLOSION_DEPTH - depth
    re-rolls (the engine's cap), each rolled while the one before showed s: R = s*j + u (u in 1..s-1)
    with probability q**j / s for j < n, or s*n with probability q**n. The damage is the crit's
    g(A + R + O): A = s*(depth + 1) + flat, O the other dice, g the target's rules on a crit (armour
    ignored; resistance halves, rounding down; vulnerability doubles), which for A + R + O >= 0 is
    linear but for the rounding: E[x // 2] = (E[x] - P(x odd)) / 2.
    """

    def __init__(self, request: AttackRequest, weight: Fraction, base: int, n: int, others: Dist) -> None:
        self.request, self.weight, self.base, self.n, self.others = request, weight, base, n, others
        self.s = request.sides
        self.q = Fraction(1, request.sides)

    @staticmethod
    def of(request: AttackRequest, depth: int, others: Dist, leftover: Fraction) -> _Tail | None:
        n = EXPLOSION_DEPTH - depth
        return _Tail(request, leftover, request.sides * (depth + 1) + request.flat, n, others) if n >= 1 else None

    def damage(self, total: int) -> int:
        """A crit's damage from its total: armour ignored, then resistance and vulnerability (the engine's)."""
        return apply_target(total, total, self.request, True)[1]

    def chain_mean(self, n: int) -> Fraction:
        """E[R] = (s + 1) / 2 * (1 - q**n) / (1 - q): the j-th re-roll happens with probability q**(j-1)."""
        return Fraction(self.s + 1, 2) * (1 - self.q ** n) / (1 - self.q)

    def chain_odd(self, n: int) -> Fraction:
        """P(R odd): of the s - 1 faces u that end a chain, the odd totals s*j + u are half of them (s odd),
        or s / 2 of them (s even); an uncut chain s*n is odd when s and n are."""
        s, q = self.s, self.q
        if s % 2 == 0:
            return Fraction(1, 2) * (1 - q ** n) / (1 - q)
        return (1 - q ** n) / 2 + (q ** n if n % 2 else 0)

    def mean(self) -> Fraction | None:
        """E[damage; leftover] (None when that would take too long). While a total could still be below 0
        (a large negative flat), the chain's next block is added up face by face (at most n of them); from
        there on, the closed form."""
        s, q, others = self.s, self.q, self.others
        weight, base, n, head = self.weight, self.base, self.n, Fraction(0)

        def over_others(total: int) -> Fraction:
            return Fraction(sum(w * self.damage(total + o) for o, w in zip(others.outcomes, others.weights,
                                                                             strict=True)), others.denominator)

        blocks = min(n, max(0, -(base + 1 + others.outcomes[0]) // s + 1))
        if blocks * (s - 1) * len(others.outcomes) > TAIL_TERMS:
            return None  # a flat so negative that long chains still deal nothing: the counted mean stands
        while n >= 1 and base + 1 + others.outcomes[0] < 0:
            head += weight * Fraction(1, s) * sum(over_others(base + u) for u in range(1, s))
            weight, base, n = weight * q, base + s, n - 1
        if n == 0:  # every re-roll showed the maximum: the chain stops at the cap, as the engine's does
            return head + weight * over_others(base)
        total = base + self.chain_mean(n) + others.mean()
        if self.request.resist:
            odd_rest = others.probability(lambda o: (base + o) % 2 == 1)
            odd = self.chain_odd(n) * (1 - odd_rest) + (1 - self.chain_odd(n)) * odd_rest
            total = (total - odd) / 2
        return head + weight * total * (2 if self.request.vuln else 1)

    def chain_below(self, t: int) -> Fraction:
        """P(R < t), in closed form (at most n blocks of s values)."""
        s, q, n = self.s, self.q, self.n
        if t <= 1:
            return Fraction(0)
        if t - 1 >= s * n:
            return Fraction(1)
        block = (t - 1) // s  # < n: the chains ending in blocks before it all count, then part of this one
        return 1 - q ** block + q ** block * Fraction(min(s - 1, t - 1 - s * block), s)

    def at_least(self, k: int) -> Fraction:
        """P(leftover and damage >= k): the least total x with g(x) >= k, then P(A + R + O >= x)."""
        if k <= 0:
            return self.weight
        need = -(-k // 2) if self.request.vuln else k
        least = 2 * need if self.request.resist else need
        below = sum(Fraction(w, self.others.denominator) * self.chain_below(least - self.base - o)
                    for o, w in zip(self.others.outcomes, self.others.weights, strict=True))
        return self.weight * (1 - below)


# ----- an attack's odds weighed before the work, against the odds limit (crux_cli.probability.cost) -----


def _plan_parts(request: AttackRequest, depth: int) -> float:
    """Refuse an attack whose odds would pass the odds limit, before any of the work; the seconds its
    parts take. The parts (the kept die, the other dice, the crit's chain) are made first, and adding
    them up is weighed exactly from them (`_plan_sums`); when the parts themselves take a while, the
    whole is weighed from their shapes here, so that a refusal never comes after long work."""
    parts = _parts_cost(request, depth)
    cost.check(parts)
    cost.check_memory(_sums_bytes(request, depth))  # d10000 +999b: weights of 14,000 bits on 50,000 values
    if parts > QUICK_PARTS:
        cost.check_answer(parts + _sums_cost(request, depth), None)
    return parts


def _plan_sums(parts: float, hit: Dist, chain: Dist | None, single: Dist, others: Dist, count: int) -> None:
    """Refuse an attack whose parts, made in `parts` seconds, would pass the odds limit once added to
    the other dice (`others`, `count` of `single`), the target's rules applied, mixed and shown."""
    seconds = parts + add_dice_estimate(hit, count, single, others)
    crit_shape = Shape(0, 0, 0)
    if chain is not None:
        seconds += add_dice_estimate(chain, count, single, others)
        crit_shape = convolve_shape(shape(chain), shape(others))
    hit_shape = convolve_shape(shape(hit), shape(others))
    values = hit_shape.outcomes + crit_shape.outcomes + 1
    bits = max(hit_shape.bits, crit_shape.bits)
    seconds += cost.calls(3 * values) + cost.items(10 * values, bits)  # the target's rules, mix, mean
    cost.check_answer(seconds, Shape(values, max(hit_shape.high, crit_shape.high), bits))


def _parts_cost(request: AttackRequest, depth: int) -> float:
    """Seconds to make an attack's parts: the kept primary die, the other dice's total, the chain."""
    single = die(request.sides)
    return (highest_cost(single, pool_size(request.net)) + sum_cost(single, request.count - 1)
            + (explode_cost(single, depth - 1, lambda face: face == request.sides, depth >= EXPLOSION_DEPTH)
               if depth else 0.0))


def _sum_shapes(request: AttackRequest, depth: int) -> tuple[Shape, list[Shape]]:
    """The shapes of an attack's other dice, and of the parts added to them (the hit, the crit's chain)."""
    sides, count = request.sides, request.count - 1
    primary_bits = pool_size(request.net) * sides.bit_length()
    others = sum_shape(shape(die(sides)), count)
    hit = Shape(max(sides - 2, 1), max(sides - 3, 0), primary_bits, 2)
    chain = Shape(sides * depth, max(sides * depth - 1, 0), primary_bits + depth * sides.bit_length(), sides + 1)
    return others, [hit, chain] if depth else [hit]


def _sums_bytes(request: AttackRequest, depth: int) -> float:
    """Bytes of exact weights in the damage's parts, each held more than once as it is mapped and mixed."""
    others, parts = _sum_shapes(request, depth)
    return sum(values.outcomes * values.bits / 8 for values in (convolve_shape(part, others) for part in parts))


def _sums_cost(request: AttackRequest, depth: int) -> float:
    """Seconds to add up an attack's parts, from their shapes alone (an upper bound)."""
    single, count = die(request.sides), request.count - 1
    others, parts = _sum_shapes(request, depth)
    seconds = 0.0
    for part in parts:
        slides = slides_cost(part, count, single)
        once = convolve_cost(part, others) if count else 0.0
        seconds += once if slides is None else min(slides, once)
        values = convolve_shape(part, others)
        seconds += cost.calls(3 * values.outcomes) + cost.items(10 * values.outcomes, values.bits)
    return seconds


def _grit_table(kept: Dist, grit_before: int | None) -> Table:
    earned = sum(weight for face, weight in zip(kept.outcomes, kept.weights, strict=True)
                 if grit_gained(face, grit_before) == 1)
    return Table("grit_gained", "Grit earned", WeightedRows(("1", "0"), (earned, kept.denominator - earned),
                                                            kept.denominator))
