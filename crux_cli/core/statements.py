"""One table per rule set from a statement's type to what the rule set does with it.

A kindred rule set (stepdice, d20check, challenge) used to dispatch on its statement or result
type in five places (the compiler, `run`, `odds`, `describe`, `to_json`); a new statement meant a
branch in each. Here each kind of statement is one row, `Handlers`, and `StatementTable` gives the
rule set's `run`, `odds`, `describe` and `to_json` from the rows. A new statement is one syntax
node, one grammar rule and one row, all in the rule set's folder.

The odds and renderers of a row are usually `core.ruleset.lazy` functions, so a roll never imports
the odds and `crux odds` never imports the renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.record import Record

if TYPE_CHECKING:
    from crux_cli.core.rng import Roller
    from crux_cli.core.ruleset import Context
    from crux_cli.core.style import Palette
    from crux_cli.probability.result import Odds


class Handlers(Record):
    """What a rule set does with one kind of statement.

    - `result`: the type of the engine's result (what `describe` and `to_json` are chosen by);
    - `request(statement)`: the engine's request, from the statement's fields (what a compiler did);
    - `run(roller, request)`: roll it, giving a `result`;
    - `odds(request)`: its exact odds;
    - `describe(result, palette)` / `to_json(result)`: the result as one line and as JSON fields.
    """

    result: type
    request: Callable[[Any], Any]
    run: Callable[[Roller, Any], Any]
    odds: Callable[[Any], Odds]
    describe: Callable[[Any, Palette], str]
    to_json: Callable[[Any], dict[str, Any]]


class StatementTable:
    """A rule set's rows by statement type, and the same rows by result type; its methods are the
    `run`, `odds`, `describe` and `to_json` of a `RuleSet`."""

    __slots__ = ("by_result", "by_statement", "name")

    def __init__(self, name: str, rows: Mapping[type, Handlers]) -> None:
        self.name = name  # the rule set's, for the refusal of a value that is none of its statements
        self.by_statement: Mapping[type, Handlers] = MappingProxyType(dict(rows))
        self.by_result: Mapping[type, Handlers] = MappingProxyType({row.result: row for row in rows.values()})

    def row(self, statement: Any) -> Handlers:
        found = self.by_statement.get(type(statement))
        if found is None:
            raise TypeError(f"not a {self.name} statement: {statement!r}")
        return found

    def result_row(self, result: Any) -> Handlers:
        found = self.by_result.get(type(result))
        if found is None:
            raise TypeError(f"not a {self.name} result: {result!r}")
        return found

    def request(self, statement: Any) -> Any:
        """The engine's request for a statement (what `run` and `odds` start from)."""
        return self.row(statement).request(statement)

    def run(self, statement: Any, ctx: Context) -> Any:
        row = self.row(statement)
        return row.run(ctx.roller, row.request(statement))

    def odds(self, statement: Any, ctx: Context | None = None) -> Odds:
        row = self.row(statement)
        return row.odds(row.request(statement))

    def describe(self, result: Any, palette: Palette) -> str:
        return self.result_row(result).describe(result, palette)

    def to_json(self, result: Any) -> dict[str, Any]:
        return self.result_row(result).to_json(result)
