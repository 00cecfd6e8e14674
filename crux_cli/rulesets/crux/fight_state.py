"""A fight as one immutable value: the ledger, where each hero's values live, who fell, and whether it is won.

The REPL holds a `FightState`, hands it to the fight words with each line and keeps the one they give
back; `undo` keeps the value from before a word; `save`, `load` and the autosave write and read it
whole (state.encounter). A hero on a sheet keeps HP, Wounds, Dying, conditions and Grit on the sheet
(`sheets` says which file); a hero added by name alone has no file, so their values are part of the
fight (`heroes`) and travel with it through save, load and a resume.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from crux_cli.core.record import Record
from crux_cli.rulesets.crux.encounter import Encounter

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.hero import Hero

NOBODY: Mapping[str, str] = MappingProxyType({})
V = TypeVar("V")


def frozen_map(values: Mapping[str, V]) -> Mapping[str, V]:
    """A read-only copy of `values`, so a state never shares a dictionary anyone may change."""
    return MappingProxyType(dict(values))


class FightState(Record):
    """One fight as it stands.

    - `encounter`: the ledger (turn order, actions, reactions, enemies' HP; damage dealt and taken,
      for the summary);
    - `sheets`: hero name -> the sheet file that keeps their values;
    - `heroes`: hero name -> the values of a hero held in memory (added by name, no sheet);
    - `fallen`: who fell, in order, for the summary when the fight is won;
    - `over`: won; the words wait for `fight on` or a new `fight`.
    """

    encounter: Encounter = Encounter()
    sheets: Mapping[str, str] = NOBODY
    heroes: Mapping[str, Hero] = NOBODY  # type: ignore[assignment]
    fallen: tuple[str, ...] = ()
    over: bool = False

    def hero_names(self) -> tuple[str, ...]:
        """The heroes in the fight, in table order."""
        return tuple(c.name for c in self.encounter.combatants if c.side == "hero")

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.encounter.combatants)

    def acting(self) -> str | None:
        """Whose turn it is (None before initiative)."""
        active = self.encounter.active()
        return active.name if active is not None else None

    def summary(self) -> str:
        """Where the fight stands, in a few words: "round 2, Wren's turn: Wren, goblin"."""
        active = self.encounter.active()
        where = f"round {self.encounter.round}, {active.name}'s turn" if active is not None else "not begun yet"
        return f"{where}: {', '.join(self.names())}"

    def ledger_json(self) -> dict[str, Any]:
        """The ledger as JSON (the journal keeps it before and after each fight word)."""
        return {**self.encounter.as_dict(), "combatants": tuple(c.as_dict() for c in self.encounter.combatants)}


if TYPE_CHECKING:  # mypy checks that the value is what the session holds
    from crux_cli.core.ruleset import FightValue

    _VALUE: FightValue = FightState()
