"""Encounters at the REPL: the fight words, kept in the ledger of `engine.encounter`.

A fight holds its heroes (each answered by a `Runner` of their own: a sheet file, or
a hero held in memory) and its enemies. Rolls go through the same runners and
renderers as every other statement; the ledger decides who may act, how rushed an
attack is and where its damage goes. Words (documented in /help fight):

    fight                       start a fight with the loaded hero (if any)
    hero FILE.toml | NAME       another hero: from a sheet, or a name alone
    enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE]
    minions NAME COUNT [medium|heavy] [atk DICE]
    init [ambush]               roll initiative for every hero; round 1 begins
    atk TARGET [DICE] [mods] [area N]   the active combatant attacks (1 action)
    cast [N] | move | assess    spend actions
    react NAME defend|interpose|opportunity|help [ALLY]
    damage NAME N [crit]        damage a hero (through the sheet) or an enemy
    next | status | end
    save FILE.toml | load FILE.toml
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import ARMOUR_WORDS
from crux_cli.rulesets.crux import encounter as ledger

if TYPE_CHECKING:
    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Answer, Runner

ALWAYS = ("fight",)
DURING = ("hero", "enemy", "minions", "next", "status", "react", "cast", "move", "assess", "end",
          "init", "initiative", "atk", "attack")
ARMOUR = tuple(ARMOUR_WORDS)
POOL = re.compile(r"\d*[dD]\d+")  # damage dice written in the attack itself


def first(line: str) -> tuple[str, list[str]]:
    words = line.split()
    return (words[0].lower() if words else ""), words[1:]


def is_file(word: str) -> bool:
    return word.lower().endswith(".toml")


class Fight:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.encounter = ledger.Encounter()
        self.runners: dict[str, Runner] = {}  # hero name -> the runner that rolls for them
        self.sheets: dict[str, str] = {}  # hero name -> sheet file

    # -- which lines are ours -------------------------------------------------------------------

    @staticmethod
    def claims(line: str, fighting: bool) -> bool:
        word, rest = first(line)
        if word in ALWAYS:
            return True
        if not fighting:
            return word == "load" and bool(rest) and is_file(rest[0])
        if word == "damage":
            return bool(rest) and not rest[0].lstrip("+-").isdigit()  # `damage NAME N`; `damage N` is the sheet's
        return word in DURING or (word in ("save", "load") and bool(rest) and is_file(rest[0]))

    def handle(self, line: str) -> list[str]:
        word, words = first(line)
        handler = getattr(self, f"do_{ {'initiative': 'init', 'attack': 'atk'}.get(word, word) }")
        return handler(line, words)

    # -- setting up -----------------------------------------------------------------------------

    def do_fight(self, line: str, words: list[str]) -> list[str]:
        self.__init__(self.session)
        said = ["a fight begins: add enemies (enemy NAME hp N), minions (minions NAME COUNT), "
                "more heroes (hero FILE.toml), then roll init"]
        runner = self.session.runner
        if runner.sheet is not None:
            said += self.add_hero(runner.sheet, line)
        return said

    def do_hero(self, line: str, words: list[str]) -> list[str]:
        if not words:
            raise CruxError("which hero? a sheet file or a name", text=line, position=len(line),
                            hint="hero wren.toml, or hero Bram")
        return self.add_hero(" ".join(words), line)

    def add_hero(self, what: str, line: str) -> list[str]:
        from crux_cli.rulesets.crux.hero import Hero
        from crux_cli.running.runner import Runner

        base = self.session.runner
        if is_file(what):
            from crux_cli.state.store import load_hero

            name = load_hero(os.path.expanduser(what)).name
            runner = Runner(source=base.source, seed=base.seed, sheet=os.path.expanduser(what))
            self.sheets[name] = what
        else:
            name = what
            runner = Runner(source=base.source, seed=base.seed, hero=Hero(name=name))
        step = self.step(ledger.add_hero(self.encounter, name), line)
        self.runners[name] = runner
        return step

    def do_enemy(self, line: str, words: list[str]) -> list[str]:
        if len(words) < 3 or words[1].lower() != "hp" or not words[2].isdigit():
            raise CruxError("an enemy is: enemy NAME hp N [medium|heavy] [resist] [vuln] [atk DICE]",
                            text=line, position=min(len(line), len(line.split()[0]) + 1),
                            hint="enemy goblin hp 7 heavy atk d6")
        options = self.options(words[3:], line)
        return self.step(ledger.add_enemy(self.encounter, words[0], int(words[2]), **options), line)

    def do_minions(self, line: str, words: list[str]) -> list[str]:
        if len(words) < 2 or not words[1].isdigit():
            raise CruxError("a minion group is: minions NAME COUNT [medium|heavy] [atk DICE]", text=line,
                            position=min(len(line), len(line.split()[0]) + 1), hint="minions rats 6 atk d4")
        options = self.options(words[2:], line)
        options.pop("resist", None), options.pop("vuln", None)
        return self.step(ledger.add_minions(self.encounter, words[0], int(words[1]), **options), line)

    @staticmethod
    def options(words: list[str], line: str) -> dict[str, Any]:
        options: dict[str, Any] = {}
        rest = iter(words)
        for word in rest:
            low = word.lower()
            if low in ARMOUR:
                options["armour"] = "unarmoured" if low.startswith("unarm") else low
            elif low in ("resist", "vuln"):
                options[low] = True
            elif low in ("atk", "attack"):
                options["attack"] = next(rest, "")
            else:
                raise CruxError(f"'{word}' is not an armour, resist, vuln or atk DICE", text=line,
                                position=line.find(word))
        return options

    # -- the rounds ----------------------------------------------------------------------------

    def do_init(self, line: str, words: list[str]) -> list[str]:
        if self.encounter.started:
            raise CruxError(f"initiative was rolled: this is round {self.encounter.round}", text=line, position=0,
                            hint="`next` passes the turn; `fight` starts a new fight")
        ambush = any(w.lower() == "ambush" for w in words)
        out, openings = [], {}
        for name, runner in self.runners.items():
            answer = runner.answer("init ambush" if ambush else "init")
            openings[name] = answer.result.actions
            out.append(self.session.render(answer.replace(input=f"{name}: {answer.input}")))
        return out + self.turn_begins(ledger.start(self.sync(), openings), line)

    def do_next(self, line: str, words: list[str]) -> list[str]:
        return self.turn_begins(ledger.next_turn(self.sync()), line)

    def turn_begins(self, step: ledger.Step, line: str) -> list[str]:
        """A turn starts: a hero's Dazed, now paid for with an action, comes off their sheet."""
        out = self.step(step, line)
        active = self.encounter.active()
        if active is not None and active.name in self.runners and any("dazed" in e for e in step.events):
            self.hero_statement(active.name, "cond remove dazed")
        return out

    def do_cast(self, line: str, words: list[str]) -> list[str]:
        cost = int(words[0]) if words and words[0].isdigit() else 1
        return self.step(ledger.act(self.sync(), "cast", cost), line)

    def do_move(self, line: str, words: list[str]) -> list[str]:
        return self.step(ledger.act(self.sync(), "move"), line)

    def do_assess(self, line: str, words: list[str]) -> list[str]:
        return self.step(ledger.act(self.sync(), "assess"), line)

    def do_react(self, line: str, words: list[str]) -> list[str]:
        if len(words) < 2:
            raise CruxError("a reaction is: react NAME defend|interpose|opportunity|help [ALLY]", text=line,
                            position=len(line), hint="react wren defend")
        ally = words[2] if len(words) > 2 else None
        return self.step(ledger.react(self.sync(), words[0], words[1], ally), line)

    def do_end(self, line: str, words: list[str]) -> list[str]:
        self.session.fight = None
        return ["the fight is over"]

    # -- attacks and damage ----------------------------------------------------------------------

    def do_atk(self, line: str, words: list[str]) -> list[str]:
        encounter = self.sync()
        attacker = encounter.active()
        if attacker is None:
            raise CruxError("the fight has not started", text=line, position=0, hint="roll initiative with `init`")
        names = {c.name.lower(): c for c in encounter.combatants}
        targets = [w for w in words if w.lower() in names]
        if len(targets) != 1:
            raise CruxError("name one target in the fight", text=line, position=len(line.split()[0]),
                            hint="in the fight: " + ", ".join(c.name for c in encounter.combatants))
        target = names[targets[0].lower()]
        rest = [w for w in words if w is not targets[0]]
        caught = 1
        if any(w.lower() == "area" for w in rest):
            at = [w.lower() for w in rest].index("area")
            count = rest[at + 1] if at + 1 < len(rest) else ""
            if not count.isdigit():
                raise CruxError("area needs how many it catches: area 3", text=line, position=line.find("area"))
            caught, rest = int(count), rest[:at] + rest[at + 2:]
        if target.down:
            raise CruxError(f"{target.name} is already down", text=line, position=line.find(targets[0]))
        if target.name == attacker.name:
            raise CruxError(f"{attacker.name} cannot attack themselves", text=line, position=line.find(targets[0]),
                            hint="name another combatant")
        step = ledger.act(encounter, "attack")  # refused before any die is rolled when no actions are left
        statement = self.attack_statement(attacker, target, rest, step)
        if attacker.side == "hero":
            answer = self.runners[attacker.name].answer(statement)
        else:
            from crux_cli.running.runner import Runner

            base = self.session.runner
            answer = Runner(source=base.source, seed=base.seed).answer(statement)
        rolled = self.session.render(answer.replace(input=f"{attacker.name} → {target.name}: {statement}"))
        spent = self.step(step, line)
        damage, crit = answer.result.damage, answer.result.outcome == "crit"
        return [rolled, *spent, *self.deal(target.name, damage, crit, line, caught)]

    def attack_statement(self, attacker: ledger.Combatant, target: ledger.Combatant, rest: list[str],
                         step: ledger.Step) -> str:
        words = ["atk"]
        if attacker.side == "enemy" and not any(POOL.match(w) for w in rest):
            if not attacker.attack:
                raise CruxError(f"{attacker.name} has no attack dice", hint=f"atk d6 {target.name}, or give "
                                f"enemies dice when they join: enemy {attacker.name} hp N atk d6")
            words.append(attacker.attack)
        words += rest
        if step.rushed:
            words.append(f"rushed {step.rushed}")
        if step.boons:
            words.append(f"+{step.boons}b")
        if target.side == "enemy":
            if target.armour != "unarmoured":
                words.append(target.armour)
            words += [flag for flag, on in (("resist", target.resist), ("vuln", target.vuln),
                                            ("minion", target.minions > 0)) if on]
        return " ".join(words)

    def do_damage(self, line: str, words: list[str]) -> list[str]:
        if len(words) < 2 or not words[1].isdigit():
            raise CruxError("damage in a fight is: damage NAME N [crit]", text=line, position=len(line.split()[0]))
        target = self.encounter.find(words[0])
        return self.deal(target.name, int(words[1]), any(w.lower() == "crit" for w in words[2:]), line)

    def deal(self, name: str, damage: int, crit: bool, line: str, caught: int = 1) -> list[str]:
        target = self.encounter.find(name)
        if target.side == "enemy":
            return self.step(ledger.hit_enemy(self.encounter, name, damage, caught), line)
        if damage <= 0:
            return []
        answer = self.hero_statement(name, f"damage {damage}" + (" crit" if crit else ""))
        self.sync()
        return [self.session.render(answer.replace(input=f"{name}: {answer.input}"))]

    def hero_statement(self, name: str, statement: str) -> Answer:
        return self.runners[name].answer(statement)

    # -- the ledger and the heroes' sheets ----------------------------------------------------------

    def sync(self) -> ledger.Encounter:
        """Bring each hero's Dying, death and Dazed from their sheet into the ledger."""
        for name, runner in self.runners.items():
            hero = runner.current_hero()
            if hero is not None:
                self.encounter = ledger.set_hero_state(self.encounter, name, dying=hero.dying, dead=hero.dead,
                                                       dazed=hero.has("dazed"))
        return self.encounter

    def step(self, step: ledger.Step, line: str) -> list[str]:
        self.encounter = step.encounter
        return [self.session.palette.dim(event) for event in step.events]

    def do_status(self, line: str, words: list[str]) -> list[str]:
        encounter = self.sync()
        active = encounter.active()
        head = f"round {encounter.round}, {ledger.possessive(active.name)} turn" if active else \
            "initiative not rolled yet"
        out = [head]
        for c in encounter.order():
            mark = "▶" if active is not None and c.name == active.name else " "
            if c.side == "hero":
                hero = self.runners[c.name].current_hero()
                health = (f"HP {hero.hp}/{hero.hp_max} · Wounds {hero.wounds}/{hero.wound_cap} · Grit {hero.grit}"
                          + (" · dying" if hero.dying else "") + (" · dead" if hero.dead else "")
                          + (" · " + ", ".join(hero.conditions) if hero.conditions else "")) if hero else ""
            elif c.minions or c.hp_max == 0:
                health = f"{c.minions} standing"
            else:
                health = f"HP {c.hp}/{c.hp_max} · {c.armour}"
            reactions = f" · reacted: {', '.join(c.reactions)}" if c.reactions else ""
            helped = f" · +{c.helped} Boon waiting" if c.helped else ""
            state = "down" if c.down else f"{c.actions} action{'s' if c.actions != 1 else ''}"
            out.append(f"{mark} {c.name:12} {state:10} {health}{reactions}{helped}")
        return out

    def do_save(self, line: str, words: list[str]) -> list[str]:
        from crux_cli.state.encounter import save_encounter

        save_encounter(os.path.expanduser(words[0]), self.sync(), self.sheets)
        return [f"fight saved to {words[0]}"]

    def do_load(self, line: str, words: list[str]) -> list[str]:
        from crux_cli.rulesets.crux.hero import Hero
        from crux_cli.running.runner import Runner
        from crux_cli.state.encounter import load_encounter

        encounter, sheets = load_encounter(os.path.expanduser(words[0]))
        base = self.session.runner
        self.__init__(self.session)
        self.encounter, self.sheets = encounter, sheets
        for c in encounter.combatants:
            if c.side == "hero":
                sheet = sheets.get(c.name)
                self.runners[c.name] = Runner(source=base.source, seed=base.seed,
                                              sheet=os.path.expanduser(sheet) if sheet else None,
                                              hero=None if sheet else Hero(name=c.name))
        return [f"fight loaded from {words[0]}", *self.do_status(line, [])]
