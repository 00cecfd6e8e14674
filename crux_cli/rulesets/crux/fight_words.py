"""The fight words of the Crux rules, and which lines are fight words now (the rule set's `fights` module).

The session asks `claims` of every line it reads and colours (the lexer asks while it
is typed), so this module is small and loads nothing else: a plain roll never waits
for the fight itself (`fight`: the ledger, the hero, the fight's own parsing), which
loads when a fight word first runs. Words (documented in /help fight):

    fight [on]                  start a fight with the loaded hero (if any); `on` goes on after a win
    hero FILE.toml | NAME       another hero: from a sheet, or a name alone (rolls init when late)
    enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE] [grit N]
    minions NAME COUNT [medium|heavy] [atk DICE] [crits]
    remove NAME                 take a combatant added by mistake out of the fight
    init [ambush]               roll initiative for every hero; round 1 begins
    atk TARGET [DICE] [mods] [area N]   the active combatant attacks (1 action)
    cast [N] | move | assess    spend actions
    react NAME defend|interpose|opportunity|help [ALLY]
    damage [NAME] N [crit]      damage a hero (through the sheet) or an enemy
    heal [NAME] N | wound [NAME] N | show [NAME]
    cond add|remove [NAME] CONDITION...   enemies carry conditions too
    save [NAME] ATTR ... | DEX [NAME] ... rolls as the active combatant, or as NAME
    next | status | end
    save FILE.toml | load FILE.toml
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost
    from crux_cli.rulesets.crux.fight import Fight

ALWAYS = ("fight",)
DURING = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end",
          "init", "initiative", "atk", "attack")
NO_FIGHT = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end")
ROLLS = ("save", "test", "str", "strength", "dex", "dexterity", "int", "intelligence", "wil", "will")
SHEET = ("heal", "cond", "condition", "conditions", "show", "damage", "dmg", "wound")
ACTING = ROLLS + SHEET  # rule-set statements a fight answers as the active combatant, or as NAME


def first(line: str) -> tuple[str, list[str]]:
    words = line.split()
    return (words[0].lower() if words else ""), words[1:]


def is_file(word: str) -> bool:
    return word.lower().strip("\"'").endswith(".toml")


def words(fighting: bool) -> tuple[str, ...]:
    """The fight words to complete and colour: `fight`, and the rest while one is on."""
    return (*ALWAYS, *(DURING if fighting else ()))


def claims(line: str, fight: Fight | None) -> bool:
    """Is `line` a fight word now (with `fight` in progress, or None), rather than a rule-set statement?"""
    word, rest = first(line)
    if word in ALWAYS:
        return True
    if fight is None or fight.over:
        return word in NO_FIGHT or (word in ("save", "load") and bool(rest) and is_file(rest[0]))
    if word in DURING or (word in ("save", "load") and bool(rest) and is_file(rest[0])):
        return True
    if word not in ACTING:
        return False
    return fight.encounter.started or fight.names_someone(line)


def run(line: str, fight: Fight | None, host: FightHost) -> tuple[Fight | None, list[str]]:
    """Answer a fight line (one `claims` took): the fight in progress afterwards (None once it ends)."""
    from crux_cli.rulesets.crux.fight import run as run_fight

    return run_fight(line, fight, host)
