"""Sheet statements → the pure rules of engine/wounds: what `damage 9 crit` or `rest field 2`
does to the hero, as a `StateChange` the state layer then writes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.rng import Roller
from crux_cli.rulesets.crux import sheet_syntax as syntax
from crux_cli.rulesets.crux import wounds
from crux_cli.rulesets.crux.hero import Hero

if TYPE_CHECKING:
    from crux_cli.probability.result import Odds


class SheetRequest(Record):
    """A sheet statement with what running it needs: the hero it changes and the text, for errors."""

    statement: syntax.SheetStatement
    hero: Hero | None
    text: str


def sheet_request(node: syntax.SheetStatement, hero: Hero | None, text: str) -> SheetRequest:
    """The compile step of every sheet statement's row in the rule set's table."""
    return SheetRequest(node, hero, text)


def run_request(roller: Roller, request: SheetRequest) -> wounds.StateChange:
    return run_sheet_statement(request.statement, request.hero, roller, request.text)


def no_odds(request: SheetRequest) -> Odds:
    """A sheet statement rolls nothing (a Field Rest's Hit Dice heal): refused, with the word it starts with."""
    text = request.text
    word = text.split()[0] if text.split() else str(request.statement).split()[0]
    raise CruxError(f"'{word}' changes the sheet; it rolls nothing to give odds for", text=text, position=0,
                    hint="odds are for tests, saves, initiative, attacks and dice")


def after(change: wounds.StateChange, hero: Hero) -> Hero:
    """The hero a sheet statement leaves."""
    return change.after


def needs_sheet(node: syntax.SheetStatement, text: str) -> CruxError:
    word = text.split()[0] if text.split() else str(node)
    return CruxError(f"'{word}' works on a character sheet, and none is loaded", text=text, position=0,
                     hint="give one with --sheet FILE or CRUX_SHEET=FILE; make one with: crux sheet new FILE")


def run_sheet_statement(node: syntax.SheetStatement, hero: Hero | None, roller: Roller,
                        text: str) -> wounds.StateChange:
    if hero is None:
        raise needs_sheet(node, text)
    try:
        return _run(node, hero, roller)
    except CruxError as error:
        raise error.at(text, node.pos) from None


def _run(node: syntax.SheetStatement, hero: Hero, roller: Roller) -> wounds.StateChange:
    if isinstance(node, syntax.Damage):
        return wounds.damage(hero, node.amount, node.crit)
    if isinstance(node, syntax.Wound):
        return wounds.wound(hero, node.amount)
    if isinstance(node, syntax.Heal):
        return wounds.heal(hero, node.amount)
    if isinstance(node, syntax.Rest):
        return wounds.rest_field(hero, node.hit_dice, roller) if node.kind == "field" else wounds.rest_safe(hero)
    if isinstance(node, syntax.Condition):
        return _conditions(hero, node)
    return wounds.StateChange("show", hero, hero)


def _conditions(hero: Hero, node: syntax.Condition) -> wounds.StateChange:
    """`cond add frightened prone`: one change made of each condition's, in order."""
    change = wounds.add_condition if node.action == "add" else wounds.remove_condition
    after = hero
    events: list[str] = []
    for name in node.names:
        step = change(after, name)
        after, events = step.after, [*events, *step.events]
    return wounds.StateChange("condition", hero, after, tuple(events))
