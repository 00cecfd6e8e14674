"""Step dice (seed 002): attribute dice on a track, saves to beat a 4 or a die, attacks on Grit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.ruleset import Context, RuleSet, lazy
from crux_cli.rulesets.stepdice import engine, words
from crux_cli.rulesets.stepdice import grammar as notation
from crux_cli.rulesets.stepdice.compiler import compile_statement

if TYPE_CHECKING:
    from crux_cli.odds.result import Odds  # odds are imported when asked for, never on a roll

NAME = "stepdice"
SUMMARY = "Step dice (seed 002): d4–d12 attribute dice, saves vs 4 or a die, attacks on armor and Grit"
SEED = "002_9ec7abdadbc79388.txt"
KEYWORDS = notation.KEYWORDS


def parse(text: str, keyword: str) -> notation.StepDiceStatement:
    return notation.parse(text, keyword)


def run(statement: notation.StepDiceStatement, ctx: Context) -> Any:
    request = compile_statement(statement)
    match request:
        case engine.SaveRequest():
            return engine.roll_save(ctx.roller, request)
        case engine.StepRequest():
            return engine.step_die(request)
        case engine.AttackRequest():
            return engine.roll_attack(ctx.roller, request)
    return engine.roll_death(ctx.roller, request)


def odds(statement: notation.StepDiceStatement, ctx: Context | None = None) -> Odds:
    from crux_cli.rulesets.stepdice import odds as exact

    request = compile_statement(statement)
    match request:
        case engine.SaveRequest():
            return exact.save_odds(request)
        case engine.StepRequest():
            return exact.step_odds(request)
        case engine.AttackRequest():
            return exact.attack_odds(request)
    return exact.death_odds(request)


describe = lazy("crux_cli.rulesets.stepdice.render", "describe")
to_json = lazy("crux_cli.rulesets.stepdice.render", "to_json")


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
