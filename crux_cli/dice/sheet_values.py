"""Sheet values in dice expressions: `1d20 + DEX` reads the loaded sheet's DEX modifier (issue 24;
crux-notation(7) DICE EXPRESSIONS, Sheet values).

The grammar leaves each attribute name as an `syntax.SheetValue`; before a roll or its odds, the dice handler
asks here for the same tree with each one replaced by its value, labelled with its name (`2 [DEX]`), so
the answer shows which value was used. The hero is read through its `attribute(name).modifier`, the value
an attack's `+STR` adds; without a hero the statement is refused with a hint to load a sheet.
"""

from __future__ import annotations

from typing import Any, NoReturn

from crux_cli.core.errors import CruxError
from crux_cli.dice import syntax


def with_sheet_values(statement: syntax.DiceStatement, hero: Any) -> syntax.DiceStatement:
    """The statement with each attribute replaced by the hero's modifier, labelled with the attribute's name."""
    if isinstance(statement, syntax.Countdown):
        return statement
    if isinstance(statement, syntax.Versus):
        return syntax.Versus(_resolved(statement.expr, hero), _resolved(statement.against, hero), statement.repeat,
                          statement.pos)
    return syntax.Roll(_resolved(statement.expr, hero), statement.repeat, statement.pos)  # reads_sheet no more


def _resolved(expr: syntax.Expr, hero: Any) -> syntax.Expr:
    if isinstance(expr, syntax.SheetValue):
        return syntax.Labelled(syntax.Number(value_of(expr, hero), expr.pos), expr.attribute, expr.pos)
    if isinstance(expr, syntax.Group):
        return syntax.Group(_resolved(expr.expr, hero), expr.pos)
    if isinstance(expr, syntax.Labelled):
        return syntax.Labelled(_resolved(expr.expr, hero), expr.label, expr.pos)
    if isinstance(expr, syntax.Negate):
        return syntax.Negate(_resolved(expr.operand, hero), expr.pos)
    if isinstance(expr, syntax.Sum | syntax.Product):
        return type(expr)(_resolved(expr.first, hero),
                          tuple((op, _resolved(operand, hero)) for op, operand in expr.rest), expr.pos)
    if isinstance(expr, syntax.Pool):
        return syntax.Pool(tuple(_resolved(item, hero) for item in expr.items), expr.keep, expr.count, expr.pos)
    return expr


def value_of(name: syntax.SheetValue, hero: Any) -> int:
    attribute = getattr(hero, "attribute", None)
    if attribute is None:
        no_sheet(name)
    modifier: int = attribute(name.attribute).modifier
    return modifier


def no_sheet(name: syntax.SheetValue) -> NoReturn:
    raise CruxError(f"'{name.attribute}' stands for the {name.attribute} modifier of a character sheet, "
                    "and no sheet is loaded", position=name.pos,
                    hint=f"load one: crux --sheet wren.toml '1d20 + {name.attribute}', or write the number")
