"""HP, Wounds, Dying, rests and conditions (Crux seed §9 and §10.3), as pure functions of a `Hero`.

Each function takes the hero before and returns a `StateChange` with the hero
after and the events worth telling the player; nothing is read or written here.

Rulings where the seed is open:
- Damage that takes HP to 0 (or is taken at 0 HP while not Dying) gives 1
  Wound and Dying; the rest of that damage is lost (HP never goes below 0).
  Damage while Dying gives 2 Wounds, 3 on a crit, and leaves HP at 0.
- Wounds reaching the cap is death; Wounds are not counted past the cap.
- Healing that brings HP above 0 ends Dying (the hero is back on their feet),
  as a table would expect; it never removes Wounds. A Field Rest's Hit Dice
  heal the same way. Only a Safe Rest heals a Wound.
- The dead are not healed or rested; damage to them changes nothing.
- Frightened's Bane applies "while the source of fear is visible": crux cannot
  see, so it applies while the condition is on the sheet. Blinded's Bane on
  perception is not applied (crux cannot tell perception tests apart); nor
  are Grappled's "Banes on some tests". Dazed and Dying limit actions, not dice.
"""

from __future__ import annotations

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.rng import Roller
from crux_cli.rulesets.crux.engine import Source
from crux_cli.rulesets.crux.hero import CONDITIONS as SHEET_CONDITIONS
from crux_cli.rulesets.crux.hero import Hero

CONDITIONS = (*SHEET_CONDITIONS, "dying")  # what `cond add` takes
TRACKED = ("hp", "wounds", "dying", "dead", "hit_dice", "conditions", "grit")


class StateChange(Record):
    """What a state statement did: the hero before and after, and what happened, in words."""

    kind: str  # "damage" | "heal" | "rest field" | "rest safe" | "condition"
    before: Hero
    after: Hero
    events: tuple[str, ...] = ()
    amount: int = 0  # damage taken or HP asked to heal
    crit: bool = False
    rolls: tuple[int, ...] = ()  # Hit Dice rolled on a Field Rest

    @property
    def changes(self) -> tuple[tuple[str, object, object], ...]:
        """(field, before, after) for each tracked value that changed, for renderers."""
        return tuple(
            (name, getattr(self.before, name), getattr(self.after, name))
            for name in TRACKED
            if getattr(self.before, name) != getattr(self.after, name)
        )

    @property
    def wounds_gained(self) -> int:
        return self.after.wounds - self.before.wounds

    @property
    def hp_restored(self) -> int:
        return self.after.hp - self.before.hp


def _require_amount(amount: int, what: str) -> None:
    if amount < 0:
        raise CruxError(f"{what} cannot be negative",
                        hint=f"write a whole number of 0 or more after `{what}`")


def _refuse_dead(hero: Hero, what: str) -> None:
    if hero.dead:
        raise CruxError(f"{hero.name} is dead: {what} does not help",
                        hint="if your table brings them back, set `dead = false` and lower `wounds`")


def _add_wounds(hero: Hero, wounds: int, events: list[str]) -> Hero:
    """Wounds up to the cap; reaching it is death."""
    total = min(hero.wounds + wounds, hero.wound_cap)
    if total >= hero.wound_cap:
        events.append(f"{hero.wound_cap} Wounds: dead")
        return hero.with_changes(wounds=total, dead=True, dying=False)
    return hero.with_changes(wounds=total)


def damage(hero: Hero, amount: int, crit: bool = False) -> StateChange:
    """Seed §9: HP down to 0; at 0, a Wound and Dying; hit while Dying, 2 Wounds (3 on a crit)."""
    _require_amount(amount, "damage")
    events: list[str] = []
    if hero.dead:
        return StateChange("damage", hero, hero, ("already dead",), amount, crit)
    if amount == 0:
        return StateChange("damage", hero, hero, ("no damage",), amount, crit)
    if hero.dying:
        wounds = 3 if crit else 2
        events.append(f"damage while Dying{' (crit)' if crit else ''}: +{wounds} Wounds")
        # Dying given by hand above 0 HP (an older sheet): the damage takes the HP down as well
        after = _add_wounds(hero.with_changes(hp=max(0, hero.hp - amount)), wounds, events)
    elif amount >= hero.hp:
        events.append("dropped to 0 HP: +1 Wound, Dying")
        after = _add_wounds(hero.with_changes(hp=0, dying=True), 1, events)
    else:
        after = hero.with_changes(hp=hero.hp - amount)
    return StateChange("damage", hero, after, tuple(events), amount, crit)


def wound(hero: Hero, count: int) -> StateChange:
    """`wound N`: Wounds the GM gives straight (a failed STR save while Dying: 1, §9.3); the cap is death."""
    _require_amount(count, "wound")
    _refuse_dead(hero, "a Wound")
    events: list[str] = []
    after = _add_wounds(hero, count, events)
    return StateChange("wound", hero, after, tuple(events), count)


def after_strenuous_save(hero: Hero, attribute: str | None, outcome: str) -> Hero:
    """Seed §9.3: "Strenuous actions may force a STR save; on failure you gain 1 extra Wound" (while Dying)."""
    if attribute != "STR" or outcome != "failure" or not hero.dying or hero.dead:
        return hero
    return _add_wounds(hero, 1, [])


