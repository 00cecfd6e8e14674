"""Crux statements → engine requests: the net of Boons and Banes with where each came from,
the hero's ratings, save types, attack die and Grit, and the attack's target.

One compile step per kind of statement (`TEST`, `SAVE`, `INITIATIVE`, `ATTACK`), each a row's in the
rule set's table (`ruleset.STATEMENTS`); `STATEMENTS.request(node, hero, text)` compiles any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_DICE, MAX_SIDES, rolling
from crux_cli.core.memo import by_identities, by_identity
from crux_cli.rulesets.crux import syntax
from crux_cli.rulesets.crux.engine import AttackRequest, PoolRequest, Source

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.hero import Hero

Node = TypeVar("Node")  # a statement's syntax tree
Request = TypeVar("Request", PoolRequest, AttackRequest)


def modifier_sources(mods: syntax.Modifiers) -> list[Source]:
    sources = []
    if mods.boons:
        sources.append(Source("boons", mods.boons))
    if mods.banes:
        sources.append(Source("banes", -mods.banes))
    if mods.grit:
        sources.append(Source("grit", 1))
    if mods.help:
        sources.append(Source("help", 1))
    return sources


def rating_source(hero: Hero | None, attribute: str | None) -> list[Source]:
    if hero is None or attribute is None:
        return []
    rating = hero.attribute(attribute).rating
    return [Source(f"{attribute} rating", rating)] if rating else []


def grit_before(hero: Hero | None, spend: bool, text: str) -> int | None:
    """The hero's Grit once this roll's Steady the Roll is paid; refuse spending Grit not there."""
    if hero is None:
        return None
    if spend and hero.grit < 1:
        raise CruxError(f"{hero.name} has no Grit to spend", text=text, position=text.lower().find("grit"),
                        hint="Grit is earned when a kept die shows 1; roll without 'grit'")
    return hero.grit - 1 if spend else hero.grit


def condition_sources(hero: Hero | None, kind: str, attribute: str | None, melee: bool) -> list[Source]:
    """Banes the hero's conditions put on this roll (seed §10.3), named after the condition."""
    if hero is None or not hero.conditions:  # none: the rules of conditions are not even loaded
        return []
    from crux_cli.rulesets.crux.wounds import condition_sources as from_conditions

    return list(from_conditions(hero, kind, attribute, melee))


def refuse_the_dead(hero: Hero | None, text: str) -> None:
    """The dead roll nothing and earn no Grit (seed §9.2: "6 Wounds = death")."""
    if hero is not None and hero.dead:
        raise CruxError(f"{hero.name} is dead: the dead roll no dice", text=text, position=0,
                        hint="if your table brings them back, set `dead = false` and lower `wounds`")


def stance_from_sheet(node: syntax.Save, hero: Hero | None, text: str) -> str | None:
    """The save's stance: the sheet's save types, and an adv/dis typed only where it agrees with them (§4)."""
    if hero is None:
        return node.stance
    on_sheet = "adv" if hero.advantaged_save == node.attribute else \
        "dis" if hero.disadvantaged_save == node.attribute else None
    typed = node.stance
    other = hero.advantaged_save if typed == "adv" else hero.disadvantaged_save
    if typed and on_sheet != typed and (on_sheet is not None or other is not None):
        which = "advantaged" if typed == "adv" else "disadvantaged"
        where = f"{node.attribute} is {hero.name}'s {'advantaged' if on_sheet == 'adv' else 'disadvantaged'} save" \
            if on_sheet else f"{hero.name}'s {which} save is {other}"
        raise CruxError(f"'{typed}' contradicts the sheet: {where}", text=text,
                        position=max(0, text.lower().find(f" {typed}") + 1),
                        hint="the sheet sets the save types (one advantaged, one disadvantaged); "
                             "situational help is +1b")
    return on_sheet or typed


def test_request(node: syntax.Test, hero: Hero | None, text: str) -> PoolRequest:
    if hero is None:  # no rating, no conditions, no Grit to check: a batch without a sheet, every new line
        mods = node.mods
        return PoolRequest("test", node.attribute, tuple(modifier_sources(mods)), mods.grit, None,
                           position=mods.position, effect=mods.effect)
    sources = rating_source(hero, node.attribute) + modifier_sources(node.mods)
    sources += condition_sources(hero, "test", node.attribute, False)
    return PoolRequest("test", node.attribute, tuple(sources), node.mods.grit,
                       grit_before(hero, node.mods.grit, text), position=node.mods.position,
                       effect=node.mods.effect)


def save_request(node: syntax.Save, hero: Hero | None, text: str) -> PoolRequest:
    stance = stance_from_sheet(node, hero, text)
    sources = rating_source(hero, node.attribute) if hero is not None else []
    if stance:
        sources.append(Source(stance, 1 if stance == "adv" else -1))
    if node.vs_rushed:
        sources.append(Source("vs rushed", 1))
    sources += modifier_sources(node.mods)
    if hero is not None:  # without one, no conditions nor Grit to check: a batch without a sheet, every new line
        sources += condition_sources(hero, "save", node.attribute, False)
    return PoolRequest("save", node.attribute, tuple(sources), node.mods.grit,
                       grit_before(hero, node.mods.grit, text) if hero is not None else None, stance=stance,
                       vs_rushed=node.vs_rushed,
                       position=node.mods.position, effect=node.mods.effect)


