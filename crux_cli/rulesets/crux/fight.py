"""The fight words of the Crux rules: one table, word -> a function from the fight to the next fight.

`run(word, state, host)` answers one fight line, read once (`fight_words.FightWord`): it finds the
word's function in `WORDS` and gives it the fight as a value (`FightState`); the function gives back
the fight after the word and what to say. The state handed in is never changed, so a word refused
half-way leaves the fight as it was. The words are in `fight_setup` (setting up and keeping the
fight), `fight_turns` (the rounds, tests and saves, the sheet words) and `fight_attack` (attacks),
built of the steps in `fight_step`; the session lends runners, rendering and files through
`core.ruleset.FightHost`. The line grammar (tokens, names) is in `fight_line`; what a fight shows
(status, toolbar, Tab) in `fight_view`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.rulesets.crux import fight_attack, fight_setup, fight_turns
from crux_cli.rulesets.crux.fight_line import names_someone, take_name
from crux_cli.rulesets.crux.fight_state import FightState
from crux_cli.rulesets.crux.fight_step import held
from crux_cli.rulesets.crux.fight_words import AFTER_WIN, ALWAYS, ANYTIME, ROLLS, FightWord, is_file, read

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost

Word = Callable[[FightState, FightWord, "FightHost"], tuple[FightState | None, list[str]]]

# a fight word (as `FightWord.word` has it) -> what it does to the fight; built once, when the fight loads
WORDS: Mapping[str, Word] = MappingProxyType({
    "fight": fight_setup.fight, "hero": fight_setup.hero, "enemy": fight_setup.enemy,
    "minions": fight_setup.minions, "remove": fight_setup.remove, "status": fight_setup.status,
    "end": fight_setup.end, "load": fight_setup.load,
    "init": fight_turns.init, "next": fight_turns.next_turn, "cast": fight_turns.acting("cast"),
    "move": fight_turns.acting("move"), "assess": fight_turns.acting("assess"), "react": fight_turns.react,
    "damage": fight_turns.damage,
    **dict.fromkeys(ROLLS, fight_turns.roll_as),
    **dict.fromkeys(("heal", "cond", "show", "wound", "rest"), fight_turns.sheet_as),
    "atk": fight_attack.atk,
})


def run(word: FightWord, state: FightState | None, host: FightHost) -> tuple[FightState | None, list[str]]:
    """Answer a fight line: the fight afterwards (None once it ends), and what to say."""
    said = word.head.lower()
    if said in ANYTIME:  # `party`: with a fight or without, and it starts none
        return state, fight_setup.party(state, word, host)
    if said == "hero" and (state is None or state.over) and fight_setup.sheet_given(word):
        return fight_setup.sheet_between(state, word, host)  # between fights: the party's hero keeps a sheet
    if said == "load" and (state is None or state.over):  # resuming a saved fight
        state = FightState()
    elif said in ALWAYS:
        state = state or FightState()
    elif state is None:
        raise CruxError("no fight is running", text=word.line, position=0,
                        hint="`fight` starts one; `load FILE.toml` resumes a saved one")
    after, lines = found(word, state)(state, word, host)
    return (None if after is None else held(after)), lines


def found(word: FightWord, state: FightState) -> Word:
    """The function of a fight word, as the fight stands (a won fight waits for `fight on` or a new one)."""
    said = word.head.lower()
    if state.over and said == "status":  # the summary again, with where everyone stood
        return fight_setup.summary_again
    if state.over and said not in (*ALWAYS, "end") and not (said in AFTER_WIN and names_someone(word, state)):
        raise CruxError("no fight is running: the last one was won", text=word.line, position=0,
                        hint="`fight` starts a new one; `fight on` goes on with the last; heal, rest, cond, show "
                        "and wound by NAME patch the party up until `end`")
    if state.over and said in AFTER_WIN:  # after a win: the heroes by name, until `end`
        taken = take_name(state.encounter, list(word.args), word.line, 1 if word.word == "cond" else 0)
        if taken is not None and taken[0].side != "hero":
            raise CruxError(f"the fight is won: {taken[0].name} is out of it", text=word.line, position=0,
                            hint="`fight on` goes on with the fight (more enemies)")
    if word.word == "save" and word.args and is_file(word.rest):
        return fight_setup.save
    function = WORDS.get(word.word)
    if function is None:
        raise CruxError(f"'{word.head}' is not a fight word here", text=word.line, position=0,
                        hint="save FILE.toml saves the fight; save! FILE.toml replaces an earlier save")
    return function


def odds(text: str, state: FightState | None, host: FightHost,
         exact: bool = False) -> tuple[Any, list[str]] | None:
    """`odds atk ogre [rushed] [by NAME]`, `odds save DEX`, `odds [NAME] DEX`…: the odds of that roll as the
    fight would make it (the attacker's dice, the target's armour, resistance, vulnerability and
    conditions, Defend and Interpose waiting, Help, the attacks made this turn), nothing rolled.

    The odds answer and the lines that say what the fight added; None when the line is no roll of the fight
    (`odds atk d8` naming nobody: the plain odds).
    """
    if state is None or state.over or ";" in text:
        return None
    word = read(text, state)
    if word.word == "atk":
        return fight_attack.attack_odds(state, word, host, exact)
    if word.word in ROLLS and (state.encounter.started or names_someone(word, state)):
        return fight_turns.roll_odds(state, word, host, exact)
    return None

