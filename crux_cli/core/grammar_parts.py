"""Grammar pieces the kindred rule sets share: tagged words, dice pools, and folding helpers.

Like the Crux grammar, each statement parses to a list of tagged words
`(tag, value, loc)`; folding turns them into a frozen syntax tree and refuses
contradictions with the position of the word at fault.
"""

from __future__ import annotations

import re
from typing import Any

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import integer, keyword, number, pp, tagged
from crux_cli.core.limits import MAX_DICE, MAX_SIDES, rolling

Word = tuple[str, Any, int]


def flag(tag: str, *spellings: str) -> pp.ParserElement:
    """A keyword that switches something on, tagged `tag`."""
    return tagged(keyword(*spellings), tag)


def counted(tag: str, *spellings: str) -> pp.ParserElement:
    """A keyword followed by a whole number: `armor 2` → (tag, 2, loc)."""
    element = keyword(*spellings).suppress() - number().set_name(f"a number after '{spellings[0]}'")
    return element.set_parse_action(lambda s, loc, t: (tag, t[0], loc))


def pool(tag: str, min_sides: int = 2) -> pp.ParserElement:
    """`NdS` or `dS` → (tag, (count, sides), loc), refusing no dice, too many, or too few sides."""

    def fold(s: str, loc: int, t: pp.ParseResults) -> Word:
        count = integer(t["count"], s, loc) if t.get("count") else 1
        sides = integer(t["sides"], s, loc)
        if count < 1:
            raise CruxError("a pool needs at least one die", text=s, position=loc, hint="write d6 or 1d6")
        if count > MAX_DICE and rolling("dice"):  # odds count them: the rule set's odds limit holds them
            raise LimitError(f"{count:,} dice is more than {MAX_DICE:,} (the limit)", text=s, position=loc)
        if sides < min_sides:
            raise CruxError(f"a die has at least {min_sides} sides", text=s, position=loc)
        if sides > MAX_SIDES and rolling("sides"):
            raise LimitError(f"a die may have at most {MAX_SIDES:,} sides (the limit)", text=s, position=loc)
        return (tag, (count, sides), loc)

    token = pp.Regex(r"(?P<count>\d+)?[dD](?P<sides>\d+)(?![A-Za-z0-9_!])")
    return token.set_parse_action(fold).set_name("dice like d6 or 2d6")


def word_start(text: str, loc: int) -> int:
    """Where the word at `loc` begins: pyparsing may report the whitespace before it."""
    return loc + len(text[loc:]) - len(text[loc:].lstrip())


def single(words: list[Word], tag: str, text: str, why: str) -> Any:
    """The value of the one word tagged `tag`, None if absent; refuse a second one at its position."""
    found = [w for w in words if w[0] == tag]
    if len(found) > 1:
        raise CruxError(why, text=text, position=word_start(text, found[1][2]))
    return found[0][1] if found else None


def said_once(words: list[Word], tags: tuple[str, ...], text: str) -> dict[str, bool]:
    """Flags that may each be given once: {tag: given}."""
    return {tag: single(words, tag, text, f"'{tag}' is said once") is not None for tag in tags}


def count(words: list[Word], tag: str) -> int:
    return sum(1 for w in words if w[0] == tag)


# -- fast paths -----------------------------------------------------------------------------------
# A kindred rule set's common statements are read without pyparsing (imported and built at the
# first statement it reads: most of a one-shot roll's time, tests/bench/bench_startup.py) by a scanner
# of its own (rulesets/<name>/scan.py) made of these pieces: the statement split at spaces and
# tabs, each piece matched whole. A scanner says only what its grammar would say of a plain
# statement, or nothing; whatever it does not know, and every refusal, the grammar reads and words
# (tests/test_scan_fast_path.py compares them).

PLAIN_NUMBER = re.compile(r"[0-9]+")
PLAIN_POOL = re.compile(r"([0-9]+)?[dD]([0-9]+)")


def plain_pieces(text: str) -> list[tuple[str, int]] | None:
    """Each piece of `text` between spaces and tabs, with where it starts; None unless all is ASCII
    (a caseless keyword compares upper cases, in which a few other letters meet ASCII ones)."""
    if not text.isascii():
        return None
    pieces, at = [], 0
    for piece in re.split(r"([ \t]+)", text):
        if piece and piece[0] not in " \t":
            pieces.append((piece, at))
        at += len(piece)
    return pieces


def plain_number(piece: str, text: str, loc: int) -> int | None:
    """A whole number as `number()` reads it (None for anything else; a number over the limit raises)."""
    return integer(piece, text, loc) if PLAIN_NUMBER.fullmatch(piece) else None


def plain_pool(piece: str, text: str, loc: int, tag: str, min_sides: int = 2) -> Word | None:
    """`NdS` or `dS` as `pool(tag)` reads it and checks it (a refusal raises)."""
    match = PLAIN_POOL.fullmatch(piece)
    if match is None:
        return None
    dice_count = integer(match.group(1), text, loc) if match.group(1) else 1
    sides = integer(match.group(2), text, loc)
    if not 1 <= dice_count <= MAX_DICE or not min_sides <= sides <= MAX_SIDES:
        raise CruxError("not a plain pool")  # the grammar words it
    return (tag, (dice_count, sides), loc)
