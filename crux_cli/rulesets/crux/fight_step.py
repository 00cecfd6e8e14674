"""The small steps every fight word is made of, each a function over the fight's value (`FightState`).

A step takes the fight and gives the fight after it, with the lines that say what happened: the
ledger's steps (`step`), a roll as a combatant (`hero_answer`, `roll`), the heroes' sheets brought into
the ledger (`sync`), damage dealt (`deal`). A hero rolls through a runner the session lends for that
roll (`runner_of`): their sheet's, or one holding their values, which the fight keeps afterwards.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux.engine import GRIT_MAX, AttackResult, GritChange, without_crit
from crux_cli.rulesets.crux.fight_line import take_name, unknown
from crux_cli.rulesets.crux.fight_rolls import Built
from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
from crux_cli.rulesets.crux.fight_words import Token
from crux_cli.rulesets.crux.hero import Hero

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightRunner

Said = tuple[FightState, list[str]]  # the fight after a step, and what it says


def runner_of(state: FightState, host: FightHost, name: str) -> FightRunner:
    """The runner that rolls for hero `name`: their sheet's, or one holding the values the fight keeps."""
    sheet = state.sheets.get(name)
    if sheet is not None:
        return host.fight_runner(sheet=os.path.expanduser(sheet))
    return host.fight_runner(hero=state.heroes.get(name) or Hero(name=name))


class HeldUpdate(Record):
    """A hero held by name around one roll that moved their Grit or Wounds, as a sheet's update is (the runner's
    `SheetUpdate`): the answer says what changed (`Pip: Grit 1 → 2`, a failed STR save's Wound) as it does
    for a sheet's hero (whose Grit every roll shows)."""

    path: str  # "": no file keeps them
    before: Hero
    after: Hero


def hero_answer(state: FightState, host: FightHost, name: str, statement: str | Built) -> tuple[FightState, Any]:
    """`statement` answered as hero `name` (typed, or a roll the fight built); what it changes of a hero held
    in memory the fight keeps, and the answer carries (`HeldUpdate`), as a sheet's does."""
    runner = runner_of(state, host, name)
    if isinstance(statement, str):
        answer = runner.answer(statement)
    else:
        answer = runner.answer_statement(statement.statement, statement.text)
    if name not in state.sheets:
        before = state.heroes.get(name) or Hero(name=name)
        after = runner.current_hero()
        state = state.replace(heroes=frozen_map({**state.heroes, name: after}))
        moved = after is not None and (after.grit, after.wounds) != (before.grit, before.wounds)
        if getattr(answer, "sheet", None) is None and after is not None and moved:  # Grit moved, a Wound came
            answer = answer.replace(sheet=HeldUpdate("", before, after))
    return state, answer


def current(state: FightState, host: FightHost, name: str) -> Hero | None:
    """Hero `name`'s values as they stand (their sheet read now); None for anyone not a hero of the fight."""
    if name not in state.hero_names():
        return None
    sheet = state.sheets.get(name)
    if sheet is not None:
        hero: Hero = host.read_hero(os.path.expanduser(sheet))
        return hero
    return state.heroes.get(name) or Hero(name=name)


def held(state: FightState) -> FightState:
    """The fight with a value for every hero held in memory, and none for anyone gone (as it is kept)."""
    heroes = {name: state.heroes.get(name) or Hero(name=name) for name in state.hero_names()
              if name not in state.sheets}
    sheets = {name: sheet for name, sheet in state.sheets.items() if name in state.hero_names()}
    if heroes == dict(state.heroes) and sheets == dict(state.sheets):
        return state
    return state.replace(heroes=frozen_map(heroes), sheets=frozen_map(sheets))


def said_by(host: FightHost, answer: Any, who: str, shown: str | None = None) -> str:
    """An answer as one line, prefixed with who rolled (the journal keeps them as its `who`)."""
    return host.render(answer.replace(input=shown if shown is not None else f"{who}: {answer.input}"), who)


def step(state: FightState, done: ledger.Step, host: FightHost) -> Said:
    """A step of the ledger taken: its encounter, and its events (dimmed)."""
    return state.replace(encounter=done.encounter), [host.palette.dim(event) for event in done.events]


def sync(state: FightState, host: FightHost) -> Said:
    """Bring each hero's Dying, death and Dazed from their sheet into the ledger; say who just fell."""
    said = []
    for name in state.hero_names():
        hero = current(state, host, name)
        if hero is None:
            continue
        before = state.encounter.find(name)
        encounter = ledger.set_hero_state(state.encounter, name, dying=hero.dying, dead=hero.dead,
                                          dazed=hero.has("dazed"))
        state = state.replace(encounter=encounter)
        after = encounter.find(name)
        if ((hero.dying and not before.dying) or (hero.dead and not before.down)) and name not in state.fallen:
            state = state.replace(fallen=(*state.fallen, name))
        if hero.dying and not before.dying and encounter.started:
            said.append(f"{name} drops to Dying: {after.actions} action{'s' if after.actions != 1 else ''} "
                        "left (1 action a turn, reactions included)")
    return state, [host.palette.dim(s) for s in said]


