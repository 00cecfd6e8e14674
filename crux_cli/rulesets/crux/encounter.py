"""The encounter ledger (Crux seed §5, §6, §7.3, §11): turn order, actions, reactions,
rushed attacks, and damage to enemies and minion groups.

Pure: each step takes an `Encounter` and returns a `Step` with the new encounter and
what happened in words. Rolling dice and writing heroes' sheets is the caller's job;
this module keeps the books.

Rulings where the seed is open (documented in grammar/encounters.md):
- Turn order: heroes in the order they joined (table order), then enemies; ties are
  not possible because order is fixed, which is the seed's "heroes before enemies".
- Actions are set when initiative is rolled (round 1: 3/2/1 from the roll, 3 for
  enemies and for ambushing heroes) and at the start of each later turn (3). Dazed
  takes 1 from the next turn's actions and then ends; Dying allows 1 action a turn.
- Reactions are paid from the actions a combatant has left this round (round 1:
  from initiative, even before their first turn), never on their own turn, each
  kind once per round. Unused actions expire when the round ends: banking them into
  the next round is the older copy of the rules (seed 000), at the GM's discretion,
  not the current one. Help gives the ally +1 Boon on their next roll.
- Attacks after the first in a turn are rushed: the second +1 Bane, the third +2.
- A minion group loses one minion to any damaging hit; an area hit that deals damage
  removes as many minions as it catches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from crux_cli.core.errors import CruxError

ACTIONS = ("attack", "cast", "move", "assess")
REACTIONS = {"defend": "Defend", "interpose": "Interpose", "opportunity": "Opportunity Attack", "help": "Help"}
TURN_ACTIONS = 3


@dataclass(frozen=True)
class Combatant:
    name: str
    side: str  # "hero" | "enemy"
    hp: int = 0  # enemies only: heroes keep HP on their sheets
    hp_max: int = 0
    armour: str = "unarmoured"
    resist: bool = False
    vuln: bool = False
    minions: int = 0  # a minion group: how many still stand (0 when not a group)
    attack: str = ""  # an enemy's damage dice, e.g. "d6+1" (heroes attack with their sheet's die)
    opening: int = TURN_ACTIONS  # actions for round 1, from initiative
    actions: int = 0  # actions left
    attacks: int = 0  # attacks made this turn
    reactions: tuple[str, ...] = ()  # kinds used this round
    helped: int = 0  # Boons waiting from allies' Help
    dazed: bool = False
    dying: bool = False
    down: bool = False  # out of the fight: dead, at 0 HP, or a group wiped out


@dataclass(frozen=True)
class Encounter:
    combatants: tuple[Combatant, ...] = ()
    round: int = 0  # 0 until initiative is rolled
    turn: int = 0  # index into order() of whoever acts now

    def order(self) -> tuple[Combatant, ...]:
        heroes = tuple(c for c in self.combatants if c.side == "hero")
        return heroes + tuple(c for c in self.combatants if c.side == "enemy")

    @property
    def started(self) -> bool:
        return self.round > 0

    def active(self) -> Combatant | None:
        order = self.order()
        return order[self.turn] if self.started and order else None

    def find(self, name: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.name.lower() == name.lower():
                return combatant
        names = ", ".join(c.name for c in self.combatants) or "nobody yet"
        raise CruxError(f"there is no '{name}' in this fight", hint=f"in the fight: {names}")

    def with_combatant(self, updated: Combatant) -> Encounter:
        return replace(self, combatants=tuple(updated if c.name == updated.name else c for c in self.combatants))


@dataclass(frozen=True)
class Step:
    encounter: Encounter
    events: tuple[str, ...] = ()
    rushed: int = 0  # for an attack: banes from earlier attacks this turn
    boons: int = 0  # for a roll: Boons from allies' Help, now used


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _join(encounter: Encounter, combatant: Combatant) -> Encounter:
    if any(c.name.lower() == combatant.name.lower() for c in encounter.combatants):
        raise CruxError(f"'{combatant.name}' is already in the fight", hint="give each combatant its own name")
    return replace(encounter, combatants=(*encounter.combatants, combatant))


def add_hero(encounter: Encounter, name: str, dying: bool = False) -> Step:
    step = _join(encounter, Combatant(name, "hero", dying=dying))
    return Step(step, (f"{name} joins the fight",))


def add_enemy(encounter: Encounter, name: str, hp: int, armour: str = "unarmoured", resist: bool = False,
              vuln: bool = False, attack: str = "") -> Step:
    if hp < 1:
        raise CruxError("an enemy needs at least 1 HP", hint="minions have no HP: use `minions NAME COUNT`")
    enemy = Combatant(name, "enemy", hp=hp, hp_max=hp, armour=armour, resist=resist, vuln=vuln, attack=attack)
    return Step(_join(encounter, enemy), (f"{name} ({hp} HP, {armour}) joins the fight",))


def add_minions(encounter: Encounter, name: str, count: int, armour: str = "unarmoured", attack: str = "") -> Step:
    if count < 1:
        raise CruxError("a minion group needs at least one minion")
    group = Combatant(name, "enemy", minions=count, armour=armour, attack=attack)
    return Step(_join(encounter, group), (f"{count} {name} join the fight (minions: any damaging hit kills one)",))


def start(encounter: Encounter, openings: dict[str, int]) -> Step:
    """Round 1 begins: heroes' actions from their initiative (`openings`), enemies' 3."""
    if not any(c.side == "hero" for c in encounter.combatants):
        raise CruxError("a fight needs at least one hero", hint="load a sheet, or add one with `hero NAME`")
    combatants = []
    for c in encounter.combatants:
        opening = openings.get(c.name, TURN_ACTIONS) if c.side == "hero" else TURN_ACTIONS
        combatants.append(replace(c, opening=opening, actions=opening, attacks=0, reactions=()))
    step = replace(encounter, combatants=tuple(combatants), round=1, turn=0)
    return _begin_turn(step, ("round 1",))


def _require_started(encounter: Encounter) -> Combatant:
    active = encounter.active()
    if active is None:
        raise CruxError("the fight has not started", hint="roll initiative with `init` first")
    return active


def _begin_turn(encounter: Encounter, events: tuple[str, ...] = ()) -> Step:
    """The active combatant's turn starts: fresh actions after round 1, less Dazed, capped while Dying."""
    active = encounter.active()
    assert active is not None
    said = list(events)
    actions = active.actions if encounter.round == 1 else TURN_ACTIONS
    if active.dazed:
        actions = max(0, actions - 1)
        said.append(f"{active.name} is dazed: loses 1 action")
    if active.dying:
        actions = min(actions, 1)
        said.append(f"{active.name} is dying: 1 action this turn")
    active = replace(active, actions=actions, attacks=0, dazed=False)
    said.append(f"{possessive(active.name)} turn: {actions} action{'s' if actions != 1 else ''}")
    return Step(encounter.with_combatant(active), tuple(said))


