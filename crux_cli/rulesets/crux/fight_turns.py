"""The fight words of the rounds: `init`, `next`, `cast`, `move`, `assess`, `react`; tests and saves
rolled as someone (`save Bram STR`, `DEX +1b`) and their odds; `damage`, and `heal`, `wound`, `cond`,
`show`, `rest` for the one named or the active combatant (an enemy's in the ledger).

Functions over the fight's value, as every word is (`fight_step`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import fight_view as view
from crux_cli.rulesets.crux.fight_attack import opportunity
from crux_cli.rulesets.crux.fight_line import is_count, take_name, unknown
from crux_cli.rulesets.crux.fight_rolls import Built, test_or_save
from crux_cli.rulesets.crux.fight_state import FightState
from crux_cli.rulesets.crux.fight_step import (
    Said,
    as_enemy,
    current,
    deal,
    hero_answer,
    required,
    roll,
    runner_of,
    said_by,
    step,
    sync,
    turn_begins,
    who,
)
from crux_cli.rulesets.crux.fight_words import RENAMED, FightWord, Token
from crux_cli.rulesets.crux.wounds import condition_name

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost


def init(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`init [ambush | +Nb | -NB]`: every hero rolls initiative (as typed); round 1 begins."""
    if state.encounter.started:
        raise CruxError(f"initiative was rolled: this is round {state.encounter.round}", text=word.line,
                        position=0, hint="`next` passes the turn; `fight` starts a new fight")
    statement = " ".join(["init", *(w.text for w in word.args)])  # ambush, Boons, Banes: every hero's roll
    out, openings = [], {}
    for name in state.hero_names():
        state, answer = hero_answer(state, host, name, statement)
        openings[name] = answer.result.actions
        out.append(said_by(host, answer, name))
    state, _ = sync(state, host)
    state, said = turn_begins(state, ledger.start(state.encounter, openings), host)
    return state, out + said


