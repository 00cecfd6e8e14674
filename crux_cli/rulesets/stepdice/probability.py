"""Exact odds of the step-dice statements, from the same requests the engine rolls."""

from __future__ import annotations

from fractions import Fraction

from crux_cli.probability.outcomes import Weights, constant, die_weights, highest_of_dice, make_odds, ordered
from crux_cli.probability.result import Odds
from crux_cli.rulesets.stepdice import engine as rules


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
    """Outcomes deflected/dodged/direct; with a STR die, Direct Damage splits into its consequences."""
    chances: dict[str, Fraction] = {}
    damages: Weights = {}
    for top, p in highest_of_dice(rules.attack_dice(request)).items():
        damage = max(0, top - request.effective_armor)
        damages[damage] = damages.get(damage, Fraction(0)) + p
        _, direct = rules.absorb(damage, request.grit)
        outcome = rules.attack_outcome(damage, direct)
        if outcome != "direct" or request.strength is None:
            chances[outcome] = chances.get(outcome, Fraction(0)) + p
            continue
        for consequence, q in consequence_chances(request.strength, direct, request.attribute).items():
            chances[consequence] = chances.get(consequence, Fraction(0)) + p * q
    order = rules.ATTACK_OUTCOMES if request.strength is None else (*rules.ATTACK_OUTCOMES[:2],
                                                                    *rules.CONSEQUENCE_ORDER[:3],
                                                                    rules.AT_ZERO[request.attribute])
    return make_odds("attack", ordered(order, chances), damages, "damage")


def consequence_chances(strength: int, direct: int, attribute: str = "STR") -> dict[str, Fraction]:
    """The Critical Damage save (the attribute's die vs the Direct Damage), read as its consequence."""
    if strength == 0:
        return {rules.AT_ZERO[attribute]: Fraction(1)}
    saves = save_chances(rules.SaveRequest(strength, target=direct))
    return {rules.CONSEQUENCES[outcome]: p for outcome, p in saves.items() if p}


def death_odds(request: rules.DeathRequest) -> Odds:
    chances: dict[str, Fraction] = {}
    for face in range(1, 7):
        outcome = rules.death_outcome(face, request.marked)
        chances[outcome] = chances.get(outcome, Fraction(0)) + Fraction(1, 6)
    return make_odds("death", ordered(rules.DEATH_OUTCOMES, chances))
