"""The grammar of challenge statements (crux-notation(7) CHALLENGE STATEMENTS, seed 004; rulings: grammar/rulesets.md).

```
action N [adv] [dis] [minor|moderate|major [risk]]
fortune N [adv ...] [dis ...]
resist|resistance N
```
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from crux_cli.core.errors import LimitError
from crux_cli.core.grammar import join_words, keyword, number, pp, scanned_or_parsed, tagged
from crux_cli.core.grammar_parts import Word, count, flag, single, word_start
from crux_cli.core.limits import MAX_DICE, rolling
from crux_cli.core.record import Record, field
from crux_cli.rulesets.challenge.engine import DEFAULT_RISK, RISKS
from crux_cli.rulesets.challenge.words import ACTION_WORDS, FORTUNE_WORDS, HINTS, RESIST_WORDS

FAST_PATH = True  # tests turn it off to compare the scanner with the grammar
KEYWORDS = frozenset(ACTION_WORDS + FORTUNE_WORDS + RESIST_WORDS)


class Action(Record):
    rating: int
    advantage: bool = False
    disadvantage: bool = False
    risk: str = DEFAULT_RISK
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return join_words("action", self.rating, "adv" if self.advantage else "", "dis" if self.disadvantage else "",
                     self.risk)


class Fortune(Record):
    rating: int
    advantages: int = 0
    disadvantages: int = 0
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return join_words("fortune", self.rating, *["adv"] * self.advantages, *["dis"] * self.disadvantages)


class Resist(Record):
    rating: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"resist {self.rating}"


ChallengeStatement = Action | Fortune | Resist


def _rating() -> pp.ParserElement:
    return number().copy().add_parse_action(lambda s, loc, t: ("rating", t[0], loc)).set_name("a rating")


def _adv_dis() -> pp.ParserElement:
    return flag("adv", "adv", "advantage") | flag("dis", "dis", "disadvantage")


@functools.cache
def _action_grammar() -> pp.ParserElement:
    risk = tagged(keyword(RISKS[0]) | keyword(RISKS[1]) | keyword(RISKS[2]), "risk") + pp.Optional(
        pp.CaselessKeyword("risk")).suppress()
    return keyword(*ACTION_WORDS).suppress() - _rating() + pp.ZeroOrMore(_adv_dis() | risk)


def _pool_checked(rating_word: Word, extra: int, text: str) -> int:
    """Refuse a pool over the dice limit before anything is rolled; odds count rather than roll
    (core/limits.py `counting`), and the odds limit holds them (probability.py `check_pool`), here
    where the refusal can point at the rating."""
    rating: int = rating_word[1]
    if rating + extra > MAX_DICE:
        if rolling("dice"):
            raise LimitError(f"a challenge roll may roll at most {MAX_DICE:,} dice (the limit)", text=text,
                             position=word_start(text, rating_word[2]))
        from crux_cli.rulesets.challenge.probability import check_pool

        try:
            check_pool(rating + extra)  # (the disadvantages taking dice away are not counted: a bound)
        except LimitError as error:
            raise error.at(text, word_start(text, rating_word[2])) from None
    return rating


def _rating_word(words: list[Word]) -> Word:
    return next(w for w in words if w[0] == "rating")


def fold_action(words: list[Word], text: str) -> Action:
    flags = {tag: single(words, tag, text, f"'{tag}' counts once on an action: 1 die")
             is not None for tag in ("adv", "dis")}
    risk = single(words, "risk", text, "an action has one level of risk")
    rating = _pool_checked(_rating_word(words), int(flags["adv"]), text)
    return Action(rating, flags["adv"], flags["dis"], risk or DEFAULT_RISK)


@functools.cache
def _fortune_grammar() -> pp.ParserElement:
    return keyword(*FORTUNE_WORDS).suppress() - _rating() + pp.ZeroOrMore(_adv_dis())


def fold_fortune(words: list[Word], text: str) -> Fortune:
    advantages, disadvantages = count(words, "adv"), count(words, "dis")
    return Fortune(_pool_checked(_rating_word(words), advantages, text), advantages, disadvantages)


@functools.cache
def _resist_grammar() -> pp.ParserElement:
    return keyword(*RESIST_WORDS).suppress() - _rating()


def fold_resist(words: list[Word], text: str) -> Resist:
    return Resist(_pool_checked(_rating_word(words), 0, text))


STATEMENTS: dict[str, tuple[Callable[[], pp.ParserElement], Callable[[list[Word], str], ChallengeStatement], str]] = {
    "action": (_action_grammar, fold_action, "an action"),
    "fortune": (_fortune_grammar, fold_fortune, "a fortune roll"),
    "resist": (_resist_grammar, fold_resist, "a resistance roll"),
}


def statement_kind(first_word: str) -> str:
    word = first_word.lower()
    return "resist" if word in RESIST_WORDS else word


def parse(text: str, first_word: str) -> ChallengeStatement:
    """Parse a challenge statement whose first word is `first_word` (one of KEYWORDS)."""
    kind = statement_kind(first_word)
    grammar, fold, name = STATEMENTS[kind]
    scan: Callable[[str, str], list[Any] | None] | None = None
    if FAST_PATH:  # scan.py: a plain statement read without pyparsing
        from crux_cli.rulesets.challenge.scan import scan
    return scanned_or_parsed(text, kind, scan, grammar, fold, name, HINTS[kind])
