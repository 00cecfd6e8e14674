"""The fight words of the Crux rules: each takes the fight as a value and gives the next one.

`run(line, state, host)` answers one fight line (one `fight_words.claims` took). For
that one line a `Fight` holds the heroes' runners (each answered by a runner of its
own: a sheet file, or a hero held in memory, whose values the state carries), rolls
through the same runners and renderers as every other statement, keeps the books in
the ledger of `encounter`, and gives back a new `FightState`; the state handed in is
never changed, so a word refused half-way leaves the fight as it was. The session
lends runners, rendering and files through `core.ruleset.FightHost`. The line grammar
(tokens, names) is in `fight_line`; what a fight shows (status, toolbar, Tab) in
`fight_view`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import fight_view as view
from crux_cli.rulesets.crux.encounter import possessive as possessive_of
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.rulesets.crux.fight_line import (
    ARMOUR,
    POOL,
    check_name,
    is_count,
    shadowed,
    take_name,
    unknown,
)
from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
from crux_cli.rulesets.crux.fight_words import ALWAYS, RENAMED, ROLLS, FightWord, Token, first, is_file, tokens

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightRunner
    from crux_cli.rulesets.crux.hero import Hero


def run(read: FightWord, state: FightState | None, host: FightHost) -> tuple[FightState | None, list[str]]:
    """Answer a fight line: the fight afterwards (None once it ends), and what to say."""
    word, line = read.head.lower(), read.line
    if word == "load" and (state is None or state.over):  # resuming a saved fight
        state = FightState()
    elif word in ALWAYS:
        state = state or FightState()
    elif state is None:
        raise CruxError("no fight is running", text=line, position=0,
                        hint="`fight` starts one; `load FILE.toml` resumes a saved one")
    fight = Fight(host, state)
    said = fight.handle(line)
    return (None if fight.ended else fight.state()), said


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
    word, _ = first(text)
    word = RENAMED.get(word, word)
    if word == "atk":
        return Fight(host, state).attack_odds(text, exact)
    if word in ROLLS and (state.encounter.started or _names(text, state)):
        return Fight(host, state).roll_odds(text, exact)
    return None


def _names(text: str, state: FightState) -> bool:
    from crux_cli.rulesets.crux.fight_words import names_someone

    return names_someone(text, state)


class Fight:
    """One fight line at work: the state's values, and a runner for each hero, for the time of the word."""

    def __init__(self, host: FightHost, state: FightState) -> None:
        self.host = host
        self.begin(state)

    def begin(self, state: FightState) -> None:
        from crux_cli.rulesets.crux.hero import Hero

        self.encounter = state.encounter
        self.sheets: dict[str, str] = dict(state.sheets)  # hero name -> sheet file
        self.runners: dict[str, FightRunner] = {}  # hero name -> the runner that rolls for them
        for name in state.hero_names():
            sheet = self.sheets.get(name)
            self.runners[name] = self.host.fight_runner(sheet=os.path.expanduser(sheet)) if sheet is not None else \
                self.host.fight_runner(hero=state.heroes.get(name) or Hero(name=name))
        self.fallen: list[str] = list(state.fallen)  # in the order they fell, for the summary
        self.over = state.over  # won: the words wait for `fight on` or a new `fight`
        self.ended = False

    def state(self) -> FightState:
        """The fight as it stands now, as a value: the ledger, the sheets, the held heroes' values, the fallen."""
        held: dict[str, Hero] = {}
        for name, runner in self.runners.items():
            hero = runner.current_hero() if name not in self.sheets else None
            if hero is not None:
                held[name] = hero
        return FightState(self.encounter, frozen_map(self.sheets), frozen_map(held), tuple(self.fallen), self.over)

    def hero_of(self, name: str) -> Hero | None:
        runner = self.runners.get(name)
        return runner.current_hero() if runner is not None else None

    def said_by(self, answer: Any, who: str, shown: str | None = None) -> str:
        """An answer as one line, prefixed with who rolled (the journal keeps them as its `who`)."""
        return self.host.render(answer.replace(input=shown if shown is not None else f"{who}: {answer.input}"), who)

    def handle(self, line: str) -> list[str]:
        word, _ = first(line)
        if self.over and word == "status":  # the summary again, with where everyone stood
            return [*ledger.summary(self.encounter, tuple(self.fallen)),
                    *view.status_lines(self.state(), self.hero_of),
                    "`fight on` goes on with it (more enemies), `fight` starts another"]
        if self.over and word not in (*ALWAYS, "end"):
            raise CruxError("no fight is running: the last one was won", text=line, position=0,
                            hint="`fight` starts a new one; `fight on` goes on with the last")
        words = tokens(line)[1:]
        word = RENAMED.get(word, word)
        if word == "save" and words and is_file(" ".join(w.text for w in words)):
            return self.do_save(line, words)
        if word in ROLLS:
            return self.roll_as(line, words)
        if word in ("heal", "cond", "show", "wound", "rest"):
            return self.sheet_as(line, words)
        words_of: dict[str, Callable[[str, list[Token]], list[str]]] = {
            "fight": self.do_fight, "hero": self.do_hero, "enemy": self.do_enemy, "minions": self.do_minions,
            "remove": self.do_remove, "init": self.do_init, "next": self.do_next, "cast": self.do_cast,
            "move": self.do_move, "assess": self.do_assess, "react": self.do_react, "end": self.do_end,
            "atk": self.do_atk, "damage": self.do_damage, "dmg": self.do_damage, "status": self.do_status,
            "load": self.do_load}
        return words_of[word](line, words)

    # -- setting up -----------------------------------------------------------------------------

    def do_fight(self, line: str, words: list[Token]) -> list[str]:
        if words and words[0].text.lower() == "on":
            if not self.over:
                raise CruxError("the fight is still on", text=line, position=words[0].at)
            self.over = False
            said = ["the fight goes on: add enemies, or `next`"]
            active = self.encounter.active()
            if active is not None and active.down and any(not c.down for c in self.encounter.combatants):
                said += self.turn_begins(ledger.next_turn(self.encounter))  # not a fallen enemy's turn
            return said
        self.begin(FightState())
        said = ["a fight begins: add enemies (enemy NAME hp N), minions (minions NAME COUNT), "
                "more heroes (hero FILE.toml), then roll init"]
        runner = self.host.runner
        if runner.sheet is not None:
            said += self.add_hero(runner.sheet, line)
        return said

    def do_hero(self, line: str, words: list[Token]) -> list[str]:
        if not words:
            raise CruxError("which hero? a sheet file or a name", text=line, position=len(line),
                            hint="hero wren.toml, or hero \"Bram Ironfoot\"")
        return self.add_hero(" ".join(w.text for w in words), line)

    def add_hero(self, what: str, line: str) -> list[str]:
        from crux_cli.rulesets.crux.hero import Hero

        if is_file(what):
            path = os.path.expanduser(what)
            name = self.named(self.host.read_hero(path).name, line)
            runner = self.host.fight_runner(sheet=path)
            sheet: str | None = what
        else:
            name = self.named(what, line)
            runner, sheet = self.host.fight_runner(hero=Hero(name=name)), None
        out, opening = [], ledger.TURN_ACTIONS
        if self.encounter.round == 1:  # a late joiner rolls initiative for their round-1 actions; from round 2
            # on there is nothing to roll it for (§5: it sets the actions "in the first round"), so no Grit either
            answer = runner.answer("init")
            opening = answer.result.actions
            out.append(self.said_by(answer, name))
        step = ledger.add_hero(self.encounter, name, opening=opening)
        self.runners[name] = runner
        if sheet is not None:
            self.sheets[name] = sheet
        return out + self.step(step)

    def named(self, name: str, line: str) -> str:
        """A newcomer's name: one a fight line can tell from its other words, hiding nobody already in."""
        at = max(0, line.find(name.split()[0] if name.split() else name))
        try:
            name = check_name(name)
        except CruxError as error:
            raise error.at(line, at) from None
        hidden = shadowed(self.encounter, name)
        if hidden is not None:
            raise CruxError(f"'{name}' begins {possessive_of(hidden.name)} name: `atk {name}` would reach the "
                            f"newcomer, no longer {hidden.name}", text=line, position=at,
                            hint=f"give it a name of its own (e.g. \"{name} 2\")")
        return name

    def do_enemy(self, line: str, words: list[Token]) -> list[str]:
        at = next((i for i, w in enumerate(words) if w.text.lower() == "hp" and not w.quoted), -1)
        if at < 1 or at + 1 >= len(words) or not is_count(words[at + 1].text):
            raise CruxError("an enemy is: enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE] [grit N]",
                            text=line, position=min(len(line), len(line.split()[0]) + 1),
                            hint="enemy goblin hp 7 heavy atk d6")
        name = self.named(" ".join(w.text for w in words[:at]), line)
        options = self.options(words[at + 2:], line)
        options.pop("crits", None)
        return self.step(ledger.add_enemy(self.encounter, name, int(words[at + 1].text), **options))

    def do_minions(self, line: str, words: list[Token]) -> list[str]:
        at = next((i for i, w in enumerate(words) if i and is_count(w.text) and not w.quoted), -1)
        if at < 1:
            raise CruxError("a minion group is: minions NAME COUNT [medium|heavy] [atk DICE] [crits]", text=line,
                            position=min(len(line), len(line.split()[0]) + 1), hint="minions rats 6 atk d4")
        name = self.named(" ".join(w.text for w in words[:at]), line)
        options = self.options(words[at + 1:], line)
        for alone in ("resist", "vuln", "grit"):
            options.pop(alone, None)
        return self.step(ledger.add_minions(self.encounter, name, int(words[at].text), **options))

    @staticmethod
    def options(words: list[Token], line: str) -> dict[str, Any]:
        options: dict[str, Any] = {}
        rest = iter(words)
        for word in rest:
            low = word.text.lower()
            if low in ARMOUR:
                options["armour"] = "unarmoured" if low.startswith("unarm") else low
            elif low in ("resist", "vuln"):
                options[low] = True
            elif low in ("crits", "crit"):
                options["crits"] = True
            elif low in ("atk", "attack"):
                options["attack"] = next(rest, Token("", False, 0)).text
            elif low == "grit":
                count = next(rest, Token("", False, len(line))).text
                if not is_count(count) or int(count) > GRIT_MAX:
                    raise CruxError("grit needs how much the elite holds: grit 0 to grit 5", text=line,
                                    position=word.at)
                options["grit"] = int(count)
            else:
                raise CruxError(f"'{word.text}' is not an armour, resist, vuln, atk DICE, grit N or crits",
                                text=line, position=word.at)
        return options

    def do_remove(self, line: str, words: list[Token]) -> list[str]:
        combatant = self.required(line, words)
        self.runners.pop(combatant.name, None)
        self.sheets.pop(combatant.name, None)
        return self.step(ledger.remove(self.encounter, combatant.name))

    def required(self, line: str, words: list[Token], start: int = 0) -> ledger.Combatant:
        taken = take_name(self.encounter, words, line, start)
        if taken is None:
            typed = words[start].text if start < len(words) else ""
            if not typed:
                raise CruxError("name someone in the fight", text=line, position=len(line),
                                hint="in the fight: " + ", ".join(c.name for c in self.encounter.combatants))
            raise unknown(self.encounter, typed, line, words[start].at)
        return taken[0]

    # -- the rounds ----------------------------------------------------------------------------

    def do_init(self, line: str, words: list[Token]) -> list[str]:
        if self.encounter.started:
            raise CruxError(f"initiative was rolled: this is round {self.encounter.round}", text=line, position=0,
                            hint="`next` passes the turn; `fight` starts a new fight")
        statement = " ".join(["init", *(w.text for w in words)])  # ambush, Boons, Banes: every hero's roll
        out, openings = [], {}
        for name, runner in self.runners.items():
            answer = runner.answer(statement)
            openings[name] = answer.result.actions
            out.append(self.said_by(answer, name))
        self.sync()
        return out + self.turn_begins(ledger.start(self.encounter, openings))

    def do_next(self, line: str, words: list[Token]) -> list[str]:
        notes = self.sync()
        return notes + self.turn_begins(ledger.next_turn(self.encounter))

    def turn_begins(self, step: ledger.Step) -> list[str]:
        """A turn starts: a hero's Dazed, now paid for with an action, comes off their sheet."""
        out = self.step(step)
        active = self.encounter.active()
        if active is not None and active.name in self.runners and any("dazed" in e for e in step.events):
            self.runners[active.name].answer("cond remove dazed")
        return out

    def do_cast(self, line: str, words: list[Token]) -> list[str]:
        cost = int(words[0].text) if words and is_count(words[0].text) else 1
        return self.sync() + self.step(ledger.act(self.encounter, "cast", cost))

    def do_move(self, line: str, words: list[Token]) -> list[str]:
        return self.sync() + self.step(ledger.act(self.encounter, "move"))

    def do_assess(self, line: str, words: list[Token]) -> list[str]:
        return self.sync() + self.step(ledger.act(self.encounter, "assess"))

    def do_react(self, line: str, words: list[Token]) -> list[str]:
        """`react NAME defend [ALLY]`, `interpose ALLY`, `help ALLY`, `opportunity TARGET [DICE] [mods]` (§6.2)."""
        if not words:
            raise CruxError("a reaction is: react NAME defend|interpose|opportunity|help [NAME]", text=line,
                            position=len(line), hint="react wren defend")
        notes = self.sync()
        reactor = self.required(line, words)
        taken = take_name(self.encounter, words, line)
        rest = words[taken[1] if taken else 1:]
        if not rest:
            raise CruxError("which reaction? defend, interpose, opportunity or help", text=line, position=len(line))
        kind = rest[0].text.lower()
        if kind != "opportunity":
            named = take_name(self.encounter, rest, line, 1) if len(rest) > 1 else None
            if len(rest) > 1 and named is None:
                raise unknown(self.encounter, rest[1].text, line, rest[1].at)
            if named is not None and len(rest) > 1 + named[1]:
                extra = rest[1 + named[1]]
                raise CruxError(f"'{extra.text}' is not part of a reaction", text=line, position=extra.at,
                                hint=f"react {reactor.name} {kind} NAME")
            other = named[0].name if named is not None else None
            return notes + self.step(ledger.react(self.encounter, reactor.name, kind, other))
        return notes + self.opportunity(line, reactor, rest[1:])

    def opportunity(self, line: str, reactor: ledger.Combatant, words: list[Token]) -> list[str]:
        """An Opportunity Attack: the reactor's attack, rolled as a turn's is (never rushed: it is no turn's)."""
        if not words:
            raise CruxError("an opportunity attack needs the one it strikes", text=line, position=len(line),
                            hint=f"react {reactor.name} opportunity NAME [DICE]")
        taken = take_name(self.encounter, words, line)
        if taken is None:
            raise unknown(self.encounter, words[0].text, line, words[0].at)
        target, rest = taken[0], [w.text for w in words[taken[1]:]]
        caught, rest = self.area(line, rest)
        spent = self.step(ledger.react(self.encounter, reactor.name, "opportunity", target.name))
        helped = ledger.take_help(self.encounter, reactor.name)
        self.encounter = helped.encounter
        step = ledger.Step(self.encounter, boons=helped.boons)
        return [*spent, *self.strike(line, self.encounter.find(reactor.name), target, rest, step, caught,
                                     "opportunity attack: ")]

    def do_end(self, line: str, words: list[Token]) -> list[str]:
        self.sync()
        self.ended = True
        if not self.encounter.started:
            return ["the fight is over"]
        return list(ledger.summary(self.encounter, tuple(self.fallen), won=self.over))

    # -- attacks and damage ----------------------------------------------------------------------

    def do_atk(self, line: str, words: list[Token]) -> list[str]:
        notes = self.sync()
        encounter = self.encounter
        attacker = encounter.active()
        if attacker is None:
            raise CruxError("the fight has not started", text=line, position=0, hint="roll initiative with `init`")
        target, rest = self.attack_target(line, words)
        caught, rest = self.area(line, rest)
        if target.down:
            raise CruxError(f"{target.name} is already down", text=line, position=line.find(words[0].text))
        if target.name == attacker.name:
            raise CruxError(f"{attacker.name} cannot attack themselves", text=line, position=len(line.split()[0]),
                            hint="name another combatant")
        step = ledger.act(encounter, "attack")  # refused before any die is rolled when no actions are left
        return notes + self.strike(line, attacker, target, rest, step, caught)

    def strike(self, line: str, attacker: ledger.Combatant, target: ledger.Combatant, rest: list[str],
               step: ledger.Step, caught: int = 1, what: str = "") -> list[str]:
        """One attack, a turn's (`step` spends its action) or a reaction's, rolled and its damage dealt.

        The Defend and Interpose waiting for the target answer it (§6.2): Defend's Bane, the interposer
        hit instead. Then the target's conditions, armour, resistance and vulnerability, the attacker's
        conditions and minion rules, as every attack has them.
        """
        spent = self.step(step)  # the action (said after the roll; a refused roll leaves the fight as it was)
        covered, hit, defended = ledger.cover(self.encounter, target.name, attacker.name)
        guard = self.step(covered)
        target = self.encounter.find(hit)
        statement, why, mine = self.attack_words(attacker, target, rest, step, defended)
        answer = self.roll(attacker, statement)
        answer, said = self.as_enemy(attacker, answer)
        rolled = self.said_by(answer, attacker.name, f"{what}{attacker.name} → {target.name}: {statement}")
        damage, crit = answer.result.damage, answer.result.outcome == "crit"
        return [*guard, *why, *mine, rolled, *said, *spent,
                *self.deal(target.name, damage, crit, line, caught, by=attacker.name)]

    def attack_words(self, attacker: ledger.Combatant, target: ledger.Combatant, rest: list[str],
                     step: ledger.Step, defended: int = 0) -> tuple[str, list[str], list[str]]:
        """The statement an attack rolls, with every modifier the fight adds, and the lines that say why."""
        melee = not any(w.lower() == "ranged" for w in rest)
        why, net = self.against(target, melee)
        mine, banes = self.hindered(attacker, melee)
        return self.attack_statement(attacker, target, rest, step, net - banes - defended), why, mine

    def attack_odds(self, line: str, exact: bool) -> tuple[Any, list[str]] | None:
        """The odds of `atk TARGET …` from the active combatant, or `… by NAME`, as `do_atk` would roll it."""
        words = tokens(line)[1:]
        low = [w.text.lower() if not w.quoted else "" for w in words]
        attacker = self.encounter.active()
        if "by" in low:
            at = low.index("by")
            attacker = self.required(line, words, at + 1)
            named = take_name(self.encounter, words, line, at + 1)
            words = words[:at] + words[at + 1 + (named[1] if named else 1):]
        try:
            target, rest = self.attack_target(line, words)
        except CruxError:
            return None  # no combatant named: the plain odds of the statement
        if attacker is None:
            raise CruxError("whose attack? initiative has not been rolled", text=line, position=len(line),
                            hint=f"odds {line} by NAME")
        if target.name == attacker.name:
            raise CruxError(f"{attacker.name} cannot attack themselves", text=line, position=0)
        if target.down:
            raise CruxError(f"{target.name} is already down", text=line, position=0)
        _, rest = self.area(line, rest)
        typed = [w.lower() for w in rest]
        rushed = 0 if "rushed" in typed else attacker.attacks  # the ledger's count, unless the GM says
        step = ledger.Step(self.encounter, rushed=rushed, boons=attacker.helped)
        covered, hit, defended = ledger.cover(self.encounter, target.name, attacker.name)
        target = covered.encounter.find(hit)
        statement, why, mine = self.attack_words(attacker, target, rest, step, defended)
        said = [*(self.host.palette.dim(e) for e in covered.events), *why, *mine]
        said.append(self.host.palette.dim(f"{attacker.name} → {target.name}: {statement}"))
        answer = self.runner_of(attacker).odds(statement, exact=exact)
        if attacker.minions and not attacker.crits:  # §11 "usually do not crit": the max is a plain hit
            said.append(self.host.palette.dim(f"{attacker.name} are minions: their max is a plain hit"))
            answer = answer.replace(result=self.without_crits(statement))
        return answer, said

    @staticmethod
    def without_crits(statement: str) -> Any:
        """The odds of an enemy's attack statement whose maximum is a plain hit (no sheet: enemies have none)."""
        from crux_cli.rulesets.crux.compiler import ATTACK
        from crux_cli.rulesets.crux.grammar import parse
        from crux_cli.rulesets.crux.probability import request_odds
        from crux_cli.rulesets.crux.syntax import Attack

        node = parse(statement, "atk")
        assert isinstance(node, Attack)  # the grammar's attack rule makes nothing else
        request = ATTACK(node, None, statement)
        return request_odds(request.replace(crits=False))

    def roll_odds(self, line: str, exact: bool) -> tuple[Any, list[str]]:
        """The odds of a test or save as `roll_as` would roll it, for the active combatant or the one named."""
        who, rest = self.who(line, tokens(line)[1:])
        statement, said = self.roll_statement(line, who, rest)
        return self.runner_of(who).odds(statement, exact=exact), [
            *said, self.host.palette.dim(f"{who.name}: {statement}")]

    def runner_of(self, who: ledger.Combatant) -> Any:
        return self.runners[who.name] if who.side == "hero" else self.host.fight_runner()

    def attack_target(self, line: str, words: list[Token]) -> tuple[ledger.Combatant, list[str]]:
        """The one combatant named among the attack's words, and the words left (dice, modifiers)."""
        for start in range(len(words)):
            taken = take_name(self.encounter, words, line, start)
            if taken is not None:
                rest = words[:start] + words[start + taken[1]:]
                return taken[0], [w.text for w in rest]
        raise CruxError("name one target in the fight", text=line, position=len(line.split()[0]),
                        hint="in the fight: " + ", ".join(c.name for c in self.encounter.combatants))

    @staticmethod
    def area(line: str, rest: list[str]) -> tuple[int, list[str]]:
        low = [w.lower() for w in rest]
        if "area" not in low:
            return 1, rest
        at = low.index("area")
        count = rest[at + 1] if at + 1 < len(rest) else ""
        if not is_count(count):
            raise CruxError("area needs how many it catches: area 3", text=line, position=line.find("area"))
        return int(count), rest[:at] + rest[at + 2:]

    def against(self, target: ledger.Combatant, melee: bool) -> tuple[list[str], int]:
        """Boons the target's conditions give an attack against it (seed §10.3), named."""
        conditions = view.conditions_of(target, self.hero_of)
        why = []
        if "prone" in conditions and melee:
            why.append(f"{target.name} is prone: +1 Boon to a melee attack against them")
        if "blinded" in conditions:
            why.append(f"{target.name} is blinded: +1 Boon to hit them")
        return [self.host.palette.dim(w) for w in why], len(why)

    def hindered(self, attacker: ledger.Combatant, melee: bool) -> tuple[list[str], int]:
        """Banes an enemy's own conditions put on its attack (§10.3); a hero's come from their sheet."""
        if attacker.side != "enemy":
            return [], 0
        held = ledger.enemy_conditions(attacker)
        banes: list[str] = [c for c in ("frightened", "blinded", "restrained") if c in held]
        banes += ["prone"] if "prone" in held and melee else []
        return [self.host.palette.dim(f"{attacker.name} is {c}: +1 Bane on the attack") for c in banes], len(banes)

    def attack_statement(self, attacker: ledger.Combatant, target: ledger.Combatant, rest: list[str],
                         step: ledger.Step, net: int) -> str:
        words = ["atk"]
        if attacker.side == "enemy" and not any(POOL.fullmatch(w) for w in rest):
            if not attacker.attack:
                raise CruxError(f"{attacker.name} has no attack dice", hint=f"atk \"{target.name}\" d6, or give "
                                f"enemies dice when they join: enemy {attacker.name} hp N atk d6")
            words.append(attacker.attack)
        words += sorted(rest, key=lambda w: not POOL.fullmatch(w))  # the dice first, as the grammar has them
        if step.rushed:
            words.append(f"rushed {step.rushed}")
        if step.boons:
            words.append("help" + (f" +{step.boons - 1}b" if step.boons > 1 else ""))
        if net:
            words.append(f"+{net}b" if net > 0 else f"-{-net}B")
        if target.side == "enemy":
            if target.armour != "unarmoured":
                words.append(target.armour)
            words += [flag for flag, on in (("resist", target.resist), ("vuln", target.vuln),
                                            ("minion", target.minions > 0)) if on]
        return " ".join(words)

    def roll(self, who: ledger.Combatant, statement: str) -> Any:
        """Roll as `who`: a hero through their runner (sheet and Grit), an enemy with plain dice."""
        if who.side == "hero":
            return self.runners[who.name].answer(statement)
        if "grit" in statement.lower().split() and who.grit < 1:
            why = "has no Grit (§11: enemies have none unless the GM gives an elite some)" if who.grit < 0 \
                else "has no Grit left"
            raise CruxError(f"{who.name} {why}", hint="enemy NAME hp N grit 2 gives an elite Grit")
        return self.host.fight_runner().answer(statement)

    def as_enemy(self, who: ledger.Combatant, answer: Any) -> tuple[Any, list[str]]:
        """An enemy's roll as §11 has it: minions do not crit (unless `crits`), and no Grit without Grit."""
        if who.side != "enemy":
            return answer, []
        from crux_cli.rulesets.crux.engine import AttackResult, GritChange, without_crit

        result, said = answer.result, []
        if isinstance(result, AttackResult) and who.minions and not who.crits and result.outcome == "crit":
            result = without_crit(result)
            said.append(self.host.palette.dim(f"{who.name} are minions: their max is a plain hit, not a crit"))
        if who.grit < 0:
            result = result.replace(grit=GritChange())
        else:
            gained = result.grit.gained if who.grit - result.grit.spent < GRIT_MAX else 0
            result = result.replace(grit=GritChange(result.grit.spent, gained))
            self.encounter = ledger.spend_enemy_grit(self.encounter, who.name, result.grit.spent, gained)
        return answer.replace(result=result), said

    def do_damage(self, line: str, words: list[Token]) -> list[str]:
        notes = self.sync()
        who, rest = self.who(line, words)
        if not rest or not is_count(rest[0].text):
            raise CruxError("damage in a fight is: damage [NAME] N [crit]", text=line,
                            position=rest[0].at if rest else len(line))
        crit = any(w.text.lower() in ("crit", "critical") for w in rest[1:])
        return notes + self.deal(who.name, int(rest[0].text), crit, line)

    def deal(self, name: str, damage: int, crit: bool, line: str, caught: int = 1,
             by: str | None = None) -> list[str]:
        target = self.encounter.find(name)
        if target.side == "enemy":
            out = self.step(ledger.hit_enemy(self.encounter, name, damage, caught, by))
            if self.encounter.find(name).down:
                self.fallen.append(name)
            return out + self.won()
        if damage <= 0:
            return []
        answer = self.runners[name].answer(f"damage {damage}" + (" crit" if crit else ""))
        self.encounter = ledger.count_damage(self.encounter, name, damage, by)
        return [self.said_by(answer, name), *self.sync()]

    def won(self) -> list[str]:
        if not ledger.won(self.encounter):
            return []
        self.over = True
        return [*ledger.summary(self.encounter, tuple(self.fallen)),
                "the fight is over: `fight on` goes on with it (more enemies), `fight` starts another"]

    # -- acting as the active combatant, or as the one named --------------------------------------

    def who(self, line: str, words: list[Token], start: int = 0) -> tuple[ledger.Combatant, list[Token]]:
        """The combatant a statement names at `words[start]`, else the active one; and the words left."""
        taken = take_name(self.encounter, words, line, start)
        if taken is not None:
            return taken[0], words[:start] + words[start + taken[1]:]
        active = self.encounter.active()
        if active is None:
            raise CruxError("name who: initiative has not been rolled, so nobody's turn it is", text=line,
                            position=len(line.split()[0]), hint="e.g. " + line.split()[0] + " Wren …")
        return active, words

    def roll_as(self, line: str, words: list[Token]) -> list[str]:
        """A test or save (`save Bram STR`, `DEX +1b`) rolled as the one named or the active combatant.

        Help waiting for them is taken by this roll (the next roll: a test, a save or an attack).
        """
        notes = self.sync()
        who, rest = self.who(line, words)
        statement, said = self.roll_statement(line, who, rest)
        answer, grit = self.as_enemy(who, self.roll(who, statement))
        helped = self.step(ledger.take_help(self.encounter, who.name))
        rolled = self.said_by(answer, who.name, f"{who.name}: {statement}")
        return [*notes, *said, *helped, rolled, *grit, *self.sync()]

    def roll_statement(self, line: str, who: ledger.Combatant, rest: list[Token]) -> tuple[str, list[str]]:
        """A test or save as `who` rolls it in the fight: Help waiting, and an enemy's conditions (§10.3:
        Frightened "Bane on rolls while the source of fear is visible", Restrained "Banes on attacks and
        DEX saves"; a hero's come from their sheet)."""
        statement = " ".join([line.split()[0], *(w.text for w in rest)])
        if who.helped:
            statement += " help" + (f" +{who.helped - 1}b" if who.helped > 1 else "")
        held = ledger.enemy_conditions(who) if who.side == "enemy" else ()
        said = []
        if "frightened" in held:
            said.append(f"{who.name} is frightened: +1 Bane")
        if "restrained" in held and self.is_dex_save(line, rest):
            said.append(f"{who.name} is restrained: +1 Bane on a DEX save")
        if said:
            statement += f" -{len(said)}B"
        return statement, [self.host.palette.dim(s) for s in said]

    @staticmethod
    def is_dex_save(line: str, rest: list[Token]) -> bool:
        from crux_cli.core.vocabulary import ATTRIBUTE_NAMES

        return line.split()[0].lower() == "save" and any(ATTRIBUTE_NAMES.get(w.text.lower()) == "DEX"
                                                         for w in rest[:1])

    def sheet_as(self, line: str, words: list[Token]) -> list[str]:
        """heal, wound, cond and show, for the one named or the active combatant (enemies in the ledger)."""
        notes = self.sync()
        head = line.split()[0]
        kind = RENAMED.get(head.lower(), head.lower())
        start = 1 if kind == "cond" else 0
        who, rest = self.who(line, words, start)
        if who.side == "hero":
            answer = self.runners[who.name].answer(" ".join([head, *(w.text for w in rest)]))
            return [*notes, self.said_by(answer, who.name), *self.sync()]
        return notes + self.enemy_sheet(kind, who, rest, line)

    def enemy_sheet(self, kind: str, enemy: ledger.Combatant, rest: list[Token], line: str) -> list[str]:
        if kind == "show":
            return [view.status_line(enemy, self.hero_of)]
        if kind == "cond":
            from crux_cli.rulesets.crux.wounds import condition_name

            action = rest[0].text.lower() if rest else ""
            if action not in ("add", "remove", "rm", "del", "drop") or len(rest) < 2:
                raise CruxError("cond add|remove NAME CONDITION", text=line, position=len(line))
            names = tuple(condition_name(w.text) for w in rest[1:])
            return self.step(ledger.set_conditions(self.encounter, enemy.name,
                                                   "add" if action == "add" else "remove", names))
        if kind == "wound":
            raise CruxError(f"{enemy.name} is an enemy: the ledger keeps its HP, not Wounds", text=line,
                            position=0, hint=f"damage {enemy.name} N")
        if kind == "rest":
            raise CruxError(f"{enemy.name} is an enemy: it has no Hit Dice to rest with", text=line, position=0,
                            hint=f"heal {enemy.name} N")
        if not rest or not is_count(rest[0].text):
            raise CruxError(f"{kind} [NAME] N", text=line, position=len(line))
        return self.step(ledger.heal_enemy(self.encounter, enemy.name, int(rest[0].text)))

    # -- the ledger and the heroes' sheets ----------------------------------------------------------

    def sync(self) -> list[str]:
        """Bring each hero's Dying, death and Dazed from their sheet into the ledger; say who just fell."""
        said = []
        for name, runner in self.runners.items():
            hero = runner.current_hero()
            if hero is None or name not in {c.name for c in self.encounter.combatants}:
                continue
            before = self.encounter.find(name)
            self.encounter = ledger.set_hero_state(self.encounter, name, dying=hero.dying, dead=hero.dead,
                                                   dazed=hero.has("dazed"))
            after = self.encounter.find(name)
            if (hero.dying and not before.dying) or (hero.dead and not before.down):
                self.fallen += [] if name in self.fallen else [name]
            if hero.dying and not before.dying and self.encounter.started:
                said.append(f"{name} drops to Dying: {after.actions} action{'s' if after.actions != 1 else ''} "
                            "left (1 action a turn, reactions included)")
        return [self.host.palette.dim(s) for s in said]

    def step(self, step: ledger.Step) -> list[str]:
        self.encounter = step.encounter
        return [self.host.palette.dim(event) for event in step.events]

    def do_status(self, line: str, words: list[Token]) -> list[str]:
        notes = self.sync()
        return [*notes, *view.status_lines(self.state(), self.hero_of)]

    def not_a_sheet(self, path: str, line: str) -> None:
        """A fight file that does not read: if it is a character sheet, say so and which words load one."""
        try:
            hero = self.host.read_hero(os.path.expanduser(path))
        except (CruxError, OSError):
            return
        raise CruxError(f"{path} is a character sheet ({hero.name}), not a saved fight", text=line,
                        position=line.find(path.split()[0]) if path.split() else 0,
                        hint=f"`hero {path}` brings {hero.name} into the fight; `/load {path}` rolls as them")

    def do_save(self, line: str, words: list[Token]) -> list[str]:
        self.sync()
        path = " ".join(w.text for w in words)  # a name with spaces is one file: `save my fight.toml`
        self.host.save_fight(os.path.expanduser(path), self.state())
        return [f"fight saved to {path}"]

    def do_load(self, line: str, words: list[Token]) -> list[str]:
        path = " ".join(w.text for w in words)
        try:
            loaded = self.host.load_fight(os.path.expanduser(path))
        except CruxError:
            self.not_a_sheet(path, line)
            raise
        if not isinstance(loaded, FightState):
            raise CruxError(f"{path} is not a fight of the Crux rules", text=line, position=words[0].at)
        self.begin(loaded)
        return [f"fight loaded from {path}", *self.do_status(line, [])]
