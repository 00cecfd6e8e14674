"""Step dice: attribute dice on a track, saves to beat a 4 or a die, attacks on Grit."""

from __future__ import annotations

from crux_cli.core.ruleset import Following, Handlers, RuleSet, StatementTable, Vocabulary, lazy
from crux_cli.rulesets.stepdice import engine, words
from crux_cli.rulesets.stepdice import grammar as notation

NAME = "stepdice"
SUMMARY = "Step dice: d4–d12 attribute dice, saves vs 4 or a die, attacks on armor and Grit"
KEYWORDS = notation.KEYWORDS
ODDS = "crux_cli.rulesets.stepdice.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.stepdice.render"


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
STATEMENTS = StatementTable(NAME, {
    notation.Save: Handlers(result=engine.SaveResult, request=save_request, run=engine.roll_save,
                            odds=lazy(ODDS, "save_odds"), describe=lazy(RENDER, "save_text"),
                            to_json=lazy(RENDER, "save_json")),
    notation.Step: Handlers(result=engine.StepResult, request=step_request, run=step_run,
                            odds=lazy(ODDS, "step_odds"), describe=lazy(RENDER, "step_text"),
                            to_json=lazy(RENDER, "step_json")),
    notation.Attack: Handlers(result=engine.AttackResult, request=attack_request, run=engine.roll_attack,
                              odds=lazy(ODDS, "attack_odds"), describe=lazy(RENDER, "attack_text"),
                              to_json=lazy(RENDER, "attack_json")),
    notation.Death: Handlers(result=engine.DeathResult, request=death_request, run=engine.roll_death,
                             odds=lazy(ODDS, "death_odds"), describe=lazy(RENDER, "death_text"),
                             to_json=lazy(RENDER, "death_json")),
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
