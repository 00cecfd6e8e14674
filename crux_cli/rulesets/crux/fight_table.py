"""The Crux fight at the shared table (issue 34): who may say a fight word, and the fight as pages show it.

`authority` says whose word a line is: "anyone" (it only looks), "gm" (it sets the fight up or changes
someone else's sheet) or the name of the hero it acts for (their turn's actions, their reactions, a roll
or a sheet change naming them); the table lets a player say only their own hero's words. `view` is the
fight as PROTOCOL.md's fight view: the order, the actions left, each hero's numbers as they stand
(from their sheet, or held in the fight), each enemy's HP (the table turns it into words for players).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.rulesets.crux.fight_words import ACTING, LOOKS, ROLLS, read

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.encounter import Combatant
    from crux_cli.rulesets.crux.fight_state import FightState
    from crux_cli.rulesets.crux.hero import Hero

ANYONE, GM = "anyone", "gm"
TURN = ("atk", "cast", "move", "assess", "next")  # the acting combatant's: on their turn only


def authority(line: str, state: FightState | None, hero: str | None) -> tuple[str, str]:
    """(whose word `line` is, the line to run): a roll a player's hero makes without naming them is made
    to name them (`DEX +1b` → `DEX Wren +1b`), so it is rolled as them, not as whoever acts now."""
    word = read(line, state)
    if word.word in LOOKS:
        return ANYONE, line
    if state is None or word.file or word.word not in (*TURN, "react", *ACTING):
        return GM, line
    acting = state.acting()
    if word.word in TURN:
        return acting or GM, line
    named = next((name for arg in word.args for name in state.names() if arg.text.lower() == name.lower()), None)
    if word.word == "react" or named is not None:
        return named or GM, line
    own = next((name for name in state.hero_names() if hero and name.lower() == hero.lower()), None)
    if own is not None and word.word in ROLLS:
        spoken = f'"{own}"' if " " in own else own
        return own, f"{word.head} {spoken} {word.rest}".strip()
    return acting or GM, line


def view(state: FightState, hero_of: Callable[[str], Hero | None]) -> dict[str, Any]:
    """The fight as the table shows it, every number in it (the table hides enemies' for players)."""
    encounter = state.encounter
    active = encounter.active()
    order = [combatant(c, c is active, hero_of) for c in encounter.order()]
    return {"round": encounter.round, "acting": active.name if active is not None else None,
            "summary": state.summary(), "over": state.over, "order": order}


def combatant(c: Combatant, acting: bool, hero_of: Callable[[str], Hero | None]) -> dict[str, Any]:
    row: dict[str, Any] = {"name": c.name, "side": c.side, "acting": acting, "actions": c.actions,
                           "down": c.down, "dying": c.dying, "dazed": c.dazed, "conditions": list(c.conditions)}
    if c.side != "hero":
        row.update(hp=c.hp, hp_max=c.hp_max, grit=c.grit if c.grit >= 0 else None)
        if c.minions:
            row["minions"] = c.minions
        return row
    hero = hero_of(c.name)
    if hero is not None:
        row.update(hp=hero.hp, hp_max=hero.hp_max, wounds=hero.wounds, wound_cap=hero.wound_cap, grit=hero.grit,
                   conditions=list(hero.conditions), dying=hero.dying or c.dying, down=c.down or hero.dead)
    return row
