"""Step-dice statements → engine requests. Nothing here rolls; the sheet plays no part yet."""

from __future__ import annotations

from crux_cli.rulesets.stepdice import engine
from crux_cli.rulesets.stepdice import grammar as ast

Request = engine.SaveRequest | engine.StepRequest | engine.AttackRequest | engine.DeathRequest


def compile_statement(statement: ast.StepDiceStatement) -> Request:
    match statement:
        case ast.Save():
            target = engine.ENVIRONMENT_TARGET if statement.target is None else statement.target
            return engine.SaveRequest(statement.die, target, statement.opposing, statement.enhanced,
                                      statement.impaired)
        case ast.Step():
            return engine.StepRequest(statement.die, statement.steps)
        case ast.Attack():
            return engine.AttackRequest(statement.dice, statement.armor, statement.grit, statement.strength,
                                        statement.enhanced, statement.impaired, statement.attribute)
        case ast.Death():
            return engine.DeathRequest(statement.marked)
    raise TypeError(f"not a step-dice statement: {statement!r}")