def next_turn(encounter: Encounter) -> Step:
    """Pass to the next combatant still standing; after the last, a new round (reactions refresh)."""
    _require_started(encounter)
    order = encounter.order()
    turn, round_ = encounter.turn, encounter.round
    events: list[str] = []
    for _ in range(len(order)):
        turn += 1
        if turn >= len(order):
            turn, round_ = 0, round_ + 1
            events.append(f"round {round_}")
        if not order[turn].down:
            break
    else:
        raise CruxError("nobody is left standing to take a turn")
    combatants = encounter.combatants
    if round_ != encounter.round:  # unused actions expire; reactions refresh
        combatants = tuple(replace(c, reactions=(), actions=0) for c in combatants)
    return _begin_turn(replace(encounter, combatants=combatants, turn=turn, round=round_), tuple(events))


def act(encounter: Encounter, kind: str, cost: int = 1) -> Step:
    """The active combatant spends actions; an attack counts towards rushing the next one."""
    active = _require_started(encounter)
    if kind not in ACTIONS:
        raise CruxError(f"'{kind}' is not an action", hint="actions are: " + ", ".join(ACTIONS))
    if kind == "cast" and not 1 <= cost <= 3:
        raise CruxError("a spell costs 1, 2 or 3 actions")
    if cost > active.actions:
        why = " (Dying: one action a turn)" if active.dying else ""
        left = f"{active.actions} action{'s' if active.actions != 1 else ''}"
        raise CruxError(f"{active.name} has {left} left{why}; {kind} needs {cost}",
                        hint="end the turn with `next`")
    rushed = active.attacks if kind == "attack" else 0
    boons = active.helped
    after = replace(active, actions=active.actions - cost, attacks=active.attacks + (kind == "attack"), helped=0)
    events = [f"{active.name}: {kind}" + (f" ({cost} actions)" if cost > 1 else "")
              + (f", rushed {rushed}" if rushed else "") + (f", +{boons} Boon from Help" if boons else "")
              + f" · {after.actions} left"]
    return Step(encounter.with_combatant(after), tuple(events), rushed=rushed, boons=boons)


