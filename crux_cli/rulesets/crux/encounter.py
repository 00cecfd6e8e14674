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
  Dazed and Dying together: 1 action (Dazed's lost action comes out of the three
  the turn would have had, before Dying's cap), and Dazed ends.
- Reactions (§6.2, "1 action from your unused actions this turn") spend an action
  left unused from your own last turn, until your next turn begins; in round 1,
  before a first turn, the actions from initiative. One ruling for every round: a
  new round refreshes the kinds used (each once per round), not the actions. At the
  start of your turn the unused ones are replaced by that turn's actions (never
  banked: banking is the older copy of the rules, seed 000).
- Help gives the ally +1 Boon on their next roll: a test, a save or an attack. An
  action that rolls nothing (move, cast, assess) leaves it waiting.
- Dying (§9.3, "1 action per turn"): a hero who drops to Dying keeps at most 1 of the
  actions they have left, at once, so a reaction is capped too. The cap follows the HP: healed
  above 0 before their turn ends (or the round, for a reaction), they get back what it took.
- Late joiners: a hero who joins in round 1 rolls initiative for their round-1
  actions; from round 2 on they roll nothing (initiative sets the actions "in the
  first round") and have 3; an enemy gets 3. The one acting keeps the turn.
- The fight is won when every enemy is down: the ledger counts damage dealt and
  taken, and who fell, for the summary.
- Attacks after the first in a turn are rushed: the second +1 Bane, the third +2.
- A minion group loses one minion to any damaging hit; an area hit that deals damage
  removes as many minions as it catches.
"""

from __future__ import annotations

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.rulesets.crux.hero import CONDITIONS

ACTIONS = ("attack", "cast", "move", "assess")
REACTIONS = {"defend": "Defend", "interpose": "Interpose", "opportunity": "Opportunity Attack", "help": "Help"}
TURN_ACTIONS = 3
MAX_COMBATANTS = 200  # in one fight (a crowd is one minion group); an encounter file with more is refused
ENEMY_CONDITIONS = CONDITIONS  # §10.3, §11: enemies carry the same conditions as heroes (one list, in hero)


class Combatant(Record):
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
    conditions: tuple[str, ...] = ()  # enemies only (§11): heroes keep theirs on their sheets
    crits: bool = True  # minions "usually do not crit" (§11): off for a group unless the GM says `crits`
    grit: int = -1  # enemies: -1 has no Grit (§11); an elite given Grit holds 0..5
    dealt: int = 0  # damage dealt and taken, for the summary when the fight is won
    taken: int = 0
    interposer: str = ""  # who Interposes for them: takes the next attack against them this round
    defended: int = 0  # Banes from Defend on the next attack against them this round
    capped: int = 0  # actions Dying's cap took this turn: given back if they stop Dying before it ends


class Encounter(Record):
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
        return self.replace(combatants=tuple(updated if c.name == updated.name else c for c in self.combatants))


class Step(Record):
    encounter: Encounter
    events: tuple[str, ...] = ()
    rushed: int = 0  # for an attack: banes from earlier attacks this turn
    boons: int = 0  # for a roll: Boons from allies' Help, now used


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _join(encounter: Encounter, combatant: Combatant) -> Encounter:
    if any(c.name.lower() == combatant.name.lower() for c in encounter.combatants):
        raise CruxError(f"'{combatant.name}' is already in the fight", hint="give each combatant its own name")
    if len(encounter.combatants) >= MAX_COMBATANTS:
        raise CruxError(f"a fight holds at most {MAX_COMBATANTS} combatants", hint="make a crowd one minion group: "
                        "minions NAME COUNT")
    return _keep_turn(encounter, encounter.replace(combatants=(*encounter.combatants, combatant)))


def _keep_turn(before: Encounter, after: Encounter) -> Encounter:
    """Heroes come before enemies, so a hero joining mid-fight must not move the turn to someone else."""
    active = before.active()
    names = [c.name for c in after.order()]
    if active is None or active.name not in names:
        return after
    return after.replace(turn=names.index(active.name))


def add_hero(encounter: Encounter, name: str, dying: bool = False, opening: int = TURN_ACTIONS) -> Step:
    """A hero joins; after initiative, with `opening` actions (from their own initiative roll)."""
    hero = Combatant(name, "hero", dying=dying, opening=opening, actions=opening if encounter.started else 0)
    late = f" with {opening} action{'s' if opening != 1 else ''}" if encounter.started else ""
    return Step(_join(encounter, hero), (f"{name} joins the fight{late}",))


def _late(encounter: Encounter, combatant: Combatant) -> Combatant:
    return combatant.replace(actions=TURN_ACTIONS) if encounter.started else combatant


def add_enemy(encounter: Encounter, name: str, hp: int, armour: str = "unarmoured", resist: bool = False,
              vuln: bool = False, attack: str = "", grit: int = -1) -> Step:
    if hp < 1:
        raise CruxError("an enemy needs at least 1 HP", hint="minions have no HP: use `minions NAME COUNT`")
    enemy = Combatant(name, "enemy", hp=hp, hp_max=hp, armour=armour, resist=resist, vuln=vuln, attack=attack,
                      grit=grit)
    gritty = f", Grit {grit}" if grit >= 0 else ""
    return Step(_join(encounter, _late(encounter, enemy)), (f"{name} ({hp} HP, {armour}{gritty}) joins the fight",))


def add_minions(encounter: Encounter, name: str, count: int, armour: str = "unarmoured", attack: str = "",
                crits: bool = False) -> Step:
    if count < 1:
        raise CruxError("a minion group needs at least one minion")
    group = Combatant(name, "enemy", minions=count, armour=armour, attack=attack, crits=crits)
    said = f"{count} {name} join the fight (minions: any damaging hit kills one" + \
        ("; they crit)" if crits else "; their max is a plain hit)")
    return Step(_join(encounter, _late(encounter, group)), (said,))


def remove(encounter: Encounter, name: str) -> Step:
    """Take a combatant out of the fight (added by mistake); if it was their turn, the next one's begins."""
    gone = encounter.find(name)
    active = encounter.active()
    rest = tuple(c for c in encounter.combatants if c.name != gone.name)
    after = _keep_turn(encounter, encounter.replace(combatants=rest))
    said = (f"{gone.name} leaves the fight",)
    if active is None or active.name != gone.name:
        return Step(after, said)
    if not any(not c.down for c in after.order()):
        return Step(after.replace(round=0, turn=0), (*said, "nobody is left to take a turn"))
    passed = next_turn(after.replace(turn=encounter.turn - 1))  # from the one before: a new round if it was last
    return Step(passed.encounter, (*said, *passed.events))


def start(encounter: Encounter, openings: dict[str, int]) -> Step:
    """Round 1 begins: heroes' actions from their initiative (`openings`), enemies' 3."""
    if not any(c.side == "hero" for c in encounter.combatants):
        raise CruxError("a fight needs at least one hero", hint="load a sheet, or add one with `hero NAME`")
    combatants = []
    for c in encounter.combatants:
        opening = openings.get(c.name, TURN_ACTIONS) if c.side == "hero" else TURN_ACTIONS
        combatants.append(c.replace(opening=opening, actions=opening, attacks=0, reactions=()))
    step = encounter.replace(combatants=tuple(combatants), round=1, turn=0)
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
    if active.dazed and active.dying:  # Dazed's lost action comes out of the turn's, before Dying's cap
        actions = min(actions, 1)
        said.append(f"{active.name} is dazed and dying: 1 action this turn (Dazed ends)")
    elif active.dazed:
        actions = max(0, actions - 1)
        said.append(f"{active.name} is dazed: loses 1 action")
    capped = 0
    if active.dying and not active.dazed:
        capped = actions - min(actions, 1)
        actions = min(actions, 1)
        said.append(f"{active.name} is dying: 1 action this turn")
    active = active.replace(actions=actions, attacks=0, dazed=False, capped=capped)
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
    if round_ != encounter.round:  # reaction kinds refresh, Defend and Interpose lapse; unused actions wait
        combatants = tuple(c.replace(reactions=(), interposer="", defended=0) for c in combatants)
    return _begin_turn(encounter.replace(combatants=combatants, turn=turn, round=round_), tuple(events))


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
    boons = active.helped if kind == "attack" else 0  # only a roll takes Help's Boon
    after = active.replace(actions=active.actions - cost, attacks=active.attacks + (kind == "attack"),
                    helped=active.helped - boons)
    events = [f"{active.name}: {kind}" + (f" ({cost} actions)" if cost > 1 else "")
              + (f", rushed {rushed}" if rushed else "") + (f", +{boons} Boon from Help" if boons else "")
              + f" · {after.actions} left"]
    return Step(encounter.with_combatant(after), tuple(events), rushed=rushed, boons=boons)


def react(encounter: Encounter, name: str, kind: str, ally: str | None = None) -> Step:
    """An off-turn reaction (§6.2): 1 unused action, each kind once per round.

    `ally` is the ally (Help, Interpose; Defend, else the reactor) or the one struck (Opportunity Attack).
    Defend puts 1 Bane on the next attack against the one defended this round; Interpose makes the
    interposer the target of the next attack against the ally this round; Help gives the ally +1 Boon on
    their next roll. The opportunity attack's roll is the caller's (`fight`).
    """
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
    target = _reaction_target(encounter, reactor, kind, ally)
    after = reactor.replace(actions=reactor.actions - 1, reactions=(*reactor.reactions, kind))
    step = encounter.with_combatant(after)
    events = [f"{reactor.name}: {REACTIONS[kind]} · {after.actions} left"]
    target = step.find(target.name)
    if kind == "help":
        step = step.with_combatant(target.replace(helped=target.helped + 1))
        events.append(f"{target.name} has +1 Boon on their next roll")
    elif kind == "defend":
        step = step.with_combatant(target.replace(defended=target.defended + 1))
        events.append(f"the next attack against {target.name} this round has +1 Bane")
    elif kind == "interpose":
        step = step.with_combatant(target.replace(interposer=reactor.name))
        events.append(f"the next attack against {target.name} this round hits {reactor.name} instead")
    return Step(step, tuple(events))


def _reaction_target(encounter: Encounter, reactor: Combatant, kind: str, other: str | None) -> Combatant:
    """Who a reaction is for (an ally: same side; Help and Interpose not oneself) or against (opportunity)."""
    if other is None:
        if kind == "defend":
            return reactor
        what = "the one it strikes" if kind == "opportunity" else "the ally it is for"
        raise CruxError(f"{REACTIONS[kind]} needs {what}", hint=f"react {reactor.name} {kind} NAME")
    target = encounter.find(other)
    if target.down:
        raise CruxError(f"{target.name} is out of the fight")
    if kind == "opportunity":
        if target.side == reactor.side:
            raise CruxError(f"{target.name} is {possessive(reactor.name)} ally: an opportunity attack strikes "
                            "the other side", hint="`damage NAME N` for anything else the GM rules")
        return target
    if target.side != reactor.side or (target.name == reactor.name and kind != "defend"):
        seed = {"help": "\"Give an ally +1 Boon on a roll\"", "interpose": "\"Move into harm's way for an ally\"",
                "defend": "\"Protect yourself or an ally from an attack\""}[kind]
        who = "themselves" if target.name == reactor.name else f"{target.name}, who is not an ally"
        raise CruxError(f"{reactor.name} cannot {kind} {who} (§6.2: {seed})",
                        hint="an ally is another combatant on the same side")
    if kind == "interpose" and target.interposer:
        raise CruxError(f"{target.interposer} already interposes for {target.name} this round")
    return target


def cover(encounter: Encounter, name: str, attacker: str) -> tuple[Step, str, int]:
    """An attack against `name` answers the Defend and Interpose waiting for them (used up by it).

    Gives the step, who the attack now hits (the interposer, if still standing), and its Banes from Defend.
    """
    target = encounter.find(name)
    if not target.interposer and not target.defended:
        return Step(encounter), target.name, 0
    events = []
    if target.defended:
        events.append(f"{target.name} is defended: +{target.defended} Bane on the attack")
    hit = target.name
    if target.interposer:
        shield = next((c for c in encounter.combatants if c.name == target.interposer), None)
        if shield is None or shield.down or shield.name == attacker:
            events.append(f"{target.interposer} can no longer interpose for {target.name}")
        else:
            hit = shield.name
            events.append(f"{shield.name} interposes: the attack on {target.name} hits {shield.name}")
    after = encounter.with_combatant(target.replace(interposer="", defended=0))
    return Step(after, tuple(events)), hit, target.defended


def take_help(encounter: Encounter, name: str) -> Step:
    """A test or save by `name` takes the Boons waiting from allies' Help (`boons` says how many)."""
    roller = encounter.find(name)
    if not roller.helped:
        return Step(encounter)
    said = f"{roller.name}: +{roller.helped} Boon from Help"
    return Step(encounter.with_combatant(roller.replace(helped=0)), (said,), boons=roller.helped)


def hit_enemy(encounter: Encounter, name: str, damage: int, caught: int = 1, by: str | None = None) -> Step:
    """Damage to an enemy (already through its armour); a minion group loses `caught` minions to it."""
    target = encounter.find(name)
    if target.side != "enemy":
        raise CruxError(f"{target.name} is a hero: their damage goes to their sheet")
    if target.down:
        raise CruxError(f"{target.name} is already down")
    encounter = count_damage(encounter, target.name, damage, by)
    target = encounter.find(name)
    if target.minions:
        killed = min(caught, target.minions) if damage > 0 else 0
        left = target.minions - killed
        after = target.replace(minions=left, down=left == 0)
        said = f"{killed} of {target.name} killed, {left} left" if killed else f"{target.name}: no damage, none killed"
        return Step(encounter.with_combatant(after), (said,))
    hp = max(0, target.hp - damage)
    after = target.replace(hp=hp, down=hp == 0)
    said = f"{target.name} takes {damage}: {hp}/{target.hp_max} HP" + (" · down" if hp == 0 else "")
    return Step(encounter.with_combatant(after), (said,))


def heal_enemy(encounter: Encounter, name: str, amount: int) -> Step:
    target = encounter.find(name)
    if target.side != "enemy" or target.minions or target.hp_max == 0:
        raise CruxError(f"{target.name} has no HP to heal", hint="minions have no HP; heroes heal on their sheets")
    hp = min(target.hp_max, target.hp + amount)
    after = target.replace(hp=hp, down=target.down and hp == 0)
    return Step(encounter.with_combatant(after), (f"{target.name} heals {hp - target.hp}: {hp}/{target.hp_max} HP",))


def count_damage(encounter: Encounter, target: str, damage: int, by: str | None) -> Encounter:
    """Add `damage` to what `target` took and what `by` (when known) dealt, for the summary."""
    hurt = encounter.find(target)
    encounter = encounter.with_combatant(hurt.replace(taken=hurt.taken + damage))
    if by is not None:
        dealer = encounter.find(by)
        encounter = encounter.with_combatant(dealer.replace(dealt=dealer.dealt + damage))
    return encounter


def set_conditions(encounter: Encounter, name: str, action: str, names: tuple[str, ...]) -> Step:
    """`cond add goblin prone`: an enemy's conditions, kept in the ledger (Dazed is its own flag)."""
    target = encounter.find(name)
    if target.side != "enemy":
        raise CruxError(f"{target.name} is a hero: their conditions are on their sheet")
    for condition in names:
        if condition not in ENEMY_CONDITIONS:
            raise CruxError(f"an enemy cannot be {condition}", hint="enemies: " + ", ".join(ENEMY_CONDITIONS))
    held = (*target.conditions, *(("dazed",) if target.dazed else ()))
    after = set(held) | set(names) if action == "add" else set(held) - set(names)
    kept = tuple(c for c in ENEMY_CONDITIONS if c in after and c != "dazed")
    updated = target.replace(conditions=kept, dazed="dazed" in after)
    said = f"{target.name}: " + (", ".join(c for c in ENEMY_CONDITIONS if c in after) or "no conditions")
    return Step(encounter.with_combatant(updated), (said,))


def enemy_conditions(combatant: Combatant) -> tuple[str, ...]:
    return (*combatant.conditions, *(("dazed",) if combatant.dazed else ()))


def spend_enemy_grit(encounter: Encounter, name: str, spent: int, gained: int) -> Encounter:
    """An elite's Grit after a roll (§3: 0..5); enemies without Grit keep none."""
    enemy = encounter.find(name)
    if enemy.grit < 0:
        return encounter
    return encounter.with_combatant(enemy.replace(grit=max(0, min(GRIT_MAX, enemy.grit - spent + gained))))


def set_hero_state(encounter: Encounter, name: str, *, dying: bool, dead: bool, dazed: bool) -> Encounter:
    """Mirror what a hero's sheet says into the ledger (the dead are out).

    A hero who drops to Dying keeps at most 1 action, at once (§9.3), reactions included.
    """
    hero = encounter.find(name)
    actions, capped = hero.actions, hero.capped
    if dying and not hero.dying:
        actions, capped = min(hero.actions, 1), capped + hero.actions - min(hero.actions, 1)
    elif hero.dying and not dying and not dead:  # healed above 0 HP: the cap follows, the actions come back
        actions, capped = hero.actions + capped, 0
    return encounter.with_combatant(hero.replace(dying=dying, down=dead, dazed=dazed, actions=actions,
                                                 capped=capped))


def won(encounter: Encounter) -> bool:
    """Every enemy is down (and there was one to beat)."""
    enemies = [c for c in encounter.combatants if c.side == "enemy"]
    return encounter.started and bool(enemies) and all(c.down for c in enemies)


def summary(encounter: Encounter, fallen: tuple[str, ...], won: bool = True) -> tuple[str, ...]:
    """The fight in a few lines: rounds, damage dealt and taken by each side, who fell."""
    heroes = [c for c in encounter.combatants if c.side == "hero"]
    rounds = f"{encounter.round} round{'s' if encounter.round != 1 else ''}"
    lines = [f"the fight is {'won' if won else 'over'} after {rounds}"]
    lines += [f"  {c.name}: dealt {c.dealt}, took {c.taken}" for c in heroes]
    enemies = [c for c in encounter.combatants if c.side == "enemy"]
    lines.append(f"  enemies: dealt {sum(c.dealt for c in enemies)}, took {sum(c.taken for c in enemies)}")
    lines.append("  fell: " + (", ".join(fallen) or "nobody"))
    return tuple(lines)
