"""The Crux System (seed 001), the default rule set."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.memo import REMEMBERED, by_identity
from crux_cli.core.ruleset import Context, RuleSet, lazy, lazy_value
from crux_cli.rulesets.crux import engine, syntax, words
from crux_cli.rulesets.crux import grammar as notation
from crux_cli.rulesets.crux import sheet_grammar as sheet_notation
from crux_cli.rulesets.crux.compiler import compile_statement

if TYPE_CHECKING:
    from crux_cli.probability.result import Odds
    from crux_cli.rulesets.crux import sheet_syntax
    from crux_cli.rulesets.crux.hero import Hero

NAME = "crux"
SUMMARY = "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"
KEYWORDS = notation.KEYWORDS | sheet_notation.KEYWORDS
ROLLS = (syntax.Test, syntax.Save, syntax.Initiative, syntax.Attack)  # anything else is a sheet statement
ROLLED = (engine.PoolResult, engine.AttackResult)  # their results (a tuple: `A | B` would be made at each call)


def parse(text: str, keyword: str) -> syntax.CruxStatement | sheet_syntax.SheetStatement:
    if keyword.lower() in sheet_notation.KEYWORDS:
        return sheet_notation.parse(text, keyword)
    return notation.parse(text, keyword)


def run(statement: syntax.CruxStatement | sheet_syntax.SheetStatement, ctx: Context) -> Any:
    if not isinstance(statement, ROLLS):
        from crux_cli.rulesets.crux.sheet_statements import run_sheet_statement

        return run_sheet_statement(statement, ctx.hero, ctx.roller, ctx.text)
    request = compiled(statement, ctx.text) if ctx.hero is None else compiled_for(statement, ctx.hero, ctx.text)
    if isinstance(request, engine.AttackRequest):
        return engine.roll_attack(ctx.roller, request)
    return engine.roll_pool(ctx.roller, request)


def compile_heroless(statement: syntax.CruxStatement, text: str) -> engine.PoolRequest | engine.AttackRequest:
    return compile_statement(statement, None, text)


# Without a hero a request depends on the statement alone (the text only places an error), and the syntax
# tree of a repeated statement is the same object (running.read caches them): a batch compiles each once.
compiled = by_identity(compile_heroless)

# With a hero, the request depends on the tree and the hero, both immutable: a sheet's hero is the same
# object while its file is unchanged (state.store `PARSED`), so a batch on a sheet compiles each statement
# once per state of the hero, and the echo memo (render.py) finds the very request again (PERFORMANCE.md).
_FOR_HERO: dict[tuple[int, int], tuple[Any, Any, engine.PoolRequest | engine.AttackRequest]] = {}


def compiled_for(statement: syntax.CruxStatement, hero: Hero, text: str) -> engine.PoolRequest | engine.AttackRequest:
    key = (id(statement), id(hero))
    hit = _FOR_HERO.get(key)
    if hit is not None and hit[0] is statement and hit[1] is hero:
        return hit[2]
    request = compile_statement(statement, hero, text)
    if len(_FOR_HERO) >= REMEMBERED:
        _FOR_HERO.clear()
    _FOR_HERO[key] = (statement, hero, request)
    return request


def odds(statement: syntax.CruxStatement | sheet_syntax.SheetStatement, ctx: Context) -> Odds:
    """Exact odds of the statement, from the same request a roll would use (nothing is rolled)."""
    if not isinstance(statement, ROLLS):
        raise CruxError(f"'{ctx.text.split()[0]}' changes the sheet; it rolls nothing to give odds for",
                        text=ctx.text, position=0, hint="odds are for tests, saves, initiative, attacks and dice")
    from crux_cli.rulesets.crux.probability import request_odds

    return request_odds(compile_statement(statement, ctx.hero, ctx.text))


def apply(result: Any, hero: Hero) -> Hero:
    """The hero after `result`: Grit spent and earned by a roll, or what a sheet statement changed."""
    if isinstance(result, ROLLED):
        import crux_cli.rulesets.crux.grit as grit  # not `from … import`: that form runs Python code at each call

        after = grit.apply_grit(hero, result.grit)
        if isinstance(result, engine.PoolResult) and result.request.kind == "save":
            import crux_cli.rulesets.crux.wounds as wounds

            after = wounds.after_strenuous_save(after, result.request.attribute, result.outcome)
        return after
    return getattr(result, "after", hero)  # a sheet statement's StateChange


describe_roll: Callable[[Any, Any], str] = lazy("crux_cli.rulesets.crux.render", "describe")
roll_json: Callable[[Any], dict[str, Any]] = lazy("crux_cli.rulesets.crux.render", "to_json")


def describe(result: Any, palette: Any) -> str:
    if not isinstance(result, ROLLED):
        from crux_cli.rulesets.crux import sheet_render as sheet

        return sheet.describe(result, palette)
    return describe_roll(result, palette)


def to_json(result: Any) -> dict[str, Any]:
    if not isinstance(result, ROLLED):
        from crux_cli.rulesets.crux import sheet_render as sheet

        return sheet.to_json(result)
    return roll_json(result)


def sheet_suffix(answer: Any, palette: Any) -> str:
    import crux_cli.rulesets.crux.sheet_render as sheet_render

    return sheet_render.sheet_suffix(answer, palette)


def status(hero: Hero) -> tuple[tuple[str, str], ...]:
    from crux_cli.rulesets.crux import sheet_render

    return sheet_render.toolbar_status(hero)


def sheet_json(update: Any) -> dict[str, Any]:
    from crux_cli.rulesets.crux import sheet_render

    return sheet_render.sheet_json(update)


RULESET = RuleSet(
    name=NAME,
    summary=SUMMARY,
    keywords=frozenset(KEYWORDS),
    parse=parse,
    run=run,
    odds=odds,
    describe=describe,
    to_json=to_json,
    apply=apply,
    words=words.statement_words(frozenset(KEYWORDS)),
    suggest=words.suggest,
    words_for=words.words_for,
    lexicon=words.lexicon,
    patterns=words.PATTERNS,
    help=words.HELP,
    colours=words.COLOURS,
    fights=lazy_value("crux_cli.rulesets.crux.fight_words", "FIGHTS"),
    status=status,
    sheet_suffix=sheet_suffix,
    sheet_json=sheet_json,
)
