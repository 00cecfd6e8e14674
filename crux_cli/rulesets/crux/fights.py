"""The Crux rules' fights, as the session asks for them: the rule set's `fights` (`FIGHTS`, a
`core.ruleset.FightRules`), and which lines are fight words now (`claims`).

The session asks `claims` of every line it reads and colours (the lexer asks while it is typed),
so this module loads only the words (`fight_words`): a plain roll never waits for the fight itself
(`fight`: the ledger, the hero, the fight's own parsing), which loads when a fight word first runs.
The top of the fight's modules: fight_words → fight_line → fight_view → fight_rolls → fight_step →
fight_attack → fight_turns → fight_setup → fight → fights, each importing only those before it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.ruleset import FightLine
from crux_cli.rulesets.crux import fight_words
from crux_cli.rulesets.crux.fight_words import (
    ACTING,
    AFTER_WIN,
    ALWAYS,
    ANYTIME,
    DURING,
    MORE_HELP,
    NO_FIGHT,
    ROLLS,
    FightWord,
    first,
    is_file,
    read,
    words,
)

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightValue
    from crux_cli.rulesets.crux.fight_state import FightState
    from crux_cli.rulesets.crux.hero import Hero


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
    if word in ALWAYS or word in ANYTIME:
        return True
    if word == "save!":
        return state is not None
    if state is not None and state.over and word in AFTER_WIN:  # patching the party up by name until `end`
        from crux_cli.rulesets.crux.fight_line import names_someone

        return names_someone(read(line, state), state)
    if state is None or state.over:
        return word in NO_FIGHT or (word in ("save", "load") and bool(rest) and is_file(" ".join(rest)))
    if word in DURING or (word in ("save", "load") and bool(rest) and is_file(" ".join(rest))):
        return True
    if word not in ACTING:
        return False
    if state.encounter.started:
        return True
    from crux_cli.rulesets.crux.fight_line import names_someone  # the names' rules load with a fight's first name

    return names_someone(read(line, state), state)


def hero_of(state: FightState, host: FightHost) -> Callable[[str], Hero | None]:
    """A hero's values as they stand: held in the state, or read from their sheet (None when it does not read)."""
    def of(name: str) -> Hero | None:
        if name in state.heroes:
            return state.heroes[name]
        sheet = state.sheets.get(name)
        if sheet is None:
            return None
        try:
            hero: Hero = host.read_hero(os.path.expanduser(sheet))
        except CruxError:
            return None
        return hero

    return of


class CruxFights:
    """The Crux rules' fights, as the session asks for them (`core.ruleset.FightRules`)."""

    def words(self, fighting: bool) -> tuple[str, ...]:
        return words(fighting)

    def help(self) -> tuple[str, ...]:
        listed = [line[4:] for line in (fight_words.__doc__ or "").splitlines() if line.startswith("    ")]
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

    def dump(self, fight: FightValue, sheets: Mapping[str, str]) -> str:
        from crux_cli.rulesets.crux.fight_file import dump

        return dump(fight, sheets)

    def load(self, text: str, path: str, folder: str) -> FightValue:
        from crux_cli.rulesets.crux.fight_file import load

        return load(text, path, folder)

    # the shared table (issue 34): optional words of a rule set's fights, asked for with getattr

    def table_line(self, line: str, fight: FightValue | None, hero: str | None) -> tuple[str, str]:
        from crux_cli.rulesets.crux.fight_table import authority

        return authority(line, own(fight), hero)

    def table_view(self, fight: FightValue, host: FightHost) -> dict[str, Any]:
        from crux_cli.rulesets.crux.fight_table import view

        state = own(fight)
        assert state is not None
        return view(state, hero_of(state, host))


FIGHTS = CruxFights()

if TYPE_CHECKING:  # mypy checks that the Crux fights are what the session asks for
    from crux_cli.core.ruleset import FightRules

    _FIGHTS: FightRules = FIGHTS
