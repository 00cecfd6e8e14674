"""The Crux System (seed 001), the default rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.compiler.crux import compile_statement
from crux_cli.context import Context
from crux_cli.engine import crux as engine
from crux_cli.notation import ast
from crux_cli.notation import crux as notation

if TYPE_CHECKING:
    from crux_cli.odds.result import Odds

NAME = "crux"
SUMMARY = "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"
SEED = "001_3e631c857d08fd70.txt"
KEYWORDS = notation.KEYWORDS


def parse(text: str, keyword: str) -> ast.CruxStatement:
    return notation.parse(text, keyword)


def run(statement: ast.CruxStatement, ctx: Context) -> engine.PoolResult | engine.AttackResult:
    request = compile_statement(statement, ctx.hero, ctx.text)
    if isinstance(request, engine.AttackRequest):
        return engine.roll_attack(ctx.roller, request)
    return engine.roll_pool(ctx.roller, request)


def odds(statement: ast.CruxStatement, ctx: Context) -> Odds:
    """Exact odds of the statement, from the same request a roll would use (nothing is rolled)."""
    from crux_cli.odds.crux import request_odds

    return request_odds(compile_statement(statement, ctx.hero if ctx else None, ctx.text if ctx else ""))


def describe(result: Any, palette: Any) -> str:
    from crux_cli.render import crux as render

    return render.describe(result, palette)


def to_json(result: Any) -> dict[str, Any]:
    from crux_cli.render import crux as render

    return render.to_json(result)
