"""Challenge rolls: pools of d6 read by the highest die, in the seed's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from crux_cli.core.ruleset import Following, LazyModule, RuleSet, StatementTable, Vocabulary, row
from crux_cli.rulesets.challenge import engine, words
from crux_cli.rulesets.challenge import grammar as notation

NAME = "challenge"
SUMMARY = "Challenge rolls: action, fortune and resistance pools of d6, highest die, risk and XP"
KEYWORDS = notation.KEYWORDS
ODDS = "crux_cli.rulesets.challenge.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.challenge.render"

if TYPE_CHECKING:  # mypy checks every row against the real odds and renderers
    from crux_cli.rulesets.challenge import probability, render

    Result: TypeAlias = engine.ActionResult | engine.FortuneResult | engine.ResistResult
else:  # which a roll imports at their first call
    probability, render = LazyModule(ODDS), LazyModule(RENDER)


def parse(text: str, keyword: str) -> notation.ChallengeStatement:
    return notation.parse(text, keyword)


def action_request(statement: notation.Action) -> engine.ActionRequest:
    return engine.ActionRequest(statement.rating, statement.advantage, statement.disadvantage, statement.risk)


def fortune_request(statement: notation.Fortune) -> engine.FortuneRequest:
    return engine.FortuneRequest(statement.rating, statement.advantages, statement.disadvantages)


def resist_request(statement: notation.Resist) -> engine.ResistRequest:
    return engine.ResistRequest(statement.rating)


# statement -> what challenge does with it: one row per statement
STATEMENTS: StatementTable[notation.ChallengeStatement, Result] = StatementTable(NAME, {
    notation.Action: row(result=engine.ActionResult, request=action_request, run=engine.roll_action,
                         odds=probability.action_odds, describe=render.action_text, to_json=render.action_json),
    notation.Fortune: row(result=engine.FortuneResult, request=fortune_request, run=engine.roll_fortune,
                          odds=probability.fortune_odds, describe=render.fortune_text, to_json=render.fortune_json),
    notation.Resist: row(result=engine.ResistResult, request=resist_request, run=engine.roll_resist,
                         odds=probability.resist_odds, describe=render.resist_text, to_json=render.resist_json),
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