def turn_begins(state: FightState, done: ledger.Step, host: FightHost) -> Said:
    """A turn starts: a hero's Dazed, now paid for with an action, comes off their sheet."""
    state, out = step(state, done, host)
    active = state.encounter.active()
    if active is not None and active.side == "hero" and any("dazed" in e for e in done.events):
        state, _ = hero_answer(state, host, active.name, "cond remove dazed")
    return state, out


def roll(state: FightState, host: FightHost, who: ledger.Combatant, built: Built) -> tuple[FightState, Any]:
    """Roll as `who`: a hero through their runner (sheet and Grit), an enemy with plain dice."""
    if who.side == "hero":
        return hero_answer(state, host, who.name, built)
    if built.statement.mods.grit and who.grit < 1:
        why = "has no Grit (§11: enemies have none unless the GM gives an elite some)" if who.grit < 0 \
            else "has no Grit left"
        raise CruxError(f"{who.name} {why}", hint="enemy NAME hp N grit 2 gives an elite Grit")
    return state, host.fight_runner().answer_statement(built.statement, built.text)


def as_enemy(state: FightState, host: FightHost, who: ledger.Combatant, answer: Any) -> tuple[FightState, Any,
                                                                                                 list[str]]:
    """An enemy's roll as §11 has it: minions do not crit (unless `crits`), and no Grit without Grit."""
    if who.side != "enemy":
        return state, answer, []
    result, said = answer.result, []
    if isinstance(result, AttackResult) and who.minions and not who.crits and result.outcome == "crit":
        result = without_crit(result)
        said.append(host.palette.dim(f"{who.name} are minions: their max is a plain hit, not a crit"))
    if who.grit < 0:
        result = result.replace(grit=GritChange())
    else:
        gained = result.grit.gained if who.grit - result.grit.spent < GRIT_MAX else 0
        result = result.replace(grit=GritChange(result.grit.spent, gained))
        state = state.replace(encounter=ledger.spend_enemy_grit(state.encounter, who.name, result.grit.spent,
                                                                gained))
        left = state.encounter.find(who.name).grit
        if left != who.grit:  # the elite's Grit total, as a hero's answer says theirs
            said.append(host.palette.dim(f"{who.name}: Grit {who.grit} → {left}"))
    return state, answer.replace(result=result), said


def deal(state: FightState, host: FightHost, name: str, damage: int, crit: bool, caught: int = 1,
         by: str | None = None) -> Said:
    """Damage dealt to `name`: an enemy's in the ledger (the fight won when the last falls), a hero's on
    their sheet."""
    target = state.encounter.find(name)
    if target.side == "enemy":
        state, out = step(state, ledger.hit_enemy(state.encounter, name, damage, caught, by), host)
        if state.encounter.find(name).down:
            state = state.replace(fallen=(*state.fallen, name))
        state, summary = won(state)
        return state, out + summary
    if damage <= 0:
        return state, []
    state, answer = hero_answer(state, host, name, f"damage {damage}" + (" crit" if crit else ""))
    state = state.replace(encounter=ledger.count_damage(state.encounter, name, damage, by))
    state, notes = sync(state, host)
    return state, [said_by(host, answer, name), *notes]


def won(state: FightState) -> Said:
    """The summary, once every enemy is down: the fight is over (it waits for `fight on` or a new one)."""
    if not ledger.won(state.encounter):
        return state, []
    state = state.replace(over=True)
    return state, [*ledger.summary(state.encounter, state.fallen),
                   "the fight is over: `fight on` goes on with it (more enemies), `fight` starts another"]


def who(state: FightState, line: str, words: list[Token], start: int = 0) -> tuple[ledger.Combatant, list[Token]]:
    """The combatant a statement names at `words[start]`, else the active one; and the words left."""
    taken = take_name(state.encounter, words, line, start)
    if taken is not None:
        return taken[0], words[:start] + words[start + taken[1]:]
    active = state.encounter.active()
    if active is None:
        raise CruxError("name who: initiative has not been rolled, so nobody's turn it is", text=line,
                        position=len(line.split()[0]), hint="e.g. " + line.split()[0] + " Wren …")
    return active, words


def required(state: FightState, line: str, words: list[Token], start: int = 0) -> ledger.Combatant:
    """The combatant named at `words[start]`, refused when there is none."""
    taken = take_name(state.encounter, words, line, start)
    if taken is None:
        typed = words[start].text if start < len(words) else ""
        if not typed:
            raise CruxError("name someone in the fight", text=line, position=len(line),
                            hint="in the fight: " + ", ".join(c.name for c in state.encounter.combatants))
        raise unknown(state.encounter, typed, line, words[start].at)
    return taken[0]
