"""The grammar of d20check statements (crux-notation(7) D20CHECK STATEMENTS, seed 003; rulings in grammar/rulesets.md).

```
check [STAT-NAME] N [trained] [favored ...] [hindered ...]
damage|dmg NdS [+K|-K] [armor N] [immune] [weak]
```
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import integer, join_words, keyword, number, pp, scanned_or_parsed
from crux_cli.core.grammar_parts import Word, count, counted, flag, pool, said_once, single, word_start
from crux_cli.core.limits import MAX_DICE, MAX_SIDES
from crux_cli.core.record import Record, field
from crux_cli.rulesets.d20check.engine import DamageRequest
from crux_cli.rulesets.d20check.words import CHECK_WORDS, DAMAGE_WORDS, HINTS, STAT_NAMES

FAST_PATH = True  # tests turn it off to compare the scanner with the grammar
KEYWORDS = frozenset(CHECK_WORDS + DAMAGE_WORDS)
STAT_MAX = 20  # a Stat above 20 would only make the Difficulty more negative


class Check(Record):
    stat: int
    stat_name: str | None = None  # a label: Might, Dexterity, …
    trained: bool = False
    favored: int = 0  # how many times favored was said (they cancel 1-for-1 with hindered)
    hindered: int = 0
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return join_words("check", self.stat_name, self.stat, "trained" if self.trained else "",
                     *["favored"] * self.favored, *["hindered"] * self.hindered)


class Damage(Record):
    count: int
    sides: int
    flat: int = 0
    armor: int = 0
    immune: bool = False
    weak: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        flat = f"{self.flat:+d}" if self.flat else ""
        return join_words("damage", f"{self.count}d{self.sides}{flat}", f"armor {self.armor}" if self.armor else "",
                     "immune" if self.immune else "", "weak" if self.weak else "")


D20CheckStatement = Check | Damage


@functools.cache
def _check_grammar() -> pp.ParserElement:
    names = pp.MatchFirst(pp.CaselessKeyword(w) for w in sorted(STAT_NAMES, key=len, reverse=True))
    name = names.set_parse_action(lambda s, loc, t: ("stat name", STAT_NAMES[t[0].lower()], loc))
    stat = number().copy().add_parse_action(lambda s, loc, t: ("stat", t[0], loc)).set_name("a Stat")
    words = flag("trained", "trained") | flag("favored", "favored", "favoured", "favor", "favour") | flag(
        "hindered", "hindered", "hinder")
    return keyword(*CHECK_WORDS).suppress() - pp.Optional(name) - stat + pp.ZeroOrMore(words)


def fold_check(words: list[Word], text: str) -> Check:
    name = single(words, "stat name", text, "a check uses one Stat")
    stat_word = next(w for w in words if w[0] == "stat")
    if stat_word[1] > STAT_MAX:
        raise CruxError(f"a Stat of {stat_word[1]} is out of range", text=text, position=word_start(text, stat_word[2]),
                        hint=f"a Stat runs from 0 to {STAT_MAX} (the seed's Stats run from 2 to 7)")
    trained = said_once(words, ("trained",), text)["trained"]
    return Check(stat_word[1], name, trained, count(words, "favored"), count(words, "hindered"))


@functools.cache
def _damage_grammar() -> pp.ParserElement:
    flat = pp.Regex(r"[+-]\s*\d+(?![A-Za-z0-9_])").set_parse_action(
        lambda s, loc, t: ("flat", integer(t[0], s, loc), loc))
    words = counted("armor", "armor", "armour") | flag("immune", "immune") | flag("weak", "weak") | flat
    return keyword(*DAMAGE_WORDS).suppress() - pool("dice") + pp.ZeroOrMore(words)


def fold_damage(words: list[Word], text: str) -> Damage:
    dice_count, sides = single(words, "dice", text, "damage has one pool of dice")
    flat = sum(w[1] for w in words if w[0] == "flat")
    armor = single(words, "armor", text, "a target has one Armor score")
    flags = said_once(words, ("immune", "weak"), text)
    if dice_count > MAX_DICE or sides > MAX_SIDES:  # only odds read it (they count it): the odds limit holds it
        from crux_cli.rulesets.d20check.probability import check_damage

        try:
            check_damage(DamageRequest(dice_count, sides, flat, armor or 0, flags["immune"], flags["weak"]))
        except LimitError as error:
            raise error.at(text, word_start(text, next(w[2] for w in words if w[0] == "dice"))) from None
    return Damage(dice_count, sides, flat, armor or 0, flags["immune"], flags["weak"])


STATEMENTS: dict[str, tuple[Callable[[], pp.ParserElement], Callable[[list[Word], str], D20CheckStatement], str]] = {
    "check": (_check_grammar, fold_check, "a check"),
    "damage": (_damage_grammar, fold_damage, "damage"),
}


def parse(text: str, first_word: str) -> D20CheckStatement:
    """Parse a d20check statement whose first word is `first_word` (one of KEYWORDS)."""
    kind = "check" if first_word.lower() in CHECK_WORDS else "damage"
    grammar, fold, name = STATEMENTS[kind]
    scan: Callable[[str, str], list[Any] | None] | None = None
    if FAST_PATH:  # scan.py: a plain statement read without pyparsing
        from crux_cli.rulesets.d20check.scan import scan
    return scanned_or_parsed(text, kind, scan, grammar, fold, name, HINTS[kind])
