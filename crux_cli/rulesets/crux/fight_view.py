"""What a fight shows: `status`, the toolbar's part, and what Tab offers in a fight line.

Each reads the fight's value (`FightState`) and `hero_of`, which gives a hero's values as they
stand (a sheet read afresh, or the hero held in memory); none changes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from crux_cli.core import columns
from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import ATTRIBUTES
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux.fight_line import NAMED, name_matches, take_name
from crux_cli.rulesets.crux.fight_words import RENAMED, Token, tokens

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.fight_state import FightState
    from crux_cli.rulesets.crux.hero import Hero

HeroOf = Callable[[str], "Hero | None"]  # a hero's values now, by name (None: not to be read)


class Completions(NamedTuple):
    """What Tab offers in a fight line: candidates (word, what it is) for the word being typed."""

    word: str
    candidates: tuple[tuple[str, str], ...] = ()
    paths: bool = False  # files too


# -- status ------------------------------------------------------------------------------------------


def status_lines(state: FightState, hero_of: HeroOf) -> list[str]:
    """The round and whose turn, then a line for each combatant in turn order."""
    encounter = state.encounter
    active = encounter.active()
    head = f"round {encounter.round}, {ledger.possessive(active.name)} turn" if active else \
        "initiative not rolled yet"
    out = [head]
    width = max([12, *(columns.width(c.name) for c in encounter.combatants)])  # as a terminal draws them
    for c in encounter.order():
        mark = "▶" if active is not None and c.name == active.name else " "
        out.append(f"{mark} {status_line(c, hero_of, width)}")
    return out


def status_line(c: ledger.Combatant, hero_of: HeroOf, width: int = 12) -> str:
    reactions = f" · reacted: {', '.join(c.reactions)}" if c.reactions else ""
    helped = f" · +{c.helped} Boon waiting" if c.helped else ""
    helped += f" · defended (+{c.defended} Bane on the next attack)" if c.defended else ""
    helped += f" · {c.interposer} interposes" if c.interposer else ""
    state = "down" if c.down else f"{c.actions} action{'s' if c.actions != 1 else ''}"
    return f"{columns.ljust(c.name, width)} {state:10} {health(c, hero_of)}{reactions}{helped}"


def health(c: ledger.Combatant, hero_of: HeroOf) -> str:
    if c.side == "hero":
        hero = hero_of(c.name)
        if hero is None:
            return ""
        return (f"HP {hero.hp}/{hero.hp_max} · Wounds {hero.wounds}/{hero.wound_cap} · Grit {hero.grit}"
                + (" · dying" if hero.dying else "") + (" · dead" if hero.dead else "")
                + (" · " + ", ".join(hero.conditions) if hero.conditions else ""))
    held = ledger.enemy_conditions(c)
    grit = f" · Grit {c.grit}" if c.grit >= 0 else ""
    base = f"{c.minions} standing" if c.minions or c.hp_max == 0 else f"HP {c.hp}/{c.hp_max} · {c.armour}"
    base += "".join(f" · {flag}" for flag, on in (("resist", c.resist), ("vuln", c.vuln)) if on)
    return base + grit + (" · " + ", ".join(held) if held else "")


def health_short(c: ledger.Combatant, hero_of: HeroOf) -> str:
    if c.side == "enemy":
        return f"{c.minions} standing" if c.minions else f"HP {c.hp}/{c.hp_max}"
    hero = hero_of(c.name)
    return f"HP {hero.hp}/{hero.hp_max}" + (" · dying" if hero.dying else "") if hero is not None else "hero"


def conditions_of(combatant: ledger.Combatant, hero_of: HeroOf) -> tuple[str, ...]:
    if combatant.side == "enemy":
        return ledger.enemy_conditions(combatant)
    hero = hero_of(combatant.name)
    return hero.conditions if hero is not None else ()


# -- the toolbar -------------------------------------------------------------------------------------


def toolbar(state: FightState, hero_of: HeroOf) -> list[tuple[int, str, str]]:
    """(rank, key, value) parts for the toolbar: the active combatant first; a higher rank goes first
    when the terminal is narrow."""
    if state.over:
        return [(1, "fight", "won")]
    active = state.encounter.active()
    if active is None:
        return [(1, "fight", f"setting up ({len(state.encounter.combatants)} in)")]
    actions = f"{active.actions} action{'s' if active.actions != 1 else ''}"
    parts = [(0, "▶", active.name), (0, "", actions), (1, "", health_short(active, hero_of))]
    held = conditions_of(active, hero_of)
    if held:
        parts.append((2, "", ", ".join(held)))
    parts.append((3, "round", str(state.encounter.round)))
    return parts


# -- completion --------------------------------------------------------------------------------------


def complete(text: str, state: FightState, hero_of: HeroOf) -> Completions | None:
    """Names, reaction kinds and files for a fight line being typed; None when the line is not ours."""
    parts = tokens(text)
    if not parts:
        return None
    last = parts[-1]
    raw = text[last.at:]
    open_quote = last.quoted and not (len(raw) > 1 and raw.rstrip()[-1:] == raw[0])
    typing = not text[-1].isspace() or open_quote
    typed, before = (raw, parts[:-1]) if typing else ("", parts)
    if not before:
        return None
    word = RENAMED.get(before[0].text.lower(), before[0].text.lower())
    after = before[1:]
    if word in ("hero", "load") and not after:
        return Completions(typed, (), True)
    if word == "react" and after:
        return Completions(typed, reaction_candidates(state, hero_of, text, after, typed))
    if word == "cond" and len(after) < 2:
        if not after:
            return Completions(typed, tuple(p for p in (("add", ""), ("remove", "")) if p[0].startswith(typed.lower())))
        return Completions(typed, name_candidates(state, hero_of, typed))
    if word == "atk" and not after:
        return Completions(typed, target_candidates(state, hero_of, typed))
    if word in NAMED and not after:
        return Completions(typed, name_candidates(state, hero_of, typed), paths=word == "save")
    if word == "save" and only_a_name(state, text, after):  # `save Bram ` → the attribute
        return Completions(typed, tuple((a, "") for a in ATTRIBUTES if a.lower().startswith(typed.lower())))
    return None


def only_a_name(state: FightState, text: str, words: list[Token]) -> bool:
    try:
        taken = take_name(state.encounter, words, text)
    except CruxError:
        return False
    return taken is not None and taken[1] == len(words)


def reaction_candidates(state: FightState, hero_of: HeroOf, text: str, after: list[Token],
                        typed: str) -> tuple[tuple[str, str], ...]:
    """After `react NAME`: the kinds of reaction; after `react NAME help|defend|interpose`: the allies
    standing (Defend: oneself too); after `react NAME opportunity`: the other side, standing."""
    try:
        taken = take_name(state.encounter, after, text)
    except CruxError:
        return ()
    if taken is not None and len(after) == taken[1]:
        return tuple((k, v) for k, v in ledger.REACTIONS.items() if k.startswith(typed.lower()))
    kind = after[-1].text.lower() if taken is not None and len(after) == taken[1] + 1 else ""
    if kind not in ledger.REACTIONS:
        return ()
    reactor = taken[0] if taken is not None else None
    assert reactor is not None
    fits = {c.name for c in state.encounter.combatants if not c.down and (
        c.side != reactor.side if kind == "opportunity" else
        c.side == reactor.side and (kind == "defend" or c.name != reactor.name))}  # §6.2: allies; the other side
    return tuple(p for p in name_candidates(state, hero_of, typed) if p[0].strip('"') in fits)


def name_candidates(state: FightState, hero_of: HeroOf, typed: str = "") -> tuple[tuple[str, str], ...]:
    """Combatants whose name `typed` begins (or a word of it), as Tab offers them: standing ones first,
    with their HP; names with spaces quoted."""
    key = typed.strip("\"'")
    encounter = state.encounter
    found = name_matches(encounter, key) if key else list(encounter.order())
    if key and not found:
        return ()
    order = sorted((c for c in encounter.order() if c in found), key=lambda c: c.down)
    return tuple((f'"{c.name}"' if " " in c.name else c.name, "down" if c.down else health_short(c, hero_of))
                 for c in order)


def target_candidates(state: FightState, hero_of: HeroOf, typed: str = "") -> tuple[tuple[str, str], ...]:
    """After `atk`: whom the active combatant may strike, the other side first (never the attacker)."""
    active = state.encounter.active()
    if active is None:
        return name_candidates(state, hero_of, typed)
    side = {c.name: c.side == active.side for c in state.encounter.combatants}
    found = [p for p in name_candidates(state, hero_of, typed) if p[0].strip('"') != active.name]
    return tuple(sorted(found, key=lambda p: (p[1] == "down", side.get(p[0].strip('"'), False))))