def react(encounter: Encounter, name: str, kind: str, ally: str | None = None) -> Step:
    """An off-turn reaction: 1 unused action, each kind once per round."""
    active = _require_started(encounter)
    reactor = encounter.find(name)
    kind = kind.lower()
    if kind not in REACTIONS:
        raise CruxError(f"'{kind}' is not a reaction", hint="reactions are: " + ", ".join(REACTIONS))
    if reactor.down:
        raise CruxError(f"{reactor.name} is out of the fight")
    if reactor.name == active.name:
        raise CruxError(f"{reactor.name} cannot react on their own turn", hint="reactions happen on others' turns")
    if kind in reactor.reactions:
        raise CruxError(f"{reactor.name} has used {REACTIONS[kind]} this round", hint="each reaction once per round")
    if reactor.actions < 1:
        raise CruxError(f"{reactor.name} has no actions left to react with")
    after = replace(reactor, actions=reactor.actions - 1, reactions=(*reactor.reactions, kind))
    step = encounter.with_combatant(after)
    events = [f"{reactor.name}: {REACTIONS[kind]} · {after.actions} left"]
    if kind == "help":
        if ally is None:
            raise CruxError("Help needs the ally it helps", hint=f"react {reactor.name} help ALLY")
        target = step.find(ally)
        step = step.with_combatant(replace(target, helped=target.helped + 1))
        events.append(f"{target.name} has +1 Boon on their next roll")
    return Step(step, tuple(events))


def hit_enemy(encounter: Encounter, name: str, damage: int, caught: int = 1) -> Step:
    """Damage to an enemy (already through its armour); a minion group loses `caught` minions to it."""
    target = encounter.find(name)
    if target.side != "enemy":
        raise CruxError(f"{target.name} is a hero: their damage goes to their sheet")
    if target.down:
        raise CruxError(f"{target.name} is already down")
    if target.minions:
        killed = min(caught, target.minions) if damage > 0 else 0
        left = target.minions - killed
        after = replace(target, minions=left, down=left == 0)
        said = f"{killed} of {target.name} killed, {left} left" if killed else f"{target.name}: no damage, none killed"
        return Step(encounter.with_combatant(after), (said,))
    hp = max(0, target.hp - damage)
    after = replace(target, hp=hp, down=hp == 0)
    said = f"{target.name} takes {damage}: {hp}/{target.hp_max} HP" + (" · down" if hp == 0 else "")
    return Step(encounter.with_combatant(after), (said,))


def set_hero_state(encounter: Encounter, name: str, *, dying: bool, dead: bool, dazed: bool) -> Encounter:
    """Mirror what a hero's sheet says into the ledger (Dying limits actions; the dead are out)."""
    hero = encounter.find(name)
    return encounter.with_combatant(replace(hero, dying=dying, down=dead, dazed=dazed))
