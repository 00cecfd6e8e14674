"""The fight words of the Crux rules, and which lines are fight words now: the rule set's `fights`
(`FIGHTS`, a `core.ruleset.FightRules`).

The session asks `claims` of every line it reads and colours (the lexer asks while it
is typed), so this module is small and loads nothing else: a plain roll never waits
for the fight itself (`fight`: the ledger, the hero, the fight's own parsing), which
loads when a fight word first runs. Words (documented in /help fight):

    fight [on]                  start a fight with the loaded hero (if any); `on` goes on after a win
    hero FILE.toml | NAME       another hero: from a sheet, or a name alone (rolls init late in round 1)
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
    next | status | end
    save FILE.toml | load FILE.toml
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from crux_cli.core.ruleset import FightLine

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightValue
    from crux_cli.rulesets.crux.fight_state import FightState
    from crux_cli.rulesets.crux.hero import Hero

ALWAYS = ("fight",)
DURING = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end",
          "init", "initiative", "atk", "attack")
NO_FIGHT = ("hero", "enemy", "minions", "remove", "next", "status", "react", "cast", "move", "assess", "end")
ROLLS = ("save", "test", "str", "strength", "dex", "dexterity", "int", "intelligence", "wil", "will")
SHEET = ("heal", "cond", "condition", "conditions", "show", "damage", "dmg", "wound", "rest")
ACTING = ROLLS + SHEET  # rule-set statements a fight answers as the active combatant, or as NAME
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
    head, _, rest = line.strip().partition(" ")
    low, rest = head.lower(), rest.strip()
    file = file_of(rest) if low in ("save", "save!", "load") and is_file(rest) else ""
    saves = low in ("save", "save!") and fight is not None and bool(file)
    words = tuple(tokens(line)[1:])
    word = FightWord(line=line, file=file, saves=saves, forced=low == "save!", word=RENAMED.get(low, low),
                     head=line.split()[0] if line.split() else "", args=words)
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
    return (*ALWAYS, *(DURING if fighting else ()))


def own(fight: FightValue | None) -> FightState | None:
    """The session hands back the value these words gave it: a Crux `FightState` (or None)."""
    if fight is None:
        return None
    from crux_cli.rulesets.crux.fight_state import FightState

    if not isinstance(fight, FightState):
        raise TypeError(f"not a fight of the Crux rules: {type(fight).__name__}")
    return fight


def claims(line: str, fight: FightValue | None) -> bool:
    """Is `line` a fight word now (with `fight` in progress, or None), rather than a rule-set statement?"""
    word, rest = first(line)
    state = own(fight)
    if word in ALWAYS:
        return True
    if word == "save!":
        return state is not None
    if state is None or state.over:
        return word in NO_FIGHT or (word in ("save", "load") and bool(rest) and is_file(" ".join(rest)))
    if word in DURING or (word in ("save", "load") and bool(rest) and is_file(" ".join(rest))):
        return True
    if word not in ACTING:
        return False
    return state.encounter.started or names_someone(line, state)


def names_someone(line: str, state: FightState) -> bool:
    """Does a statement name a combatant (`save Bram STR`, `cond add goblin prone`), or try to?"""
    from crux_cli.core.errors import CruxError
    from crux_cli.rulesets.crux.fight_line import take_name

    words = tokens(line)[1:]
    at = 1 if first(line)[0] in ("cond", "condition", "conditions") else 0
    try:
        return take_name(state.encounter, words, line, at) is not None
    except CruxError:
        return True  # an ambiguous name: the fight says which ones it could be


def hero_of(state: FightState, host: FightHost) -> Callable[[str], Hero | None]:
    """A hero's values as they stand: held in the state, or read from their sheet (None when it does not read)."""
    from crux_cli.core.errors import CruxError

    def of(name: str) -> Hero | None:
        if name in state.heroes:
            return state.heroes[name]
        sheet = state.sheets.get(name)
        if sheet is None:
            return None
        try:
            return host.read_hero(os.path.expanduser(sheet))  # type: ignore[no-any-return]
        except CruxError:
            return None

    return of


class CruxFights:
    """The Crux rules' fights, as the session asks for them (`core.ruleset.FightRules`)."""

    def words(self, fighting: bool) -> tuple[str, ...]:
        return words(fighting)

    def help(self) -> tuple[str, ...]:
        listed = [line[4:] for line in (__doc__ or "").splitlines() if line.startswith("    ")]
        return ("an encounter: `fight` starts one, and these words run it until `end`:", *listed, *MORE_HELP)

    def claims(self, line: str, fight: FightValue | None) -> bool:
        return claims(line, fight)

    def run(self, line: str | FightLine, fight: FightValue | None,
            host: FightHost) -> tuple[FightValue | None, list[str]]:
        from crux_cli.rulesets.crux.fight import run

        word = line if isinstance(line, FightWord) else read(line if isinstance(line, str) else line.line, fight)
        return run(word, own(fight), host)

    def odds(self, text: str, fight: FightValue | None, host: FightHost,
             exact: bool) -> tuple[Any, list[str]] | None:
        if fight is None or first(text)[0] not in ("atk", "attack", *ROLLS):
            return None  # a plain `odds` never loads the fight
        from crux_cli.rulesets.crux.fight import odds

        return odds(text, own(fight), host, exact)

    def read(self, line: str, fight: FightValue | None) -> FightWord:
        return read(line, fight)

    def resume(self, path: str) -> str:
        return f"load {path}"

    def takes_path(self, word: str) -> bool:
        return word.lower() == "load"

    def complete(self, text: str, fight: FightValue,
                 host: FightHost) -> tuple[str, tuple[tuple[str, str], ...], bool] | None:
        from crux_cli.rulesets.crux.fight_view import complete

        state = own(fight)
        return complete(text, state, hero_of(state, host)) if state is not None else None

    def toolbar(self, fight: FightValue, host: FightHost) -> list[tuple[int, str, str]]:
        from crux_cli.rulesets.crux.fight_view import toolbar

        state = own(fight)
        return toolbar(state, hero_of(state, host)) if state is not None else []


FIGHTS = CruxFights()

if TYPE_CHECKING:  # mypy checks that the Crux fights are what the session asks for
    from crux_cli.core.ruleset import FightRules

    _FIGHTS: FightRules = FIGHTS
