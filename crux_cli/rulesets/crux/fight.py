"""Encounters in the Crux rules: the fight words run, kept in the ledger of `encounter`.

A fight holds its heroes (each answered by a runner of their own: a sheet file, or a
hero held in memory) and its enemies. Rolls go through the same runners and renderers
as every other statement; the ledger decides who may act, how rushed an attack is and
where its damage goes. The session lends runners, rendering and files through
`core.ruleset.FightHost`. Names may have spaces: quote them, or give any unique
beginning of the name or of one of its words. The words, and which lines are fight
words, are in `fight_words` (the module the session asks first, for every line).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_INTEGER
from crux_cli.core.vocabulary import ARMOUR_WORDS
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.rulesets.crux.fight_words import ACTING, ALWAYS, DURING, ROLLS, claims, first, is_file

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightRunner

NAMED = ("atk", "attack", "react", "damage", "dmg", "heal", "wound", "remove", "show", "save")  # names come next
ARMOUR = ("medium", "heavy", "unarmoured", "unarmored")
POOL = re.compile(r"\d*[dD](\d+|%|F)\S*")  # damage dice written in the attack itself
NUMBER = re.compile(r"[+-]?\d+[bB]?")
TOKEN = re.compile(r'"([^"]*)"?|\'([^\']*)\'?|(\S+)')
RENAMED = {"initiative": "init", "attack": "atk", "dmg": "damage", "condition": "cond", "conditions": "cond"}


class Token(NamedTuple):
    text: str
    quoted: bool
    at: int  # where it starts in the line, for the caret



def is_count(text: str) -> bool:
    """A whole number as the grammar reads one: ASCII digits (not ² or ٣), refused past the integer limit."""
    if not (text.isascii() and text.isdigit()):
        return False
    if len(text) > len(str(MAX_INTEGER)) or int(text) > MAX_INTEGER:
        raise LimitError(f"{text[:12]}{'…' if len(text) > 12 else ''} is more than {MAX_INTEGER:,} (the limit)",
                         hint="numbers in a fight are counts of actions, HP or damage")
    return True

def tokens(line: str) -> list[Token]:
    """Words, with "quoted names" kept whole (a closing quote still being typed is not required)."""
    out = []
    for match in TOKEN.finditer(line):
        quoted = match.group(3) is None
        out.append(Token(match.group(1) if match.group(1) is not None else match.group(2) if quoted
                         else match.group(3), quoted, match.start()))
    return out


@functools.cache
def reserved() -> frozenset[str]:
    """Words no combatant may be named: they already mean something in a fight line."""
    from crux_cli.rulesets.crux import grammar
    from crux_cli.rulesets.crux.hero import CONDITIONS
    from crux_cli.rulesets.crux.ruleset import KEYWORDS

    return frozenset(w.lower() for w in (
        *ALWAYS, *DURING, *ACTING, *KEYWORDS, *ARMOUR, *ARMOUR_WORDS, *grammar.POSITIONS,
        *grammar.EFFECTS, *CONDITIONS, *ledger.REACTIONS, "dying", "hp", "area", "crit", "critical", "crits",
        "ambush", "adv", "dis", "vs", "on", "add", "remove", "grit", "help", "ranged", "melee", "rushed",
        "minion", "resist", "vuln", "boon", "boons", "bane", "banes", "odds", "roll", "all"))


def plain_word(word: str) -> bool:
    """A word that is never part of a name: a keyword, a number, dice, `+STR`."""
    low = word.lower()
    return low in reserved() or bool(NUMBER.fullmatch(low) or POOL.fullmatch(low)) or low[:1] in "+-"


def check_name(name: str) -> str:
    """Refuse names a fight line could not tell from its other words."""
    name = " ".join(name.split())
    if not name:
        raise CruxError("a combatant needs a name")
    if plain_word(name) or any(ch in name for ch in "#;\"'"):
        raise CruxError(f"'{name}' cannot name a combatant: it reads as part of a fight line",
                        hint="pick a name that is not a keyword, number or dice (e.g. goblin, \"Bram Ironfoot\")")
    return name


def name_matches(encounter: ledger.Encounter, typed: str) -> list[ledger.Combatant]:
    """Combatants `typed` names: the whole name, else any beginning of the name or of one of its words."""
    key = " ".join(typed.lower().split())
    exact = [c for c in encounter.combatants if c.name.lower() == key]
    if exact or not key:
        return exact
    return [c for c in encounter.combatants
            if c.name.lower().startswith(key) or any(w.startswith(key) for w in c.name.lower().split())]


def resolve(encounter: ledger.Encounter, typed: str, line: str = "", at: int = 0) -> ledger.Combatant | None:
    """The one combatant `typed` names, None when none; an ambiguous name is refused with the candidates."""
    found = name_matches(encounter, typed)
    if len(found) > 1:
        raise CruxError(f"'{typed}' could be " + " or ".join(c.name for c in found), text=line or None,
                        position=at if line else None, hint="give more of the name, or quote it whole")
    return found[0] if found else None


def unknown(encounter: ledger.Encounter, typed: str, line: str, at: int) -> CruxError:
    names = ", ".join(c.name for c in encounter.combatants) or "nobody yet"
    return CruxError(f"there is no '{typed}' in this fight", text=line, position=at, hint=f"in the fight: {names}")


def take_name(encounter: ledger.Encounter, words: list[Token], line: str,
              start: int = 0) -> tuple[ledger.Combatant, int] | None:
    """The combatant named from `words[start]` on, and how many words the name took (longest name first)."""
    if start >= len(words):
        return None
    if words[start].quoted:
        found = resolve(encounter, words[start].text, line, words[start].at)
        if found is None:
            raise unknown(encounter, words[start].text, line, words[start].at)
        return found, 1
    for end in range(len(words), start + 1, -1):  # an unquoted name with spaces, written whole
        found_whole = [c for c in encounter.combatants
                       if c.name.lower() == " ".join(w.text.lower() for w in words[start:end])]
        if found_whole:
            return found_whole[0], end - start
    if plain_word(words[start].text):
        return None
    found = resolve(encounter, words[start].text, line, words[start].at)
    return (found, 1) if found is not None else None


class Completions(NamedTuple):
    """What Tab offers in a fight line: candidates (word, what it is) for the word being typed."""

    word: str
    candidates: tuple[tuple[str, str], ...] = ()
    paths: bool = False  # files too


def run(line: str, fight: Fight | None, host: FightHost) -> tuple[Fight | None, list[str]]:
    """Answer a fight line (one `claims` took): the fight in progress afterwards (None once it ends)."""
    word, _ = first(line)
    if word == "load" and (fight is None or fight.over):  # resuming a saved fight
        fight = Fight(host)
    elif word in ALWAYS:
        fight = fight or Fight(host)
    elif fight is None:
        raise CruxError("no fight is running", text=line, position=0,
                        hint="`fight` starts one; `load FILE.toml` resumes a saved one")
    said = fight.handle(line)
    return (None if fight.ended else fight), said


class Fight:
    def __init__(self, host: FightHost) -> None:
        self.host = host
        self.encounter = ledger.Encounter()
        self.runners: dict[str, FightRunner] = {}  # hero name -> the runner that rolls for them
        self.sheets: dict[str, str] = {}  # hero name -> sheet file
        self.fallen: list[str] = []  # in the order they fell, for the summary
        self.over = False  # won: the words wait for `fight on` or a new `fight`
        self.ended = False

    # -- which lines are ours -------------------------------------------------------------------

    def claims(self, line: str) -> bool:
        return claims(line, self)

    def handle(self, line: str) -> list[str]:
        word, _ = first(line)
        if self.over and word not in ALWAYS:
            raise CruxError("no fight is running: the last one was won", text=line, position=0,
                            hint="`fight` starts a new one; `fight on` goes on with the last")
        words = tokens(line)[1:]
        word = RENAMED.get(word, word)
        if word == "save" and words and is_file(words[0].text):
            return self.do_save(line, words)
        if word in ROLLS:
            return self.roll_as(line, words)
        if word in ("heal", "cond", "show", "wound"):
            return self.sheet_as(line, words)
        handler = getattr(self, f"do_{word}")
        return handler(line, words)  # type: ignore[no-any-return]

    def names_someone(self, line: str) -> bool:
        """Does a statement name a combatant (`save Bram STR`, `cond add goblin prone`), or try to?"""
        words = tokens(line)[1:]
        at = 1 if first(line)[0] in ("cond", "condition", "conditions") else 0
        try:
            return take_name(self.encounter, words, line, at) is not None
        except CruxError:
            return True  # an ambiguous name: the fight says which ones it could be

    # -- setting up -----------------------------------------------------------------------------

    def do_fight(self, line: str, words: list[Token]) -> list[str]:
        if words and words[0].text.lower() == "on":
            if not self.over:
                raise CruxError("the fight is still on", text=line, position=words[0].at)
            self.over = False
            return ["the fight goes on: add enemies, or `next`"]
        self.__init__(self.host)  # type: ignore[misc]
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
        import os

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
        if self.encounter.started:  # a late joiner rolls initiative for their round-1 actions
            answer = runner.answer("init")
            opening = answer.result.actions
            out.append(self.host.render(answer.replace(input=f"{name}: {answer.input}")))
        step = ledger.add_hero(self.encounter, name, opening=opening)
        self.runners[name] = runner
        if sheet is not None:
            self.sheets[name] = sheet
        return out + self.step(step)

    @staticmethod
    def named(name: str, line: str) -> str:
        try:
            return check_name(name)
        except CruxError as error:
            raise error.at(line, max(0, line.find(name.split()[0] if name.split() else name))) from None

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
        ambush = any(w.text.lower() == "ambush" for w in words)
        out, openings = [], {}
        for name, runner in self.runners.items():
            answer = runner.answer("init ambush" if ambush else "init")
            openings[name] = answer.result.actions
            out.append(self.host.render(answer.replace(input=f"{name}: {answer.input}")))
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
        if not words:
            raise CruxError("a reaction is: react NAME defend|interpose|opportunity|help [ALLY]", text=line,
                            position=len(line), hint="react wren defend")
        notes = self.sync()
        reactor = self.required(line, words)
        taken = take_name(self.encounter, words, line)
        rest = words[taken[1] if taken else 1:]
        if not rest:
            raise CruxError("which reaction? defend, interpose, opportunity or help", text=line, position=len(line))
        ally = self.required(line, rest, 1).name if len(rest) > 1 else None
        return notes + self.step(ledger.react(self.encounter, reactor.name, rest[0].text, ally))

    def do_end(self, line: str, words: list[Token]) -> list[str]:
        self.ended = True
        self.host.end_fight()
        return ["the fight is over"]

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
        melee = not any(w.lower() == "ranged" for w in rest)
        why, net = self.against(target, melee)
        mine, banes = self.hindered(attacker, melee)
        statement = self.attack_statement(attacker, target, rest, step, net - banes)
        answer = self.roll(attacker, statement)
        spent = self.step(step)  # the action is spent once the dice are rolled; an elite's Grit follows
        answer, said = self.as_enemy(attacker, answer)
        rolled = self.host.render(answer.replace(input=f"{attacker.name} → {target.name}: {statement}"))
        damage, crit = answer.result.damage, answer.result.outcome == "crit"
        return [*notes, *why, *mine, rolled, *said, *spent,
                *self.deal(target.name, damage, crit, line, caught, by=attacker.name)]

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

    def conditions_of(self, combatant: ledger.Combatant) -> tuple[str, ...]:
        if combatant.side == "enemy":
            return ledger.enemy_conditions(combatant)
        hero = self.runners[combatant.name].current_hero()
        return hero.conditions if hero is not None else ()

    def against(self, target: ledger.Combatant, melee: bool) -> tuple[list[str], int]:
        """Boons the target's conditions give an attack against it (seed §10.3), named."""
        conditions = self.conditions_of(target)
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
        return [self.host.render(answer.replace(input=f"{name}: {answer.input}")), *self.sync()]

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
        statement = " ".join([line.split()[0], *(w.text for w in rest)])
        if who.helped:
            statement += " help" + (f" +{who.helped - 1}b" if who.helped > 1 else "")
        held = ledger.enemy_conditions(who) if who.side == "enemy" else ()
        if "frightened" in held:
            statement += " -1B"
        answer, said = self.as_enemy(who, self.roll(who, statement))
        helped = self.step(ledger.take_help(self.encounter, who.name))
        rolled = self.host.render(answer.replace(input=f"{who.name}: {statement}"))
        frightened = [self.host.palette.dim(f"{who.name} is frightened: +1 Bane")] if "frightened" in held else []
        return [*notes, *frightened, *helped, rolled, *said, *self.sync()]

    def sheet_as(self, line: str, words: list[Token]) -> list[str]:
        """heal, wound, cond and show, for the one named or the active combatant (enemies in the ledger)."""
        notes = self.sync()
        head = line.split()[0]
        kind = RENAMED.get(head.lower(), head.lower())
        start = 1 if kind == "cond" else 0
        who, rest = self.who(line, words, start)
        if who.side == "hero":
            answer = self.runners[who.name].answer(" ".join([head, *(w.text for w in rest)]))
            return [*notes, self.host.render(answer.replace(input=f"{who.name}: {answer.input}")), *self.sync()]
        return notes + self.enemy_sheet(kind, who, rest, line)

    def enemy_sheet(self, kind: str, enemy: ledger.Combatant, rest: list[Token], line: str) -> list[str]:
        if kind == "show":
            return [self.status_line(enemy)]
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
        active = self.encounter.active()
        head = f"round {self.encounter.round}, {ledger.possessive(active.name)} turn" if active else \
            "initiative not rolled yet"
        out = [*notes, head]
        width = max([12, *(len(c.name) for c in self.encounter.combatants)])
        for c in self.encounter.order():
            mark = "▶" if active is not None and c.name == active.name else " "
            out.append(f"{mark} {self.status_line(c, width)}")
        return out

    def health(self, c: ledger.Combatant) -> str:
        if c.side == "hero":
            hero = self.runners[c.name].current_hero()
            if hero is None:
                return ""
            return (f"HP {hero.hp}/{hero.hp_max} · Wounds {hero.wounds}/{hero.wound_cap} · Grit {hero.grit}"
                    + (" · dying" if hero.dying else "") + (" · dead" if hero.dead else "")
                    + (" · " + ", ".join(hero.conditions) if hero.conditions else ""))
        held = ledger.enemy_conditions(c)
        grit = f" · Grit {c.grit}" if c.grit >= 0 else ""
        base = f"{c.minions} standing" if c.minions or c.hp_max == 0 else f"HP {c.hp}/{c.hp_max} · {c.armour}"
        return base + grit + (" · " + ", ".join(held) if held else "")

    def status_line(self, c: ledger.Combatant, width: int = 12) -> str:
        reactions = f" · reacted: {', '.join(c.reactions)}" if c.reactions else ""
        helped = f" · +{c.helped} Boon waiting" if c.helped else ""
        state = "down" if c.down else f"{c.actions} action{'s' if c.actions != 1 else ''}"
        return f"{c.name:{width}} {state:10} {self.health(c)}{reactions}{helped}"

    def do_save(self, line: str, words: list[Token]) -> list[str]:
        import os

        self.sync()
        self.host.save_encounter(os.path.expanduser(words[0].text), self.encounter, self.sheets)
        return [f"fight saved to {words[0].text}"]

    def do_load(self, line: str, words: list[Token]) -> list[str]:
        import os

        from crux_cli.rulesets.crux.hero import Hero

        encounter, sheets = self.host.load_encounter(os.path.expanduser(words[0].text))
        self.__init__(self.host)  # type: ignore[misc]
        self.encounter, self.sheets = encounter, sheets
        for c in encounter.combatants:
            if c.side == "hero":
                sheet = sheets.get(c.name)
                self.runners[c.name] = self.host.fight_runner(sheet=os.path.expanduser(sheet) if sheet else None,
                                                              hero=None if sheet else Hero(name=c.name))
        return [f"fight loaded from {words[0].text}", *self.do_status(line, [])]

    # -- what the REPL shows: completion and the toolbar ---------------------------------------------

    def complete(self, text: str) -> Completions | None:
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
            return Completions(typed, self.reaction_candidates(text, after, typed))
        if word == "cond" and len(after) < 2:
            pairs = (("add", ""), ("remove", "")) if not after else self.name_candidates(typed)
            return Completions(typed, tuple(p for p in pairs if p[0].startswith(typed.lower())) if not after
                               else pairs)
        if word in NAMED and not after:
            return Completions(typed, self.name_candidates(typed), paths=word == "save")
        if word == "save" and self.only_a_name(text, after):  # `save Bram ` → the attribute
            from crux_cli.core.vocabulary import ATTRIBUTES

            return Completions(typed, tuple((a, "") for a in ATTRIBUTES if a.lower().startswith(typed.lower())))
        return None

    def only_a_name(self, text: str, words: list[Token]) -> bool:
        try:
            taken = take_name(self.encounter, words, text)
        except CruxError:
            return False
        return taken is not None and taken[1] == len(words)

    def reaction_candidates(self, text: str, after: list[Token], typed: str) -> tuple[tuple[str, str], ...]:
        """After `react NAME`: the kinds of reaction; after `react NAME help`: the ally."""
        try:
            taken = take_name(self.encounter, after, text)
        except CruxError:
            return ()
        if taken is not None and len(after) == taken[1]:
            return tuple((k, v) for k, v in ledger.REACTIONS.items() if k.startswith(typed.lower()))
        if taken is not None and len(after) == taken[1] + 1 and after[-1].text.lower() == "help":
            return self.name_candidates(typed)
        return ()

    def name_candidates(self, typed: str = "") -> tuple[tuple[str, str], ...]:
        """Combatants whose name `typed` begins (or a word of it), as Tab offers them: standing ones first,
        with their HP; names with spaces quoted."""
        key = typed.strip("\"'")
        found = name_matches(self.encounter, key) if key else list(self.encounter.order())
        if key and not found:
            return ()
        order = sorted((c for c in self.encounter.order() if c in found), key=lambda c: c.down)
        return tuple((f'"{c.name}"' if " " in c.name else c.name, "down" if c.down else self.health_short(c))
                     for c in order)

    def health_short(self, c: ledger.Combatant) -> str:
        if c.side == "enemy":
            return f"{c.minions} standing" if c.minions else f"HP {c.hp}/{c.hp_max}"
        hero = self.runners[c.name].current_hero()
        return f"HP {hero.hp}/{hero.hp_max}" + (" · dying" if hero.dying else "") if hero is not None else "hero"

    def toolbar(self) -> list[tuple[int, str, str]]:
        """(rank, key, value) parts for the toolbar: the active combatant first; a higher rank goes first
        when the terminal is narrow."""
        if self.over:
            return [(1, "fight", "won")]
        active = self.encounter.active()
        if active is None:
            return [(1, "fight", f"setting up ({len(self.encounter.combatants)} in)")]
        actions = f"{active.actions} action{'s' if active.actions != 1 else ''}"
        parts = [(0, "▶", active.name), (0, "", actions), (1, "", self.health_short(active))]
        held = self.conditions_of(active)
        if held:
            parts.append((2, "", ", ".join(held)))
        parts.append((3, "round", str(self.encounter.round)))
        return parts

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.encounter.combatants)
