"""A fast path in front of the d20check grammar: its statements read without pyparsing, word for word
as grammar.py reads them, or not at all (core/grammar_parts.py, "fast paths"; tests/test_scan_fast_path.py)."""

from __future__ import annotations

import re

from crux_cli.core.grammar import integer
from crux_cli.core.grammar_parts import Word, plain_number, plain_pieces, plain_pool
from crux_cli.rulesets.d20check.words import CHECK_WORDS, DAMAGE_WORDS, STAT_NAMES

CHECK_FLAGS = {spelling: tag for tag, spellings in (
    ("trained", ("trained",)), ("favored", ("favored", "favoured", "favor", "favour")),
    ("hindered", ("hindered", "hinder"))) for spelling in spellings}
DAMAGE_FLAGS = {"immune": "immune", "weak": "weak"}
ARMOR = ("armor", "armour")
FLAT = re.compile(r"[+-][0-9]+")


def scan(kind: str, text: str) -> list[Word] | None:
    """The tagged words of a `kind` statement (its keyword first), or None for the grammar to read."""
    pieces = plain_pieces(text)
    if pieces is None or len(pieces) < 2 or pieces[0][0].lower() not in (CHECK_WORDS if kind == "check" else
                                                                          DAMAGE_WORDS):
        return None
    return check(text, pieces[1:]) if kind == "check" else damage(text, pieces[1:])


def check(text: str, pieces: list[tuple[str, int]]) -> list[Word] | None:
    words: list[Word] = []
    piece, loc = pieces[0]
    if piece.lower() in STAT_NAMES:
        words.append(("stat name", STAT_NAMES[piece.lower()], loc))
        pieces = pieces[1:]
        if not pieces:
            return None
        piece, loc = pieces[0]
    stat = plain_number(piece, text, loc)
    if stat is None:
        return None
    words.append(("stat", stat, loc))
    for piece, loc in pieces[1:]:
        tag = CHECK_FLAGS.get(piece.lower())
        if tag is None:
            return None
        words.append((tag, tag, loc))
    return words


GLUED = re.compile(r"([0-9]*[dD][0-9]+)([+-][0-9]+)")  # `d8+2`: the pool and its flat damage in one piece


def damage(text: str, pieces: list[tuple[str, int]]) -> list[Word] | None:
    piece, loc = pieces[0]
    glued = GLUED.fullmatch(piece)
    dice = plain_pool(glued.group(1) if glued else piece, text, loc, "dice")
    if dice is None:
        return None
    words: list[Word] = [dice]
    if glued is not None:
        at = loc + glued.start(2)
        words.append(("flat", integer(glued.group(2), text, at), at))
    rest = iter(pieces[1:])
    for piece, loc in rest:
        word = piece.lower()
        if word in DAMAGE_FLAGS:
            words.append((DAMAGE_FLAGS[word], DAMAGE_FLAGS[word], loc))
        elif FLAT.fullmatch(piece):
            words.append(("flat", integer(piece, text, loc), loc))
        elif word in ARMOR:
            value = next(rest, None)
            armor = plain_number(value[0], text, value[1]) if value is not None else None
            if armor is None:
                return None
            words.append(("armor", armor, loc))
        else:
            return None
    return words
