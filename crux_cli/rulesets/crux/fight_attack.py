"""Attacks in a fight: `atk TARGET [DICE] [mods] [area N]`, an Opportunity Attack, and their odds.

An attack is rolled as the attacker with every modifier the fight adds (rushed, Help, Defend and
Interpose waiting, the target's armour, resistance, vulnerability and conditions, the attacker's
conditions and minion rules), and its damage dealt (`fight_step.deal`). Functions over the fight's
value, as every word is (`fight_step`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import fight_rolls as rolls
from crux_cli.rulesets.crux import fight_view as view
from crux_cli.rulesets.crux import syntax
from crux_cli.rulesets.crux.compiler import ATTACK
from crux_cli.rulesets.crux.fight_line import Ambiguous, is_count, take_name, unknown
from crux_cli.rulesets.crux.fight_rolls import Built
from crux_cli.rulesets.crux.fight_state import FightState
from crux_cli.rulesets.crux.fight_step import (
    Said,
    as_enemy,
    current,
    deal,
    required,
    roll,
    runner_of,
    said_by,
    step,
    sync,
)
from crux_cli.rulesets.crux.fight_words import FightWord, Token

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost


def atk(state: FightState, word: FightWord, host: FightHost) -> Said:
    """`atk TARGET [DICE] [mods] [area N]`: the active combatant attacks (1 action)."""
    state, notes = sync(state, host)
    line, words = word.line, list(word.args)
    attacker = state.encounter.active()
    if attacker is None:
        raise CruxError("the fight has not started", text=line, position=0, hint="roll initiative with `init`")
    target, rest = attack_target(state, line, words, attacker.name)
    caught, rest = area(line, rest)
    if target.down:
        raise CruxError(f"{target.name} is already down", text=line, position=line.find(words[0].text))
    if target.name == attacker.name:
        raise CruxError(f"{attacker.name} cannot attack themselves", text=line, position=len(line.split()[0]),
                        hint="name another combatant")
    spent = ledger.act(state.encounter, "attack")  # refused before any die is rolled when no actions are left
    state, said = strike(state, host, attacker, target, rest, spent, caught)
    return state, notes + said


def strike(state: FightState, host: FightHost, attacker: ledger.Combatant, target: ledger.Combatant,
           rest: list[str], spent: ledger.Step, caught: int = 1, what: str = "") -> Said:
    """One attack, a turn's (`spent` takes its action) or a reaction's, rolled and its damage dealt.

    The Defend and Interpose waiting for the target answer it (§6.2): Defend's Bane, the interposer
    hit instead. Then the target's conditions, armour, resistance and vulnerability, the attacker's
    conditions and minion rules, as every attack has them.
    """
    state, action = step(state, spent, host)  # said after the roll; a refused roll leaves the fight as it was
    covered, hit, defended = ledger.cover(state.encounter, target.name, attacker.name)
    state, guard = step(state, covered, host)
    target = state.encounter.find(hit)
    built, why, mine = attack_words(state, host, attacker, target, rest, spent, defended)
    state, answer = roll(state, host, attacker, built)
    state, answer, said = as_enemy(state, host, attacker, answer)
    rolled = said_by(host, answer, attacker.name, f"{what}{attacker.name} → {target.name}: {built.text}")
    damage, crit = answer.result.damage, answer.result.outcome == "crit"
    if answer.result.outcome == "miss" and damage <= 0:  # the answer says it missed: no `takes 0` after it
        return state, [*guard, *why, *mine, rolled, *said, *action]
    state, dealt = deal(state, host, target.name, damage, crit, caught, by=attacker.name)
    return state, [*guard, *why, *mine, rolled, *said, *action, *dealt]


def opportunity(state: FightState, host: FightHost, line: str, reactor: ledger.Combatant,
                words: list[Token]) -> Said:
    """An Opportunity Attack: the reactor's attack, rolled as a turn's is (never rushed: it is no turn's)."""
    if not words:
        raise CruxError("an opportunity attack needs the one it strikes", text=line, position=len(line),
                        hint=f"react {reactor.name} opportunity NAME [DICE]")
    taken = take_name(state.encounter, words, line)
    if taken is None:
        raise unknown(state.encounter, words[0].text, line, words[0].at)
    target, rest = taken[0], [w.text for w in words[taken[1]:]]
    caught, rest = area(line, rest)
    state, spent = step(state, ledger.react(state.encounter, reactor.name, "opportunity", target.name), host)
    helped = ledger.take_help(state.encounter, reactor.name)
    state = state.replace(encounter=helped.encounter)
    state, said = strike(state, host, state.encounter.find(reactor.name), target, rest,
                         ledger.Step(state.encounter, boons=helped.boons), caught, "opportunity attack: ")
    return state, [*spent, *said]


def attack_target(state: FightState, line: str, words: list[Token],
                  attacker: str = "") -> tuple[ledger.Combatant, list[str]]:
    """The one combatant named among the attack's words, and the words left (dice, modifiers); a beginning
    that fits the attacker and others means the others (`atk ash` on Wren of Ash's turn is the ashling)."""
    for start in range(len(words)):
        taken = take_name(state.encounter, words, line, start, attacker)
        if taken is not None:
            rest = words[:start] + words[start + taken[1]:]
            return taken[0], [w.text for w in rest]
    raise CruxError("name one target in the fight", text=line, position=len(line.split()[0]),
                    hint="in the fight: " + ", ".join(c.name for c in state.encounter.combatants))


def area(line: str, rest: list[str]) -> tuple[int, list[str]]:
    """`area N`: how many of a group the attack catches, and the words left."""
    low = [w.lower() for w in rest]
    if "area" not in low:
        return 1, rest
    at = low.index("area")
    count = rest[at + 1] if at + 1 < len(rest) else ""
    if not is_count(count):
        raise CruxError("area needs how many it catches: area 3", text=line, position=line.find("area"))
    return int(count), rest[:at] + rest[at + 2:]


def against(state: FightState, host: FightHost, target: ledger.Combatant, melee: bool) -> tuple[list[str], int]:
    """Boons the target's conditions give an attack against it (seed §10.3), named."""
    conditions = view.conditions_of(target, lambda name: current(state, host, name))
    why = []
    if "prone" in conditions and melee:
        why.append(f"{target.name} is prone: +1 Boon to a melee attack against them")
    if "blinded" in conditions:
        why.append(f"{target.name} is blinded: +1 Boon to hit them")
    return [host.palette.dim(w) for w in why], len(why)


def hindered(host: FightHost, attacker: ledger.Combatant, melee: bool) -> tuple[list[str], int]:
    """Banes an enemy's own conditions put on its attack (§10.3); a hero's come from their sheet."""
    if attacker.side != "enemy":
        return [], 0
    held = ledger.enemy_conditions(attacker)
    banes: list[str] = [c for c in ("frightened", "blinded", "restrained") if c in held]
    banes += ["prone"] if "prone" in held and melee else []
    return [host.palette.dim(f"{attacker.name} is {c}: +1 Bane on the attack") for c in banes], len(banes)


def attack_words(state: FightState, host: FightHost, attacker: ledger.Combatant, target: ledger.Combatant,
                 rest: list[str], spent: ledger.Step, defended: int = 0) -> tuple[Built, list[str], list[str]]:
    """The attack as the fight rolls it, with every modifier the fight adds, and the lines that say why."""
    melee = not any(w.lower() == "ranged" for w in rest)
    why, net = against(state, host, target, melee)
    mine, banes = hindered(host, attacker, melee)
    return rolls.attack(attacker, target, rest, spent, net - banes - defended), why, mine


def attack_odds(state: FightState, word: FightWord, host: FightHost, exact: bool) -> tuple[Any, list[str]] | None:
    """The odds of `atk TARGET …` from the active combatant, or `… by NAME`, as `atk` would roll it."""
    line = word.line
    attacker, words = attack_by(state, line, list(word.args))
    try:
        target, rest = attack_target(state, line, words)
    except Ambiguous:
        raise  # a beginning of more than one name: the candidates named, as `atk` names them
    except CruxError:
        return None  # no combatant named: the plain odds of the statement
    if attacker is None:
        raise CruxError("whose attack? initiative has not been rolled", text=line, position=len(line),
                        hint=f"odds {line} by NAME")
    if target.name == attacker.name:
        raise CruxError(f"{attacker.name} cannot attack themselves", text=line, position=0)
    if target.down:
        raise CruxError(f"{target.name} is already down", text=line, position=0)
    _, rest = area(line, rest)
    rushed = 0 if "rushed" in [w.lower() for w in rest] else attacker.attacks  # the ledger's, unless the GM says
    covered, hit, defended = ledger.cover(state.encounter, target.name, attacker.name)
    target = covered.encounter.find(hit)
    built, why, mine = attack_words(state, host, attacker, target, rest,
                                    ledger.Step(state.encounter, rushed=rushed, boons=attacker.helped), defended)
    said = [*(host.palette.dim(e) for e in covered.events), *why, *mine,
            host.palette.dim(f"{attacker.name} → {target.name}: {built.text}")]
    runner = runner_of(state, host, attacker.name) if attacker.side == "hero" else host.fight_runner()
    answer = runner.odds_statement(built.statement, built.text, exact)
    if attacker.minions and not attacker.crits:  # §11 "usually do not crit": the max is a plain hit
        said.append(host.palette.dim(f"{attacker.name} are minions: their max is a plain hit"))
        answer = answer.replace(result=without_crits(built))
    return answer, said


def attack_by(state: FightState, line: str, words: list[Token]) -> tuple[ledger.Combatant | None, list[Token]]:
    """`… by NAME`: the attacker named (else the active one), and the attack's words without it."""
    low = [w.text.lower() if not w.quoted else "" for w in words]
    if "by" not in low:
        return state.encounter.active(), words
    at = low.index("by")
    attacker = required(state, line, words, at + 1)
    named = take_name(state.encounter, words, line, at + 1)
    return attacker, words[:at] + words[at + 1 + (named[1] if named else 1):]


def without_crits(built: Built) -> Any:
    """The odds of an enemy's attack whose maximum is a plain hit (no sheet: enemies have none)."""
    from crux_cli.rulesets.crux.probability import request_odds  # the odds load when asked for (PERFORMANCE.md)

    assert isinstance(built.statement, syntax.Attack)  # an attack's roll is built as one
    return request_odds(ATTACK(built.statement, None, built.text).replace(crits=False))
