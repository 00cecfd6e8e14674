"""Challenge statements → engine requests."""

from __future__ import annotations

from crux_cli.rulesets.challenge import engine
from crux_cli.rulesets.challenge import grammar as ast

Request = engine.ActionRequest | engine.FortuneRequest | engine.ResistRequest


def compile_statement(statement: ast.ChallengeStatement) -> Request:
    match statement:
        case ast.Action():
            return engine.ActionRequest(statement.rating, statement.advantage, statement.disadvantage,
                                        statement.risk)
        case ast.Fortune():
            return engine.FortuneRequest(statement.rating, statement.advantages, statement.disadvantages)
        case ast.Resist():
            return engine.ResistRequest(statement.rating)
    raise TypeError(f"not a challenge statement: {statement!r}")
