"""d20 checks (seed 003): a d20 against 20 − Stat, favor and hinder, damage against armor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core.ruleset import Context, RuleSet, lazy
from crux_cli.rulesets.d20check import engine, words
from crux_cli.rulesets.d20check import grammar as notation
from crux_cli.rulesets.d20check.compiler import compile_statement

if TYPE_CHECKING:
    from crux_cli.odds.result import Odds  # odds are imported when asked for, never on a roll

NAME = "d20check"
SUMMARY = "d20 checks (seed 003): d20 vs 20 − Stat (×2 trained), favored/hindered d6, armor, immune, weak"
SEED = "003_2479fd5e1a762c3d.txt"
KEYWORDS = notation.KEYWORDS


def parse(text: str, keyword: str) -> notation.D20CheckStatement:
    return notation.parse(text, keyword)


def run(statement: notation.D20CheckStatement, ctx: Context) -> engine.CheckResult | engine.DamageResult:
    request = compile_statement(statement)
    if isinstance(request, engine.CheckRequest):
        return engine.roll_check(ctx.roller, request)
    return engine.roll_damage(ctx.roller, request)


def odds(statement: notation.D20CheckStatement, ctx: Context | None = None) -> Odds:
    from crux_cli.rulesets.d20check import odds as exact

    request = compile_statement(statement)
    if isinstance(request, engine.CheckRequest):
        return exact.check_odds(request)
    return exact.damage_odds(request)


describe = lazy("crux_cli.rulesets.d20check.render", "describe")
to_json = lazy("crux_cli.rulesets.d20check.render", "to_json")


RULESET = RuleSet(
    name=NAME,
    summary=SUMMARY,
    seed=SEED,
    keywords=frozenset(KEYWORDS),
    parse=parse,
    run=run,
    odds=odds,
    describe=describe,
    to_json=to_json,
    following=words.following,
    lexicon=words.lexicon,
    help=words.HELP,
    colours=words.COLOURS,
)