def _restore(hero: Hero, amount: int, events: list[str]) -> Hero:
    """HP up to the maximum; back above 0 ends Dying."""
    hp = min(hero.hp_max, hero.hp + amount)
    if hero.dying and hp > 0:
        events.append("back above 0 HP: no longer Dying")
    if hp == hero.hp_max and hero.hp + amount > hero.hp_max:
        events.append("HP full")
    return hero.with_changes(hp=hp, dying=hero.dying and hp == 0)


def heal(hero: Hero, amount: int) -> StateChange:
    _require_amount(amount, "heal")
    _refuse_dead(hero, "healing")
    events: list[str] = []
    return StateChange("heal", hero, _restore(hero, amount, events), tuple(events), amount)


def rest_field(hero: Hero, count: int, roller: Roller) -> StateChange:
    """Seed §9.4 Field Rest: spend `count` Hit Dice, each restoring what it rolls."""
    _refuse_dead(hero, "resting")
    if count < 1:
        raise CruxError("a Field Rest spends at least 1 Hit Die", hint="rest field 1")
    if count > hero.hit_dice:
        left = f"only {hero.hit_dice} Hit {'Die' if hero.hit_dice == 1 else 'Dice'} left"
        hint = f"rest field {hero.hit_dice}" if hero.hit_dice else "a Safe Rest (`rest safe`) restores them"
        raise CruxError(f"cannot spend {count} Hit {'Die' if count == 1 else 'Dice'}: {left}", hint=hint)
    if hero.hp >= hero.hp_max:  # §9.4 "Spend Hit Dice to restore HP": at full HP there is none to restore
        raise CruxError(f"{hero.name} is at full HP ({hero.hp}/{hero.hp_max}): a Hit Die would restore nothing",
                        hint="keep the Hit Dice for when HP is down")
    rolls = tuple(roller.dice(count, hero.hit_die))
    events = [f"spent {count} Hit {'Die' if count == 1 else 'Dice'} (d{hero.hit_die}): {sum(rolls)} HP"]
    after = _restore(hero.with_changes(hit_dice=hero.hit_dice - count), sum(rolls), events)
    return StateChange("rest field", hero, after, tuple(events), sum(rolls), rolls=rolls)


def rest_safe(hero: Hero) -> StateChange:
    """Seed §9.4 Safe Rest: all HP, all Hit Dice, and 1 Wound healed."""
    _refuse_dead(hero, "resting")
    events = ["all HP and Hit Dice restored"]
    if hero.wounds:
        events.append("1 Wound healed")
    if hero.dying:
        events.append("no longer Dying")
    after = hero.with_changes(hp=hero.hp_max, hit_dice=hero.hit_dice_max,
                              wounds=max(0, hero.wounds - 1), dying=False)
    return StateChange("rest safe", hero, after, tuple(events))


def condition_name(name: str) -> str:
    """The seed's name for a condition, or a `CruxError` suggesting the nearest one."""
    key = name.strip().lower()
    if key in CONDITIONS:
        return key
    import difflib  # here: only a misspelt condition needs it, and a roll on a sheet imports this module

    close = difflib.get_close_matches(key, CONDITIONS, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise CruxError(f"unknown condition {name!r}", hint=hint + "conditions: " + ", ".join(CONDITIONS))


def add_condition(hero: Hero, name: str) -> StateChange:
    condition = condition_name(name)
    if has_condition(hero, condition):
        return StateChange("condition", hero, hero, (f"already {condition}",))
    if condition == "dying":  # §9.2: Dying comes with HP at 0 ("Set HP to 0. … Gain the Dying condition.")
        after = hero.with_changes(dying=True, hp=0)
        if hero.hp:
            return StateChange("condition", hero, after, ("now dying: HP set to 0 (Dying is at 0 HP)",))
    else:
        after = hero.with_changes(conditions=(*hero.conditions, condition))
    return StateChange("condition", hero, after, (f"now {condition}",))


def remove_condition(hero: Hero, name: str) -> StateChange:
    condition = condition_name(name)
    if not has_condition(hero, condition):
        return StateChange("condition", hero, hero, (f"was not {condition}",))
    if condition == "dying":
        after = hero.with_changes(dying=False)
    else:
        after = hero.with_changes(conditions=tuple(c for c in hero.conditions if c != condition))
    return StateChange("condition", hero, after, (f"no longer {condition}",))


def has_condition(hero: Hero, condition: str) -> bool:
    return hero.dying if condition == "dying" else hero.has(condition)


def condition_sources(hero: Hero, kind: str, attribute: str | None = None,
                      melee: bool = True) -> tuple[Source, ...]:
    """The Banes the hero's conditions put on a roll (seed §10.3), each named after its condition.

    `kind` is "test", "save", "initiative" or "attack"; `attribute` the tested
    or saving attribute; `melee` whether an attack is made in melee (Prone).
    """
    attack = kind == "attack"
    banes = {
        "frightened": True,
        "blinded": attack,
        "restrained": attack or (kind == "save" and attribute == "DEX"),
        "prone": attack and melee,
    }
    return tuple(Source(what=name, net=-1) for name, applies in banes.items() if applies and hero.has(name))
