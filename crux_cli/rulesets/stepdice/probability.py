"""Exact odds of the step-dice statements, from the same requests the engine rolls."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import ceil, log2

from crux_cli.core.errors import LimitError
from crux_cli.probability import cost
from crux_cli.probability.outcomes import Weights, constant, die_weights, highest_of_dice, make_odds, ordered
from crux_cli.probability.result import Distribution, Odds, WeightedRows
from crux_cli.rulesets.stepdice import engine as rules

COUNTED_ROWS = 16  # exact values of an attack's answer reduced to lowest terms besides its rows: outcomes, mean, sd
ATTACK_PASSES = 20  # interpreted steps on a face: its ways, damage, outcome sums, mean, the rows shown
# An attack's dice are a tuple of sides in the statement and its request (8 bytes a die, and a copy when
# enhanced); writing them out and counting them by size are a few interpreted steps a die.
DIE_BYTES = 16
DIE_PASSES = 4


def score_dist(request: rules.SaveRequest) -> Weights:
    """The saver's kept die; the caller handles a die at zero."""
    return highest_of_dice(rules.save_dice(request))


def target_dist(request: rules.SaveRequest) -> Weights:
    if request.opposing is None:
        return constant(request.target)
    return die_weights(request.opposing) if request.opposing else constant(0)


def save_chances(request: rules.SaveRequest) -> dict[str, Fraction]:
    if request.die == 0:
        return ordered(rules.SAVE_OUTCOMES, {"lose": Fraction(1)})
    chances: dict[str, Fraction] = {}
    targets = target_dist(request)
    for score, p in score_dist(request).items():
        for target, q in targets.items():
            outcome = rules.compare(score, target)
            chances[outcome] = chances.get(outcome, Fraction(0)) + p * q
    return ordered(rules.SAVE_OUTCOMES, chances)


def save_odds(request: rules.SaveRequest) -> Odds:
    return make_odds("save", save_chances(request))


def step_odds(request: rules.StepRequest) -> Odds:
    after = rules.step_die(request).after
    return make_odds("step", {rules.die_name(after): Fraction(1)})


def attack_odds(request: rules.AttackRequest) -> Odds:
    """Outcomes deflected/dodged/direct; with a STR die, Direct Damage splits into its consequences.

    Integer weights over the dice's denominator (the product of every die's sides): the highest face,
    its damage past armour, and each outcome (a consequence's weight times the save's ways, over the
    STR die's sides) are sums of those weights, and no Fraction is made per face."""
    counts = Counter(rules.attack_dice(request))
    check_attack(counts)
    weights = highest_weights(counts)
    denominator = sum(weights)
    top, armor = len(weights), request.effective_armor
    cut = min(armor, top)  # the faces armour stops: damage 0
    damages = ([0] if cut else []) + list(range(1, top - cut + 1))
    damage_weights = ([sum(weights[:cut])] if cut else []) + weights[cut:]
    strength = request.strength
    scale = strength or 1  # a consequence's weight is over the STR die's sides too
    consequences: dict[int, dict[str, int]] = {}  # by Direct Damage
    chances = dict.fromkeys(rules.ATTACK_OUTCOMES if strength is None else
                            (*rules.ATTACK_OUTCOMES[:2], *rules.CONSEQUENCE_ORDER[:3],
                             rules.AT_ZERO[request.attribute]), 0)
    for damage, weight in zip(damages, damage_weights, strict=True):
        _, direct = rules.absorb(damage, request.grit)
        outcome = rules.attack_outcome(damage, direct)
        if outcome != "direct" or strength is None:
            chances[outcome] += weight * scale
        elif strength == 0:
            chances[rules.AT_ZERO[request.attribute]] += weight
        else:  # the Critical Damage save: the STR die against the Direct Damage, the same past its sides
            known = min(direct, strength + 1)
            if known not in consequences:
                consequences[known] = consequence_ways(strength, direct)
            for consequence, ways in consequences[known].items():
                chances[consequence] += weight * ways
    mean = Fraction(sum(damage * weight for damage, weight in zip(damages, damage_weights, strict=True)), denominator)
    return Odds("attack", WeightedRows(tuple(chances), tuple(chances.values()), denominator * scale),
                distribution=Distribution(damages, damage_weights, denominator), label="damage", mean=mean)


def highest_weights(counts: Mapping[int, int]) -> list[int]:
    """The ways the highest face of these dice (sides: how many) is 1, 2, … up to the largest die's sides,
    out of the product of every die's sides: the ways all are at most v, Π min(v, s)^count, less those
    all are at most v - 1."""
    below, rest = 1, sum(counts.values())  # the ways of the dice smaller than v; how many dice are not
    weights, previous = [], 0
    for face in range(1, max(counts) + 1):
        at_most = below * face**rest
        weights.append(at_most - previous)
        previous = at_most
        if face in counts:
            below *= face ** counts[face]
            rest -= counts[face]
    return weights


def check_attack(counts: Mapping[int, int]) -> None:
    """Refuse, before any work, an attack whose exact odds would pass the odds limit (probability/cost.py):
    each face's ways (a power and a product of up to the denominator's length), the outcomes' sums, and
    the answer shown, a row per face. Within the roll's dice limits it is at most a few milliseconds."""
    top = max(counts)
    bits = ceil(sum(count * log2(sides) for sides, count in counts.items())) + 1
    half = cost.product(bits / 2, bits / 2)
    work = (top * ((2 * cost.SQUARE + 1) * half + cost.items(ATTACK_PASSES, bits))
            + cost.presentation(cost.Shape(COUNTED_ROWS, COUNTED_ROWS, bits), exact=True))
    cost.check_answer(work, cost.Shape(top, top - 1, bits, 0), fewer="ask for fewer or smaller dice")  # no keeps


def check_dice(groups: Iterable[tuple[int, int]]) -> None:
    """Refuse, before the attack's dice are written out one by one (a statement holds them so: `dice`), an
    attack past the roll's dice limit whose odds would pass the odds limit, or whose dice alone would:
    `groups` are its (count, sides) as written."""
    counts: Counter[int] = Counter()
    for count, sides in groups:
        counts[sides] += count
    dice = sum(counts.values())
    if dice * DIE_BYTES > cost.LIMIT_BYTES or cost.here(cost.items(DIE_PASSES * dice, 0)) > cost.LIMIT_SECONDS:
        raise LimitError(f"these exact odds pass the odds size limit: {dice:,} dice are too many to write out, "
                         f"where about {cost.LIMIT_BYTES // DIE_BYTES:,} are the limit",
                         hint="ask for fewer dice" + cost.STILL_ROLLS)
    check_attack(counts)


def consequence_ways(strength: int, direct: int) -> dict[str, int]:
    """The Critical Damage save (the attribute's die of `strength` sides vs the Direct Damage) as the ways of
    each consequence out of the die's sides."""
    ways = dict.fromkeys(rules.CONSEQUENCES.values(), 0)
    for face in range(1, strength + 1):
        ways[rules.CONSEQUENCES[rules.compare(face, direct)]] += 1
    return ways


def death_odds(request: rules.DeathRequest) -> Odds:
    chances: dict[str, Fraction] = {}
    for face in range(1, 7):
        outcome = rules.death_outcome(face, request.marked)
        chances[outcome] = chances.get(outcome, Fraction(0)) + Fraction(1, 6)
    return make_odds("death", ordered(rules.DEATH_OUTCOMES, chances))
