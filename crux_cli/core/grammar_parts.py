"""Grammar pieces the kindred rule sets share: tagged words, dice pools, and folding helpers.

Like the Crux grammar, each statement parses to a list of tagged words
`(tag, value, loc)`; folding turns them into a frozen syntax tree and refuses
contradictions with the position of the word at fault.
"""

from __future__ import annotations

from typing import Any

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.grammar import integer, keyword, number, pp, tagged
from crux_cli.core.limits import MAX_DICE, MAX_SIDES

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
        if count > MAX_DICE:
            raise LimitError(f"{count:,} dice is more than {MAX_DICE:,} (the limit)", text=s, position=loc)
        if sides < min_sides:
            raise CruxError(f"a die has at least {min_sides} sides", text=s, position=loc)
        if sides > MAX_SIDES:
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
