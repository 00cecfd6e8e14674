"""d20 checks: a d20 against 20 − Stat, favor and hinder, damage against armor."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from crux_cli.core.ruleset import Following, LazyModule, RuleSet, StatementTable, Vocabulary, row
from crux_cli.rulesets.d20check import engine, words
from crux_cli.rulesets.d20check import grammar as notation

NAME = "d20check"
SUMMARY = "d20 checks: d20 vs 20 − Stat (×2 trained), favored/hindered d6, armor, immune, weak"
KEYWORDS = notation.KEYWORDS
ODDS = "crux_cli.rulesets.d20check.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.d20check.render"

if TYPE_CHECKING:  # mypy checks every row against the real odds and renderers
    from crux_cli.rulesets.d20check import probability, render

    Result: TypeAlias = engine.CheckResult | engine.DamageResult
else:  # which a roll imports at their first call
    probability, render = LazyModule(ODDS), LazyModule(RENDER)


def parse(text: str, keyword: str) -> notation.D20CheckStatement:
    return notation.parse(text, keyword)


def check_request(statement: notation.Check) -> engine.CheckRequest:
    """Favor and hinder folded to one die (or none)."""
    return engine.CheckRequest(statement.stat, statement.trained,
                               engine.net_favor(statement.favored, statement.hindered))


def damage_request(statement: notation.Damage) -> engine.DamageRequest:
    return engine.DamageRequest(statement.count, statement.sides, statement.flat, statement.armor,
                                statement.immune, statement.weak)


# statement -> what d20check does with it: one row per statement
STATEMENTS: StatementTable[notation.D20CheckStatement, Result] = StatementTable(NAME, {
    notation.Check: row(result=engine.CheckResult, request=check_request, run=engine.roll_check,
                        odds=probability.check_odds, describe=render.check_text, to_json=render.check_json),
    notation.Damage: row(result=engine.DamageResult, request=damage_request, run=engine.roll_damage,
                         odds=probability.damage_odds, describe=render.damage_text, to_json=render.damage_json),
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
