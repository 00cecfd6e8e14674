"""The grammar of step-dice statements (crux-notation(7) STEPDICE STATEMENTS, seed 002; rulings in grammar/rulesets.md).

```
save [STR|DEX|WIL] DIE [vs N | vs DIE] [enhanced] [impaired]
step DIE up|down [N]
attack|atk DICE... [enhanced] [impaired] [armor A] [grit G] [str|dex|wil DIE]
death [marked]
```
DIE is a die on the track (0, d4, d6, d8, d10, d12); attack DICE are any `dS`
or `NdS` (several dice at one target: only the highest counts).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import groupby
from typing import Any

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import integer, join_words, keyword, number, pp, scanned_or_parsed, tagged
from crux_cli.core.grammar_parts import Word, counted, flag, pool, said_once, single, word_start
from crux_cli.core.limits import MAX_DICE, MAX_SIDES, rolling
from crux_cli.core.record import Record, field
from crux_cli.rulesets.stepdice.engine import TRACK, die_name
from crux_cli.rulesets.stepdice.words import ATTACK_WORDS, ATTRIBUTES, DEATH_WORDS, HINTS, SAVE_WORDS, STEP_WORDS

FAST_PATH = True  # tests turn it off to compare the scanner with the grammar
KEYWORDS = frozenset(SAVE_WORDS + STEP_WORDS + ATTACK_WORDS + DEATH_WORDS)
TRACK_HINT = "the step-dice track is 0, d4, d6, d8, d10, d12"


# -- the syntax tree ----------------------------------------------------------------------------

def _modes(enhanced: bool, impaired: bool) -> str:
    return join_words("enhanced" if enhanced else "", "impaired" if impaired else "")


class Save(Record):
    die: int
    attribute: str | None = None  # a label: STR | DEX | WIL
    target: int | None = None  # vs N (None: the environment's 4, unless opposed)
    opposing: int | None = None  # vs DIE
    enhanced: bool = False
    impaired: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        vs = f"vs {self.target}" if self.target is not None else (
            f"vs {die_name(self.opposing)}" if self.opposing is not None else "")
        return join_words("save", self.attribute, die_name(self.die), vs, _modes(self.enhanced, self.impaired))


class Step(Record):
    die: int
    steps: int  # signed: up is positive
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        direction = "up" if self.steps >= 0 else "down"
        return join_words("step", die_name(self.die), direction, abs(self.steps) if abs(self.steps) != 1 else "")


class Attack(Record):
    dice: tuple[int, ...]  # sides of every attack die at the target
    enhanced: bool = False
    impaired: bool = False
    armor: int = 0
    grit: int = 0
    strength: int | None = None  # the die of the attribute the Direct Damage goes to
    attribute: str = "STR"  # STR by default; DEX or WIL for entangling or psychic harm (seed 002)
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        # a run of one die is written as its count (`1000d2`, as it may be typed), so that the canonical
        # text of any statement read stays under the input limit and reads back as the same statement
        dice = " ".join(f"{count}d{sides}" if count > 1 else f"d{sides}"
                        for sides, count in ((sides, len(list(run))) for sides, run in groupby(self.dice)))
        target = f"{self.attribute.lower()} {die_name(self.strength)}" if self.strength is not None else ""
        return join_words("attack", dice, _modes(self.enhanced, self.impaired),
                     f"armor {self.armor}" if self.armor else "", f"grit {self.grit}" if self.grit else "",
                     target)


class Death(Record):
    marked: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return join_words("death", "marked" if self.marked else "")


StepDiceStatement = Save | Step | Attack | Death


# -- grammar ------------------------------------------------------------------------------------

def _track_die(tag: str) -> pp.ParserElement:
    """A die on the track: `d4` … `d12`, or `0` for a die at zero."""

    def fold(s: str, loc: int, t: pp.ParseResults) -> Word:
        word = t[0].lower()
        sides = 0 if word == "0" else integer(word[1:], s, loc)
        if sides not in TRACK:
            raise CruxError(f"'{t[0]}' is not a die on the step-dice track", text=s, position=loc,
                            hint=TRACK_HINT)
        return (tag, sides, loc)

    return pp.Regex(r"(?:[dD]\d+|0)(?![A-Za-z0-9_])").set_parse_action(fold).set_name("a die (d4 … d12, or 0)")


def _attribute() -> pp.ParserElement:
    words = pp.MatchFirst(pp.CaselessKeyword(w) for w in sorted(ATTRIBUTES, key=len, reverse=True))
    return words.set_parse_action(lambda s, loc, t: ("attribute", ATTRIBUTES[t[0].lower()], loc))


def _modes_grammar() -> pp.ParserElement:
    return flag("enhanced", "enhanced", "enh") | flag("impaired", "impaired", "imp")


@functools.cache
def _save_grammar() -> pp.ParserElement:
    vs_number = number().copy().add_parse_action(lambda s, loc, t: ("vs number", t[0], loc))
    vs = (pp.CaselessKeyword("vs") - (vs_number | _track_die("vs die"))).set_parse_action(
        lambda s, loc, t: (t[1][0], t[1][1], loc))  # the position of 'vs', for errors
    return keyword(*SAVE_WORDS).suppress() - pp.Optional(_attribute()) + _track_die("die") + pp.ZeroOrMore(
        vs | _modes_grammar())


def fold_save(words: list[Word], text: str) -> Save:
    attribute = single(words, "attribute", text, "a save has one attribute")
    die = single(words, "die", text, "a save rolls one attribute die")
    vs = [w for w in words if w[0] in ("vs number", "vs die")]
    if len(vs) > 1:
        raise CruxError("a save is against one number or one die", text=text,
                        position=word_start(text, vs[1][2]))
    target = vs[0][1] if vs and vs[0][0] == "vs number" else None
    opposing = vs[0][1] if vs and vs[0][0] == "vs die" else None
    flags = said_once(words, ("enhanced", "impaired"), text)
    return Save(die, attribute, target, opposing, flags["enhanced"], flags["impaired"])


@functools.cache
def _step_grammar() -> pp.ParserElement:
    direction = tagged(keyword("up") | keyword("down"), "direction")
    steps = number().copy().add_parse_action(lambda s, loc, t: ("steps", t[0], loc))
    return keyword(*STEP_WORDS).suppress() - _track_die("die") - direction + pp.Optional(steps)


def fold_step(words: list[Word], text: str) -> Step:
    die = single(words, "die", text, "step one die at a time")
    direction = single(words, "direction", text, "a step goes up or down")
    steps = single(words, "steps", text, "give the number of steps once")
    steps = 1 if steps is None else steps
    return Step(die, steps if direction == "up" else -steps)


@functools.cache
def _attack_grammar() -> pp.ParserElement:
    strength = (keyword("str", "strength").suppress() - _track_die("strength")
                | keyword("dex", "dexterity").suppress() - _track_die("dexterity")
                | keyword("wil", "will", "willpower").suppress() - _track_die("willpower"))
    word = (strength | counted("armor", "armor", "armour") | counted("grit", "grit") | _modes_grammar()
            | pool("dice"))
    return keyword(*ATTACK_WORDS).suppress() + pp.ZeroOrMore(word)


def fold_attack(words: list[Word], text: str) -> Attack:
    groups = [w for w in words if w[0] == "dice"]
    if not groups:
        raise CruxError("an attack needs its dice", text=text, position=len(text.rstrip()),
                        hint="write the weapon dice, like attack d6 or attack d6 d8 armor 1 grit 3")
    if sum(n for _, (n, _), _ in groups) > MAX_DICE and rolling("dice"):
        raise LimitError(f"an attack may roll at most {MAX_DICE:,} dice (the limit)", text=text,
                         position=word_start(text, groups[0][2]))
    past = [w for w in groups if w[1][0] > MAX_DICE or w[1][1] > MAX_SIDES]
    if past or sum(n for _, (n, _), _ in groups) > MAX_DICE:  # odds count them: the odds limit holds them
        from crux_cli.rulesets.stepdice.probability import check_dice

        try:
            check_dice(group for _, group, _ in groups)
        except LimitError as error:
            raise error.at(text, word_start(text, (past or groups)[0][2])) from None
    dice = tuple(sides for _, (n, sides), _ in groups for _ in range(n))
    flags = said_once(words, ("enhanced", "impaired"), text)
    armor = single(words, "armor", text, "a target has one armor score (at most 3)")
    grit = single(words, "grit", text, "a target has one Grit score")
    targets = [w for w in words if w[0] in ("strength", "dexterity", "willpower")]
    if len(targets) > 1:
        raise CruxError("Direct Damage goes to one attribute: give one of str, dex or wil", text=text,
                        position=word_start(text, targets[1][2]))
    attribute = {"strength": "STR", "dexterity": "DEX", "willpower": "WIL"}[targets[0][0]] if targets else "STR"
    strength = targets[0][1] if targets else None
    return Attack(dice, flags["enhanced"], flags["impaired"], armor or 0, grit or 0, strength, attribute)


@functools.cache
def _death_grammar() -> pp.ParserElement:
    return keyword(*DEATH_WORDS).suppress() + pp.Optional(flag("marked", "marked"))


def fold_death(words: list[Word], text: str) -> Death:
    return Death(single(words, "marked", text, "'marked' is said once") is not None)


STATEMENTS: dict[str, tuple[Callable[[], pp.ParserElement], Callable[[list[Word], str], StepDiceStatement], str]] = {
    "save": (_save_grammar, fold_save, "a save"),
    "step": (_step_grammar, fold_step, "a step"),
    "attack": (_attack_grammar, fold_attack, "an attack"),
    "death": (_death_grammar, fold_death, "the Mark of Death"),
}


def statement_kind(first_word: str) -> str:
    word = first_word.lower()
    return "attack" if word in ATTACK_WORDS else word


def parse(text: str, first_word: str) -> StepDiceStatement:
    """Parse a step-dice statement whose first word is `first_word` (one of KEYWORDS)."""
    kind = statement_kind(first_word)
    grammar, fold, name = STATEMENTS[kind]
    scan: Callable[[str, str], list[Any] | None] | None = None
    if FAST_PATH:  # scan.py: a plain statement read without pyparsing
        from crux_cli.rulesets.stepdice.scan import scan
    return scanned_or_parsed(text, kind, scan, grammar, fold, name, HINTS[kind])
