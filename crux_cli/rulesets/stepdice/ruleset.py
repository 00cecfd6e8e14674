"""Step dice: attribute dice on a track, saves to beat a 4 or a die, attacks on Grit."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from crux_cli.core.ruleset import Following, LazyModule, RuleSet, StatementTable, Vocabulary, row
from crux_cli.rulesets.stepdice import engine, words
from crux_cli.rulesets.stepdice import grammar as notation

NAME = "stepdice"
SUMMARY = "Step dice: d4–d12 attribute dice, saves vs 4 or a die, attacks on armor and Grit"
KEYWORDS = notation.KEYWORDS
ODDS = "crux_cli.rulesets.stepdice.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.stepdice.render"

if TYPE_CHECKING:  # mypy checks every row against the real odds and renderers
    from crux_cli.rulesets.stepdice import probability, render

    Result: TypeAlias = engine.SaveResult | engine.StepResult | engine.AttackResult | engine.DeathResult
else:  # which a roll imports at their first call
    probability, render = LazyModule(ODDS), LazyModule(RENDER)


def parse(text: str, keyword: str) -> notation.StepDiceStatement:
    return notation.parse(text, keyword)


def save_request(statement: notation.Save) -> engine.SaveRequest:
    """Without `vs`, a save beats the environment's 4."""
    target = engine.ENVIRONMENT_TARGET if statement.target is None else statement.target
    return engine.SaveRequest(statement.die, target, statement.opposing, statement.enhanced, statement.impaired)


def step_request(statement: notation.Step) -> engine.StepRequest:
    return engine.StepRequest(statement.die, statement.steps)


def step_run(roller: object, request: engine.StepRequest) -> engine.StepResult:
    """A step rolls nothing."""
    return engine.step_die(request)


def attack_request(statement: notation.Attack) -> engine.AttackRequest:
    return engine.AttackRequest(statement.dice, statement.armor, statement.grit, statement.strength,
                                statement.enhanced, statement.impaired, statement.attribute)


def death_request(statement: notation.Death) -> engine.DeathRequest:
    return engine.DeathRequest(statement.marked)


# statement -> what stepdice does with it: one row per statement
STATEMENTS: StatementTable[notation.StepDiceStatement, Result] = StatementTable(NAME, {
    notation.Save: row(result=engine.SaveResult, request=save_request, run=engine.roll_save,
                       odds=probability.save_odds, describe=render.save_text, to_json=render.save_json),
    notation.Step: row(result=engine.StepResult, request=step_request, run=step_run,
                       odds=probability.step_odds, describe=render.step_text, to_json=render.step_json),
    notation.Attack: row(result=engine.AttackResult, request=attack_request, run=engine.roll_attack,
                         odds=probability.attack_odds, describe=render.attack_text, to_json=render.attack_json),
    notation.Death: row(result=engine.DeathResult, request=death_request, run=engine.roll_death,
                        odds=probability.death_odds, describe=render.death_text, to_json=render.death_json),
})


RULESET = RuleSet(
    name=NAME,
    summary=SUMMARY,
    keywords=frozenset(KEYWORDS),
    parse=parse,
    run=STATEMENTS.run,
    odds=STATEMENTS.odds,
    describe=STATEMENTS.describe,
    to_json=STATEMENTS.to_json,
    colours=words.COLOURS,
    vocabulary=Vocabulary(words=tuple(sorted(KEYWORDS)), after=Following(words.FOLLOWING), lexicon=words.lexicon,
                          patterns=(), help=words.HELP),
)
