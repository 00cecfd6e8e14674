"""The fight words of the Crux rules, and a fight line read once (`read`, a `FightWord`).

The lowest of the fight's modules: it names the words and reads a line into them, and imports
nothing of the fight (the facet, `fights`, asks it of every line it reads and colours, so it is
small and loads nothing else). Words (documented in /help fight):

    fight [on]                  start a fight with the loaded hero (if any); `on` goes on after a win
    hero FILE.toml | NAME       another hero: from a sheet, or a name alone (rolls init late in round 1);
                                a name the party holds comes back as they were (HP, Wounds, Grit)
    hero NAME [hp N[/M]] [wounds N] [grit N] [hd N[/M]]   set a hero's numbers (hd: Hit Dice; held by name)
    hero NAME sheet FILE.toml   a hero held by name keeps a sheet from now on, with their state (any time)
    party                       the heroes held by name, with their numbers (kept across fights)
    enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE] [grit N]
    minions NAME COUNT [medium|heavy] [atk DICE] [crits]
    remove NAME                 take a combatant added by mistake out of the fight
    init [ambush | +Nb | -NB]   roll initiative for every hero; round 1 begins
    atk TARGET [DICE] [mods] [area N]   the active combatant attacks (1 action)
    cast [N] | move | assess    spend actions
    react NAME defend [ALLY] | interpose ALLY | help ALLY
    react NAME opportunity TARGET [DICE] [mods]   an Opportunity Attack, rolled and dealt
    damage [NAME] N [crit]      damage a hero (through the sheet) or an enemy
    heal [NAME] N | wound [NAME] N | show [NAME] | rest [NAME] field N|safe
    cond add|remove [NAME] CONDITION...   enemies carry conditions too
    save [NAME] ATTR ... | DEX [NAME] ... rolls as the active combatant, or as NAME
    odds atk TARGET [DICE] [mods] [by NAME] | odds [save] [NAME] ATTR   the odds of that roll in the fight
    next | status | end         after a win, heal, rest, cond, show and wound by NAME work until `end`
    save FILE.toml | load FILE.toml
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from crux_cli.core.ruleset import FightLine

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightValue

ALWAYS = ("fight",)
ANYTIME = ("party",)  # a word with or without a fight, which starts none
LOOKS = ("status", "party")  # words that only look: never a step `undo` takes back
DURING = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end",
          "init", "initiative", "atk", "attack")
NO_FIGHT = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end")
ROLLS = ("save", "test", "str", "strength", "dex", "dexterity", "int", "intelligence", "wil", "will")
SHEET = ("heal", "cond", "condition", "conditions", "show", "damage", "dmg", "wound", "rest")
ACTING = ROLLS + SHEET  # rule-set statements a fight answers as the active combatant, or as NAME
AFTER_WIN = ("heal", "rest", "cond", "condition", "conditions", "show", "wound")  # by name, after a win
RENAMED = {"initiative": "init", "attack": "atk", "dmg": "damage", "condition": "cond", "conditions": "cond"}
TOKEN = re.compile(r'"([^"]*)"?|\'([^\']*)\'?|(\S+)')
MORE_HELP = (
    "save! FILE.toml             replace an earlier save without asking (never a sheet)",
    "fight new                   start a new fight without asking first",
    "undo | redo                 take back the last word, sheets and ledger together; make it again",
    "the fight is saved after every word; a fight left by a crash is offered at the next start")


class Token(NamedTuple):
    text: str
    quoted: bool
    at: int  # where it starts in the line, for the caret


def tokens(line: str) -> list[Token]:
    """Words, with "quoted names" kept whole (a closing quote still being typed is not required)."""
    out = []
    for match in TOKEN.finditer(line):
        quoted = match.group(3) is None
        out.append(Token(match.group(1) if match.group(1) is not None else match.group(2) if quoted
                         else match.group(3), quoted, match.start()))
    return out


class FightWord(FightLine):
    """A fight line read once (`read`): its word and the words after it, with what the session's guard
    needs (`core.ruleset.FightLine`: the question before it runs, the file it saves or loads).

    - `word`: its first word, lower case, as the fight knows it (`attack` is `atk`, `dmg` is `damage`);
    - `head`: the first word as typed (`DEX`: a roll the fight makes as someone says it as typed);
    - `args`: the words after it, "quoted names" whole, each with where it starts in `line`.
    """

    word: str = ""
    head: str = ""
    args: tuple[Token, ...] = ()

    @property
    def rest(self) -> str:
        """The words after the first, as one text (a file name with spaces: `save my fight.toml`)."""
        return " ".join(w.text for w in self.args)


def read(line: str, fight: FightValue | None) -> FightWord:
    """A fight line, read once: its words, the question before it runs, and the file it saves or loads."""
    low, _, rest = line.strip().partition(" ")
    low, rest = low.lower(), rest.strip()
    head = line.split()[0] if line.split() else ""
    file = file_of(rest) if low in ("save", "save!", "load") and is_file(rest) else ""
    saves = low in ("save", "save!") and fight is not None and bool(file)
    words = tuple(tokens(line)[1:])
    word = FightWord(line=line, file=file, saves=saves, forced=low == "save!", looks=low in LOOKS,
                     word=RENAMED.get(head.lower(), head.lower()), head=head, args=words)
    if saves:
        return word.replace(line=f"save {rest}", question=f"{file} holds an earlier fight: replace it? "
                            f"(y/N; `save! {rest}` does not ask)")
    if fight is None or not fight.names() or fight.over:
        return word  # nothing running to lose (a won fight is over; `fight on` goes on with it)
    if low == "fight" and rest.lower() not in ("new", "on"):
        return word.replace(line="fight", question=f"a fight is running ({fight.summary()}): start a new one? "
                            "(y/N; `undo` brings this one back; `fight new` does not ask)")
    if low == "load" and file:
        return word.replace(line=line.strip(), question=f"a fight is running ({fight.summary()}): replace it "
                            f"with {file}? (y/N; `undo` brings this one back)")
    return word


def first(line: str) -> tuple[str, list[str]]:
    words = line.split()
    return (words[0].lower() if words else ""), words[1:]


def is_file(word: str) -> bool:
    return word.lower().strip("\"'").endswith(".toml")


def file_of(rest: str) -> str:
    """The file a `save`/`load` names: the rest of the line, spaces and all (`save my fight.toml`), unquoted."""
    return rest.strip().strip("\"'")


def words(fighting: bool) -> tuple[str, ...]:
    """The fight words to complete and colour: `fight`, and the rest while one is on."""
    return (*ALWAYS, *ANYTIME, *(DURING if fighting else ()))
