"""The Crux System (seed 001), the default rule set."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.ruleset import Handlers, Kinds, RuleSet, SheetKeeping, StatementTable, Vocabulary, lazy, lazy_value
from crux_cli.rulesets.crux import compiler, engine, syntax, words
from crux_cli.rulesets.crux import grammar as notation
from crux_cli.rulesets.crux import sheet_grammar as sheet_notation

if TYPE_CHECKING:
    from crux_cli.rulesets.crux import sheet_syntax
    from crux_cli.rulesets.crux.hero import Hero

NAME = "crux"
SUMMARY = "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"
KEYWORDS = notation.KEYWORDS | sheet_notation.KEYWORDS
ODDS = "crux_cli.rulesets.crux.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.crux.render"
SHEET = "crux_cli.rulesets.crux.sheet_statements"  # sheet statements load with the first one run
SHEET_RENDER = "crux_cli.rulesets.crux.sheet_render"
SHEET_SYNTAX = "crux_cli.rulesets.crux.sheet_syntax"
STATE_CHANGE = "crux_cli.rulesets.crux.wounds:StateChange"


def parse(text: str, keyword: str) -> syntax.CruxStatement | sheet_syntax.SheetStatement:
    if keyword.lower() in sheet_notation.KEYWORDS:
        return sheet_notation.parse(text, keyword)
    return notation.parse(text, keyword)


def after_roll(result: engine.PoolResult | engine.AttackResult, hero: Hero) -> Hero:
    """The hero after a roll: Grit spent and earned, and a strenuous save's toll."""
    change = result.grit
    if change.spent or change.gained or not 0 <= hero.grit <= engine.GRIT_MAX:
        from crux_cli.rulesets.crux.grit import apply_grit

        after = apply_grit(hero, change)
    else:  # the usual roll on a sheet: nothing spent or earned, the very hero (as apply_grit would give it)
        after = hero
    if after.dying and isinstance(result, engine.PoolResult) and result.request.kind == "save":  # only the Dying pay
        from crux_cli.rulesets.crux.wounds import after_strenuous_save

        after = after_strenuous_save(after, result.request.attribute, result.outcome)
    return after


def pool_row(compile_request: Callable[[Any, Hero | None, str], engine.PoolRequest]) -> Handlers:
    """A test, a save or initiative: a pool of d6 (one result type, so one way to describe it)."""
    return Handlers(result=engine.PoolResult, compile=compile_request, run=engine.roll_pool,
                    odds=lazy(ODDS, "request_odds"), describe=lazy(RENDER, "describe_pool"),
                    to_json=lazy(RENDER, "pool_json"), apply=after_roll)


def sheet_row() -> Handlers:
    """A statement that changes the sheet (damage, heal, rest…): run on the hero, no odds."""
    return Handlers(result=STATE_CHANGE, compile=lazy(SHEET, "sheet_request"), run=lazy(SHEET, "run_request"),
                    odds=lazy(SHEET, "no_odds"), describe=lazy(SHEET_RENDER, "describe"),
                    to_json=lazy(SHEET_RENDER, "to_json"), apply=lazy(SHEET, "after"))


# statement -> what Crux does with it: one row per statement (sheet statements named: their module loads later)
STATEMENTS = StatementTable(NAME, {
    syntax.Test: pool_row(compiler.TEST),
    syntax.Save: pool_row(compiler.SAVE),
    syntax.Initiative: pool_row(compiler.INITIATIVE),
    syntax.Attack: Handlers(result=engine.AttackResult, compile=compiler.ATTACK, run=engine.roll_attack,
                            odds=lazy(ODDS, "request_odds"), describe=lazy(RENDER, "describe_attack"),
                            to_json=lazy(RENDER, "attack_json"), apply=after_roll),
    **dict.fromkeys((f"{SHEET_SYNTAX}:{name}" for name in ("Damage", "Wound", "Heal", "Rest", "Condition", "Show")),
                    sheet_row()),
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
    vocabulary=Vocabulary(words=words.statement_words(frozenset(KEYWORDS)),
                          after=Kinds(suggest=words.suggest, words_for=words.words_for),
                          lexicon=words.lexicon, patterns=words.PATTERNS, help=words.HELP),
    sheet=SheetKeeping(apply=STATEMENTS.apply, status=lazy(SHEET_RENDER, "toolbar_status"),
                       suffix=lazy(SHEET_RENDER, "sheet_suffix"), json=lazy(SHEET_RENDER, "sheet_json"),
                       file=lazy_value("crux_cli.rulesets.crux.sheet_file", "SHEET_FILE")),
    fights=lazy_value("crux_cli.rulesets.crux.fights", "FIGHTS"),
)
