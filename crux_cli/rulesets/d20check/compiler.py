"""d20check statements → engine requests: favor and hinder folded to one die (or none)."""

from __future__ import annotations

from crux_cli.rulesets.d20check import engine
from crux_cli.rulesets.d20check import grammar as ast


def compile_statement(statement: ast.D20CheckStatement) -> engine.CheckRequest | engine.DamageRequest:
    match statement:
        case ast.Check():
            favor = engine.net_favor(statement.favored, statement.hindered)
            return engine.CheckRequest(statement.stat, statement.trained, favor)
        case ast.Damage():
            return engine.DamageRequest(statement.count, statement.sides, statement.flat, statement.armor,
                                        statement.immune, statement.weak)
    raise TypeError(f"not a d20check statement: {statement!r}")
