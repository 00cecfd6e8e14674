"""The Crux System (seed 001), the default rule set."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from crux_cli.core.ruleset import (
    Handlers,
    Kinds,
    LazyModule,
    RuleSet,
    SheetKeeping,
    StatementTable,
    Vocabulary,
    lazy,
    lazy_value,
    row,
)
from crux_cli.rulesets.crux import compiler, engine, syntax, words
from crux_cli.rulesets.crux import grammar as notation
from crux_cli.rulesets.crux import sheet_grammar as sheet_notation
from crux_cli.rulesets.crux.engine import AttackResult, PoolResult  # `after`, at every line: no module attribute read

if TYPE_CHECKING:
    from crux_cli.rulesets.crux import sheet_syntax
    from crux_cli.rulesets.crux.hero import Hero
    from crux_cli.rulesets.crux.wounds import StateChange

NAME = "crux"
SUMMARY = "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"
KEYWORDS = notation.KEYWORDS | sheet_notation.KEYWORDS
ODDS = "crux_cli.rulesets.crux.probability"  # odds are imported when asked for, never on a roll
RENDER = "crux_cli.rulesets.crux.render"
SHEET = "crux_cli.rulesets.crux.sheet_statements"  # sheet statements load with the first one run
SHEET_RENDER = "crux_cli.rulesets.crux.sheet_render"
SHEET_SYNTAX = "crux_cli.rulesets.crux.sheet_syntax"
STATE_CHANGE = "crux_cli.rulesets.crux.wounds:StateChange"

if TYPE_CHECKING:  # mypy checks every row against the real odds, renderers and sheet statements
    from crux_cli.rulesets.crux import probability, render, sheet_render, sheet_statements

    Statement: TypeAlias = syntax.CruxStatement | sheet_syntax.SheetStatement
    Result: TypeAlias = engine.PoolResult | engine.AttackResult | StateChange
    Node = TypeVar("Node", bound=syntax.CruxStatement)  # the statement a pool row compiles
else:  # which a roll imports at their first call
    probability, render = LazyModule(ODDS), LazyModule(RENDER)
    sheet_statements, sheet_render = LazyModule(SHEET), LazyModule(SHEET_RENDER)


def parse(text: str, keyword: str) -> Statement:
    if keyword.lower() in sheet_notation.KEYWORDS:
        return sheet_notation.parse(text, keyword)
    return notation.parse(text, keyword)


def after_roll(result: engine.PoolResult | engine.AttackResult, hero: Hero) -> Hero:
    """The hero after a roll: Grit spent and earned, and a strenuous save's toll."""
    change = result.grit
    moved = change.spent or change.gained or not 0 <= hero.grit <= engine.GRIT_MAX
    # the usual roll on a sheet spends and earns nothing: the very hero, as apply_grit would give it
    after: Hero = apply_grit(hero, change) if moved else hero
    if after.dying and isinstance(result, engine.PoolResult) and result.request.kind == "save":  # only the Dying pay
        from crux_cli.rulesets.crux.wounds import after_strenuous_save

        after = after_strenuous_save(after, result.request.attribute, result.outcome)
    return after


# rulesets/crux/grit.py `apply_grit`, imported at the first Grit spent or earned, then called directly: an import
# statement in `after_roll` cost a batch on a sheet about 10,000 instructions at every change (PERFORMANCE.md)
apply_grit = lazy("crux_cli.rulesets.crux.grit", "apply_grit", into=globals())


def pool_row(compile_request: Callable[[Node, Hero | None, str], engine.PoolRequest]) -> Handlers:
    """A test, a save or initiative: a pool of d6 (one result type, so one way to describe it)."""
    return row(result=engine.PoolResult, compile=compile_request, run=engine.roll_pool,
               odds=probability.request_odds, describe=render.describe_pool, to_json=render.pool_json,
               apply=after_roll)


def sheet_row() -> Handlers:
    """A statement that changes the sheet (damage, heal, rest…): run on the hero, no odds."""
    return row(result=STATE_CHANGE, compile=sheet_statements.sheet_request, run=sheet_statements.run_request,
               odds=sheet_statements.no_odds, describe=sheet_render.describe, to_json=sheet_render.to_json,
               apply=sheet_statements.after)