def next_turn(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`next`: the turn passes."""
    state, notes = sync(state, host)
    state, said = turn_begins(state, ledger.next_turn(state.encounter), host)
    return state, notes + said


def acting(kind: str) -> Callable[[FightState, FightWord, FightHost], Said]:
    """`cast [N]`, `move`, `assess`: the active combatant spends actions."""

    def act(state: FightState, word: FightWord, host: FightHost) -> Said:
        cost = int(word.args[0].text) if kind == "cast" and word.args and is_count(word.args[0].text) else 1
        state, notes = sync(state, host)
        state, said = step(state, ledger.act(state.encounter, kind, cost), host)
        return state, notes + said

    act.__name__ = act.__qualname__ = kind
    return act


def react(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`react NAME defend [ALLY]`, `interpose ALLY`, `help ALLY`, `opportunity TARGET [DICE] [mods]` (§6.2)."""
    line, words = word.line, list(word.args)
    if not words:
        raise CruxError("a reaction is: react NAME defend|interpose|opportunity|help [NAME]", text=line,
                        position=len(line), hint="react wren defend")
    state, notes = sync(state, host)
    reactor = required(state, line, words)
    taken = take_name(state.encounter, words, line)
    rest = words[taken[1] if taken else 1:]
    if not rest:
        raise CruxError("which reaction? defend, interpose, opportunity or help", text=line, position=len(line))
    kind = rest[0].text.lower()
    if kind == "opportunity":
        state, said = opportunity(state, host, line, reactor, rest[1:])
        return state, notes + said
    other = reaction_other(state, line, reactor, kind, rest)
    state, said = step(state, ledger.react(state.encounter, reactor.name, kind, other), host)
    return state, notes + said


def reaction_other(state: FightState, line: str, reactor: ledger.Combatant, kind: str,
                   rest: list[Token]) -> str | None:
    """The ally a reaction names after its kind (`react Bram help Wren`), and nothing more."""
    named = take_name(state.encounter, rest, line, 1) if len(rest) > 1 else None
    if len(rest) > 1 and named is None:
        raise unknown(state.encounter, rest[1].text, line, rest[1].at)
    if named is not None and len(rest) > 1 + named[1]:
        extra = rest[1 + named[1]]
        raise CruxError(f"'{extra.text}' is not part of a reaction", text=line, position=extra.at,
                        hint=f"react {reactor.name} {kind} NAME")
    return named[0].name if named is not None else None


def roll_as(state: FightState, word: FightWord, host: FightHost) -> Said:
    """A test or save (`save Bram STR`, `DEX +1b`) rolled as the one named or the active combatant.

    Help waiting for them is taken by this roll (the next roll: a test, a save or an attack).
    """
    state, notes = sync(state, host)
    roller, rest = who(state, word.line, list(word.args))
    built, said = roll_statement(host, word, roller, rest)
    state, answer = roll(state, host, roller, built)
    state, answer, grit = as_enemy(state, host, roller, answer)
    state, helped = step(state, ledger.take_help(state.encounter, roller.name), host)
    rolled = said_by(host, answer, roller.name, f"{roller.name}: {built.text}")
    state, after = sync(state, host)
    return state, [*notes, *said, *helped, rolled, *grit, *after]


def roll_statement(host: FightHost, word: FightWord, roller: ledger.Combatant,
                   rest: list[Token]) -> tuple[Built, list[str]]:
    """A test or save as `roller` rolls it in the fight: Help waiting, and an enemy's conditions (§10.3:
    Frightened "Bane on rolls while the source of fear is visible", Restrained "Banes on attacks and
    DEX saves"; a hero's come from their sheet)."""
    held = ledger.enemy_conditions(roller) if roller.side == "enemy" else ()
    said = []
    if "frightened" in held:
        said.append(f"{roller.name} is frightened: +1 Bane")
    if "restrained" in held and is_dex_save(word, rest):
        said.append(f"{roller.name} is restrained: +1 Bane on a DEX save")
    built = test_or_save(word.head, [w.text for w in rest], roller, len(said))
    return built, [host.palette.dim(s) for s in said]


def is_dex_save(word: FightWord, rest: list[Token]) -> bool:
    return word.head.lower() == "save" and any(ATTRIBUTE_NAMES.get(w.text.lower()) == "DEX" for w in rest[:1])


def roll_odds(state: FightState, word: FightWord, host: FightHost, exact: bool) -> tuple[Any, list[str]]:
    """The odds of a test or save as `roll_as` would roll it, for the active combatant or the one named."""
    roller, rest = who(state, word.line, list(word.args))
    built, said = roll_statement(host, word, roller, rest)
    runner = runner_of(state, host, roller.name) if roller.side == "hero" else host.fight_runner()
    shown = host.palette.dim(f"{roller.name}: {built.text}")
    return runner.odds_statement(built.statement, built.text, exact), [*said, shown]


def damage(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`damage [NAME] N [crit]`: a hero's through their sheet, an enemy's in the ledger."""
    state, notes = sync(state, host)
    target, rest = who(state, word.line, list(word.args))
    if not rest or not is_count(rest[0].text):
        raise CruxError("damage in a fight is: damage [NAME] N [crit]", text=word.line,
                        position=rest[0].at if rest else len(word.line))
    crit = any(w.text.lower() in ("crit", "critical") for w in rest[1:])
    state, said = deal(state, host, target.name, int(rest[0].text), crit)
    return state, notes + said


def sheet_as(state: FightState, word: FightWord, host: FightHost) -> Said:
    """heal, wound, cond and show, for the one named or the active combatant (enemies in the ledger)."""
    state, notes = sync(state, host)
    kind = RENAMED.get(word.head.lower(), word.head.lower())
    target, rest = who(state, word.line, list(word.args), 1 if kind == "cond" else 0)
    if target.side == "hero":
        state, answer = hero_answer(state, host, target.name, " ".join([word.head, *(w.text for w in rest)]))
        state, after = sync(state, host)
        return state, [*notes, said_by(host, answer, target.name), *after]
    if kind == "show":
        return state, [*notes, view.status_line(target, lambda name: current(state, host, name))]
    state, said = enemy_sheet(state, host, kind, target, rest, word.line)
    return state, notes + said


def enemy_sheet(state: FightState, host: FightHost, kind: str, enemy: ledger.Combatant, rest: list[Token],
                line: str) -> Said:
    """heal, wound, cond and rest for an enemy: its HP and conditions are the ledger's."""
    if kind == "cond":
        action = rest[0].text.lower() if rest else ""
        if action not in ("add", "remove", "rm", "del", "drop") or len(rest) < 2:
            raise CruxError("cond add|remove NAME CONDITION", text=line, position=len(line))
        names = tuple(condition_name(w.text) for w in rest[1:])
        return step(state, ledger.set_conditions(state.encounter, enemy.name,
                                                 "add" if action == "add" else "remove", names), host)
    if kind == "wound":
        raise CruxError(f"{enemy.name} is an enemy: the ledger keeps its HP, not Wounds", text=line,
                        position=0, hint=f"damage {enemy.name} N")
    if kind == "rest":
        raise CruxError(f"{enemy.name} is an enemy: it has no Hit Dice to rest with", text=line, position=0,
                        hint=f"heal {enemy.name} N")
    if not rest or not is_count(rest[0].text):
        raise CruxError(f"{kind} [NAME] N", text=line, position=len(line))
    return step(state, ledger.heal_enemy(state.encounter, enemy.name, int(rest[0].text)), host)