def initiative_request(node: syntax.Initiative, hero: Hero | None, text: str) -> PoolRequest:
    if node.ambush and node.mods.grit:
        raise CruxError("an ambush rolls nothing: there is no roll to spend Grit on", text=text,
                        position=text.lower().find("grit"), hint="init ambush (3 actions, no roll)")
    if node.ambush and (node.mods.boons or node.mods.banes or node.mods.help):
        raise CruxError("an ambush rolls nothing: Boons and Banes have no dice to change", text=text,
                        position=text.lower().find("ambush"),
                        hint="init ambush (every hero counts as 5–6: 3 actions), or init +2b to roll with Boons")
    if hero is None:  # no rating, no conditions, no Grit to check
        return PoolRequest("initiative", "DEX", tuple(modifier_sources(node.mods)), node.mods.grit, None,
                           ambush=node.ambush, position=node.mods.position, effect=node.mods.effect)
    sources = rating_source(hero, "DEX") + modifier_sources(node.mods)
    sources += condition_sources(hero, "initiative", "DEX", False)
    return PoolRequest("initiative", "DEX", tuple(sources), node.mods.grit,
                       grit_before(hero, node.mods.grit, text), ambush=node.ambush,
                       position=node.mods.position, effect=node.mods.effect)


def attack_pool(node: syntax.Attack, hero: Hero | None, text: str) -> syntax.Pool:
    if node.pool is not None:
        pool = node.pool
    elif hero is not None:
        pool = syntax.Pool(hero.attack_count, hero.attack_sides, 0)
    else:
        raise CruxError("the attack has no damage dice", text=text, position=len(text.split()[0]),
                        hint="give the pool (atk d8, atk 2d6+1), or load a sheet with --sheet")
    if pool.sides < 2:
        raise CruxError(f"an attack die needs at least 2 sides, not d{pool.sides}", text=text, position=pool.pos,
                        hint="a d1 could neither miss (on a 1) nor crit (on its maximum): use d2 or more")
    if pool.count < 1:
        raise CruxError("an attack rolls at least one die", text=text, position=pool.pos)
    if pool.sides > MAX_SIDES and rolling("sides"):
        raise LimitError(f"a die may have at most {MAX_SIDES:,} sides", text=text, position=pool.pos)
    if pool.count > MAX_DICE and rolling("dice"):
        raise LimitError(f"{pool.count:,} dice is more than the {MAX_DICE:,} a statement may roll",
                         text=text, position=pool.pos)
    return pool


def attack_flat(node: syntax.Attack, hero: Hero | None, text: str) -> int:
    bonuses = node.bonuses
    if node.pool is None and not bonuses and hero is not None and hero.attack_attribute:
        bonuses = (syntax.AttributeBonus(1, hero.attack_attribute),)  # the sheet's weapon keys off it
    if bonuses and hero is None:
        raise CruxError(f"'{bonuses[0]}' needs a character sheet to know the modifier", text=text,
                        position=bonuses[0].pos, hint="load a sheet with --sheet, or write the number (+3)")
    return node.flat + sum(b.sign * hero.attribute(b.attribute).modifier for b in bonuses) if hero \
        else node.flat


def attack_request(node: syntax.Attack, hero: Hero | None, text: str) -> AttackRequest:
    pool = attack_pool(node, hero, text)
    sources = modifier_sources(node.mods)
    if node.rushed:
        sources.append(Source("rushed", -node.rushed))
    sources += condition_sources(hero, "attack", None, not node.ranged)
    return AttackRequest(pool.count, pool.sides, tuple(sources), attack_flat(node, hero, text), node.armour,
                         node.resist, node.vuln, node.minion, node.mods.grit,
                         grit_before(hero, node.mods.grit, text), node.mods.position, node.mods.effect)


def compiled(make: Callable[[Node, Hero | None, str], Request]) -> Callable[[Node, Hero | None, str], Request]:
    """`make` as the compile step of a row of the rule set's table: the dead refused first, and without a
    hero remembered per syntax tree.

    Without a hero a request depends on the statement alone (the text only places an error), and the syntax
    tree of a repeated statement is the same object (running.read caches them): a batch compiles each once.
    """

    def heroless(node: Node, text: str) -> Request:
        return make(node, None, text)

    remembered = by_identity(heroless)

    def with_hero(node: Node, hero: Hero, text: str) -> Request:
        refuse_the_dead(hero, text)
        return make(node, hero, text)

    # With a hero, the request depends on the tree and the hero, both immutable: a sheet's hero is the same
    # object while its file is unchanged (state.store `interned`), so a batch on a sheet compiles each
    # statement once per state of the hero, and the echo memo (render.py) finds the very request again.
    remembered_with_hero = by_identities(with_hero)
    last = f"_compiled_with_{make.__name__}"  # the tree's last hero and its request, in the tree's own __dict__

    def compile_request(node: Node, hero: Hero | None, text: str) -> Request:
        if hero is None:
            return remembered(node, text)
        # a batch on a sheet gives a statement the same hero line after line (its Grit changes seldom): the last one
        # is kept on the tree, and asked first (PERFORMANCE.md, "A change on a held sheet, met again")
        own = node.__dict__
        kept = own.get(last)
        if kept is not None and kept[0] is hero:
            request: Request = kept[1]
            return request
        request = remembered_with_hero(node, hero, text)
        own[last] = (hero, request)
        return request

    compile_request.__name__ = compile_request.__qualname__ = make.__name__
    return compile_request


TEST = compiled(test_request)
SAVE = compiled(save_request)
INITIATIVE = compiled(initiative_request)
ATTACK = compiled(attack_request)