# statement -> what Crux does with it: one row per statement (sheet statements named: their module loads later)
STATEMENTS: StatementTable[Statement, Result] = StatementTable(NAME, {
    syntax.Test: pool_row(compiler.TEST),
    syntax.Save: pool_row(compiler.SAVE),
    syntax.Initiative: pool_row(compiler.INITIATIVE),
    syntax.Attack: row(result=engine.AttackResult, compile=compiler.ATTACK, run=engine.roll_attack,
                       odds=probability.request_odds, describe=render.describe_attack, to_json=render.attack_json,
                       apply=after_roll),
    **dict.fromkeys((f"{SHEET_SYNTAX}:{name}" for name in ("Damage", "Wound", "Heal", "Rest", "Condition", "Show")),
                    sheet_row()),
})


def after(result: Result, hero: Hero) -> Hero:
    """The hero after any result (its row's `apply`); after the usual roll (no Grit spent or earned, not Dying), the
    very hero, with no more calls: a batch on a sheet asks at every line (PERFORMANCE.md, "A line on a held sheet").
    The engine gives the one `GritChange` of nothing spent or earned (`STILL`); any other goes the long way."""
    if result.__class__ is PoolResult or result.__class__ is AttackResult:
        if result.grit is STILL and hero.grit in STEADY_GRIT and not hero.dying:
            return hero
        return after_roll(result, hero)
    changed: Hero = STATEMENTS.apply(result, hero)  # a sheet statement's row
    return changed


STILL = engine.GRIT_CHANGES[0, 0]  # nothing spent, nothing earned: the engine's usual roll
STEADY_GRIT = frozenset(range(engine.GRIT_MAX + 1))  # Grit a hero may hold (0..5): the usual roll leaves it as it is


def shared(hero: Hero, result: Result | None) -> Hero | None:
    """The hero at Grit 1 for a hero at Grit 1-5 (`SheetKeeping.shared`): a roll that leaves the hero as it was
    reads no more of its Grit than that it has some (seed §3: spending needs 1, and a kept 1 earns 1 below 5), so
    its line is the same at every Grit from 1 to 5 but for the suffix. Not at Grit 0 (`grit` is refused), nor for
    the Dying or dead (their saves and rolls go otherwise), nor for a kept 1 with nothing spent at 5 Grit: below
    5 that roll would have earned one."""
    if result is not None:  # asked at every line of a batch on a sheet that leaves its hero as it was
        kind = result.__class__
        if kind is not PoolResult and kind is not AttackResult:
            return None
        kept = result.kept if kind is PoolResult else result.primary  # type: ignore[union-attr]
        if kept == 1 and result.grit is STILL:  # type: ignore[union-attr]  # at 5 Grit: below, it would earn
            return None
    known = SHARED.get(id(hero))
    if known is not None and known[0] is hero:
        return known[1]
    if len(SHARED) >= KEPT_SHARED:
        SHARED.clear()
        AT_GRIT_1.clear()
    one: Hero | None = None
    if not (hero.dying or hero.dead) and 1 <= hero.grit <= engine.GRIT_MAX:
        one = hero.with_changes(grit=1) if hero.grit != 1 else hero
        one = AT_GRIT_1.setdefault(one.value_key(), one)  # one object for each class: a batch's lines are kept by it
    SHARED[id(hero)] = (hero, one)  # kept alive with it: its id names no other meanwhile
    return one


SHARED: dict[int, tuple[Hero, Hero | None]] = {}  # by a hero's id: the hero and the one standing for its class
AT_GRIT_1: dict[object, Hero] = {}  # the heroes standing for a class, by their values
KEPT_SHARED = 256


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
    sheet=SheetKeeping(apply=after, status=sheet_render.toolbar_status,
                       suffix=sheet_render.sheet_suffix, json=sheet_render.sheet_json,
                       file=lazy_value("crux_cli.rulesets.crux.sheet_file", "SHEET_FILE"), shared=shared),
    fights=lazy_value("crux_cli.rulesets.crux.fights", "FIGHTS"),
)
