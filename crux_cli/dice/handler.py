"""Generic dice expressions (crux-notation(7) DICE EXPRESSIONS) as a statement handler of the rule-set shape.

Not a rule set of its own: every rule set answers dice expressions through this
module, which `notation.parse.read` picks for a statement that starts with
`roll`, with a number, a sign, `(`, `d`, `dF` or `Cd`. The runner records the
handler in each `Answer`, so the renderers ask this module to describe it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core.ruleset import Context, RuleSet, lazy
from crux_cli.dice import grammar as notation
from crux_cli.dice import syntax

if TYPE_CHECKING:
    from crux_cli.dice import engine
    from crux_cli.probability.result import Odds

    Rolled = engine.DiceResult | engine.CountdownResult | engine.VersusResult

NAME = "dice"
SUMMARY = "Generic dice expressions: 4d6kh3, d66, 2d20kl1+5, d6!, 6x 4d6kh3, Cd8, 1d20+5 vs 15"
KEYWORDS = frozenset({"roll"})


parse = notation.parse  # the grammar's own: a forwarding function would cost a call on every dice line


# imported at the first roll (`crux odds` never rolls), then called straight (`into`)
roll_countdown = lazy("crux_cli.dice.engine", "roll_countdown", globals())
roll_statement = lazy("crux_cli.dice.engine", "roll_statement", globals())


roll_versus = lazy("crux_cli.dice.engine", "roll_versus", globals())


# attribute names in dice (`1d20 + DEX`): the sheet's values, put in before a roll or its odds
with_sheet_values = lazy("crux_cli.dice.sheet_values", "with_sheet_values")


def run(statement: syntax.DiceStatement, ctx: Context) -> Rolled:
    result: Rolled
    if statement.reads_sheet:
        statement = with_sheet_values(statement, ctx.hero)
    if isinstance(statement, syntax.Countdown):
        result = roll_countdown(ctx.roller, statement.sides)
    elif isinstance(statement, syntax.Versus):
        result = roll_versus(ctx.roller, statement)
    else:
        result = roll_statement(ctx.roller, statement)
    return result


# imported at its first call: a roll never needs the odds (nor fractions, which they import)
statement_odds = lazy("crux_cli.dice.probability", "statement_odds")


def odds(statement: syntax.DiceStatement, ctx: Context | None = None) -> Odds:
    """Exact odds of one roll of the statement: the total's distribution (or a countdown's outcome)."""
    if statement.reads_sheet:
        statement = with_sheet_values(statement, ctx.hero if ctx is not None else None)
    result: Odds = statement_odds(statement)
    return result


describe = lazy("crux_cli.dice.render", "describe")
to_json = lazy("crux_cli.dice.render", "to_json")


# targets and opposed rolls (`1d20+5 vs 15`), in the odds tables as in the answer line (dice/render.py)
COLOURS = {"pass": "good", "fail": "bad", "win": "good", "tie": "mixed", "lose": "bad"}

DICE = RuleSet(name=NAME, summary=SUMMARY, keywords=KEYWORDS, parse=parse, run=run, odds=odds,
               describe=describe, to_json=to_json, colours=COLOURS)  # no facets: the active rule set has them
