"""A fast path in front of the Crux grammar: plain regular expressions that split a well-formed
statement into the very tagged words `(tag, value, loc)` the pyparsing grammar yields.

pyparsing spends about a millisecond on a statement (35 element calls); a batch of different
lines is mostly that. Each pattern here is one word of grammar.py, tried in the grammar's own
order with the same keyword boundaries, so the folding code sees identical words and builds an
identical tree. Anything the scanner does not know, and every refusal (a mixed sign, a number over
the limit), returns None and goes through the grammar, which words the error: the scanner never
decides what a statement means, only how fast a plain one is read. tests/test_crux_scan.py checks
word for word against the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import Pattern, integer
from crux_cli.core.vocabulary import ARMOUR_WORDS, ATTRIBUTE_NAMES
from crux_cli.rulesets.crux import syntax

Word = tuple[str, Any, int]
Scanner = Callable[[str, int], tuple[Any, int] | None]  # (text, loc) -> (word or None to skip, end)

GAP = re.compile(r"[ \t]*")
BLANKS = (" ", "\t")
IDENT = "A-Za-z0-9_$"  # pyparsing's keyword characters: a keyword is not part of a longer word


def past_gap(text: str, loc: int) -> int:
    """`loc` moved past any spaces and tabs (GAP always matches, if only the empty string)."""
    if not text.startswith(BLANKS, loc):  # no gap, or one blank (the usual gaps), told without a match
        return loc
    if not text.startswith(BLANKS, loc + 1):
        return loc + 1
    gap = GAP.match(text, loc)
    return gap.end() if gap is not None else loc


def keyword_pattern(*words: str) -> str:
    spelled = "|".join(sorted(words, key=len, reverse=True))
    return rf"(?<![{IDENT}])(?i:{spelled})(?![{IDENT}])"


def keyword(tag: str | None, canonical: dict[str, str]) -> Scanner:
    """A keyword word: (tag, canonical spelling, loc), or the bare spelling when `tag` is None."""
    pattern = Pattern(keyword_pattern(*canonical))

    def scan(text: str, loc: int) -> tuple[Any, int] | None:
        match = pattern.match(text, loc)
        if match is None:
            return None
        word = canonical[match.group().lower()]
        return (word if tag is None else (tag, word, loc)), match.end()

    return scan


def spellings(canonical: str, *others: str) -> dict[str, str]:
    return {word: canonical for word in (canonical, *others)}


ATTRIBUTE = Pattern(keyword_pattern(*ATTRIBUTE_NAMES))
BOONS = Pattern(r"(?P<sign>[+-])?(?P<count>\d+)?(?P<letter>[bB])(?![A-Za-z0-9_])")
BOON_WORDS = keyword_pattern("boon", "boons", "bane", "banes")
COUNTED = Pattern(rf"(?:(?P<count>\d+)(?![A-Za-z0-9_])[ \t]*)?(?P<word>{BOON_WORDS})")
POOL = Pattern(r"(?P<count>\d+)?[dD](?P<sides>\d+)(?![A-Za-z0-9_])")
FLAT = Pattern(r"[+-]\s*\d+(?![A-Za-z0-9_])")
BONUS = Pattern(rf"(?P<sign>[+-])[ \t]*(?P<attribute>{keyword_pattern(*ATTRIBUTE_NAMES)})")
RUSHED = Pattern(rf"{keyword_pattern('rushed')}(?:[ \t]*(?P<count>\d+)(?![A-Za-z0-9_]))?")
VS_RUSHED = Pattern(rf"(?:{keyword_pattern('vs')}[ \t]*)?{keyword_pattern('rushed')}")


def attribute(text: str, loc: int) -> tuple[Word, int] | None:
    match = ATTRIBUTE.match(text, loc)
    return (("attribute", ATTRIBUTE_NAMES[match.group().lower()], loc), match.end()) if match else None


def boons(text: str, loc: int) -> tuple[Word, int] | None:
    """`+2b`, `-1B`, `2b`, `b`: the signs that agree with their letter only (the grammar refuses the others)."""
    match = BOONS.match(text, loc)
    if match is None:
        return None
    sign, is_boon = match["sign"], match["letter"] == "b"
    if (sign == "-" and is_boon) or (sign == "+" and not is_boon):
        raise Refused
    count = integer(match["count"], text, loc) if match["count"] else 1
    return ("boons" if is_boon else "banes", count, loc), match.end()


def counted(text: str, loc: int) -> tuple[Word, int] | None:
    match = COUNTED.match(text, loc)
    if match is None:
        return None
    if not match["count"] and match["word"].lower().endswith("s"):
        raise Refused  # `boons` with no count: the grammar says what it needs
    count = integer(match["count"], text, loc) if match["count"] else 1
    return ("boons" if match["word"].lower().startswith("boon") else "banes", count, loc), match.end()


def pool(text: str, loc: int) -> tuple[Word, int] | None:
    match = POOL.match(text, loc)
    if match is None:
        return None
    count = integer(match["count"], text, loc) if match["count"] else 1
    return ("pool", syntax.Pool(count, integer(match["sides"], text, loc), loc), loc), match.end()


def flat(text: str, loc: int) -> tuple[Word, int] | None:
    match = FLAT.match(text, loc)
    return (("flat", integer(match.group(), text, loc), loc), match.end()) if match else None


def bonus(text: str, loc: int) -> tuple[Word, int] | None:
    match = BONUS.match(text, loc)
    if match is None:
        return None
    name = ATTRIBUTE_NAMES[match["attribute"].lower()]
    return ("bonus", syntax.AttributeBonus(1 if match["sign"] == "+" else -1, name, loc), loc), match.end()


def rushed(text: str, loc: int) -> tuple[Word, int] | None:
    match = RUSHED.match(text, loc)
    if match is None:
        return None
    if match["count"]:
        return ("rushed", integer(match["count"], text, loc), loc), match.end()
    return ("rushed", 1, loc), past_gap(text, match.end())  # the grammar's missing number ends past the gap


def vs_rushed(text: str, loc: int) -> tuple[Word, int] | None:
    match = VS_RUSHED.match(text, loc)
    return (("vs rushed", "rushed", loc), match.end()) if match else None


class Refused(Exception):
    """The grammar would refuse this word: leave the statement to it."""


MODIFIER: tuple[Scanner, ...] = (
    boons, counted,
    keyword("grit", spellings("grit")),
    keyword("help", spellings("help")),
    keyword("position", {w: w for w in ("controlled", "risky", "desperate")}),
    keyword("effect", {w: w for w in ("limited", "standard", "great")}),
)
STANCE = keyword("stance", spellings("adv", "advantaged", "advantage") | spellings("dis", "disadvantaged",
                                                                                     "disadvantage"))
ARMOUR = keyword("armour", ARMOUR_WORDS)
ATTACK_FLAGS: tuple[Scanner, ...] = (
    keyword("resist", spellings("resist", "resistant", "resistance")),
    keyword("vuln", spellings("vuln", "vulnerable", "vulnerability")),
    keyword("minion", spellings("minion")),
    keyword("ranged", spellings("ranged")),
    keyword("melee", spellings("melee")),
)

TEST_HEAD = keyword(None, spellings("test"))
SAVE_HEAD = keyword(None, spellings("save"))
INIT_HEAD = keyword(None, spellings("init", "initiative"))
ATTACK_HEAD = keyword(None, spellings("atk", "attack"))
WORDS: dict[str, tuple[Scanner, ...]] = {  # the words after each statement's head, in the grammar's order
    "test": MODIFIER,
    "save": (STANCE, vs_rushed, *MODIFIER),
    "init": (keyword("ambush", spellings("ambush")), *MODIFIER),
    "atk": (*MODIFIER, flat, bonus, rushed, ARMOUR, *ATTACK_FLAGS),
}


# A word beginning with a sign or a digit can only be one of these (every other word begins with a letter): the
# scanners tried there, in the grammar's order still, skip the keywords that could not match (`atk d8 +2` tries
# two rather than seven)
SIGNED: tuple[Scanner, ...] = (boons, flat, bonus)
NUMBERED: tuple[Scanner, ...] = (boons, counted)
BY_START: dict[str, dict[str, tuple[Scanner, ...]]] = {
    kind: {start: tuple(s for s in scanners if s in (SIGNED if start in "+-" else NUMBERED))
           for start in "+-0123456789"}
    for kind, scanners in WORDS.items()}


def head(kind: str, text: str, loc: int) -> tuple[list[Any], int] | None:
    """The statement word and what the grammar reads right after it, as the grammar yields them."""
    if kind == "test":
        found = TEST_HEAD(text, loc)
        if found is None:
            word = attribute(text, loc)
            return ([word[0]], word[1]) if word else None
        after = attribute(text, past_gap(text, found[1]))
        return ([found[0], after[0]], after[1]) if after else ([found[0]], found[1])
    if kind == "save":
        found = SAVE_HEAD(text, loc)
        word = attribute(text, past_gap(text, found[1])) if found else None
        return ([word[0]], word[1]) if word else None
    found = (INIT_HEAD if kind == "init" else ATTACK_HEAD)(text, loc)
    if found is None:
        return None
    if kind == "atk":
        dice = pool(text, past_gap(text, found[1]))
        if dice is not None:
            return [dice[0]], dice[1]
    return [], found[1]


def scan(kind: str, text: str) -> list[Any] | None:
    """The grammar's words for a plain ASCII statement of `kind`, or None: leave it to the grammar."""
    if not text.isascii():
        return None
    try:
        start = head(kind, text, past_gap(text, 0))
        if start is None:
            return None
        words, loc = start
        every, by_start = WORDS[kind], BY_START[kind]
        end = len(text)
        while True:
            before, loc = loc, past_gap(text, loc)
            if loc == end:
                return words
            for scanner in by_start.get(text[loc], every):
                found = scanner(text, loc)
                if found is not None:
                    break
            else:
                return None
            word, loc = found
            if word[0] == "armour" and words:
                # the grammar reports an armour word after the pool or another word where the whitespace
                # before it began (the grammar's own quirk, kept: error positions come from these)
                word = (word[0], word[1], before)
            words.append(word)
    except (CruxError, Refused, ValueError):  # ValueError: int() of '+\t2', which the grammar meets too
        return None
