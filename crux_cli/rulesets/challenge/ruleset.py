"""Challenge rolls (seed 004): pools of d6 read by the highest die, in the seed's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.ruleset import Context, RuleSet, lazy
from crux_cli.rulesets.challenge import engine, words
from crux_cli.rulesets.challenge import grammar as notation
from crux_cli.rulesets.challenge.compiler import compile_statement

if TYPE_CHECKING:
    from crux_cli.odds.result import Odds  # odds are imported when asked for, never on a roll

NAME = "challenge"
SUMMARY = "Challenge rolls (seed 004): action, fortune and resistance pools of d6, highest die, risk and XP"
SEED = "004_94a8ee3cea85eaaa.txt"
KEYWORDS = notation.KEYWORDS


def parse(text: str, keyword: str) -> notation.ChallengeStatement:
    return notation.parse(text, keyword)


def run(statement: notation.ChallengeStatement, ctx: Context) -> Any:
    request = compile_statement(statement)
    match request:
        case engine.ActionRequest():
            return engine.roll_action(ctx.roller, request)
        case engine.FortuneRequest():
            return engine.roll_fortune(ctx.roller, request)
    return engine.roll_resist(ctx.roller, request)


def odds(statement: notation.ChallengeStatement, ctx: Context | None = None) -> Odds:
    from crux_cli.rulesets.challenge import odds as exact

    request = compile_statement(statement)
    match request:
        case engine.ActionRequest():
            return exact.action_odds(request)
        case engine.FortuneRequest():
            return exact.fortune_odds(request)
    return exact.resist_odds(request)


describe = lazy("crux_cli.rulesets.challenge.render", "describe")
to_json = lazy("crux_cli.rulesets.challenge.render", "to_json")


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
