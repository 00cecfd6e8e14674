"""A fast path in front of the step-dice grammar: a save read without pyparsing, word for word as
grammar.py reads it, or not at all (core/grammar_parts.py, "fast paths"; tests/test_scan_fast_path.py)."""

from __future__ import annotations

import re

from crux_cli.core.grammar import integer
from crux_cli.core.grammar_parts import Word, plain_number, plain_pieces
from crux_cli.rulesets.stepdice.engine import TRACK
from crux_cli.rulesets.stepdice.words import ATTRIBUTES, SAVE_WORDS

TRACK_DIE = re.compile(r"[dD]([0-9]+)|0")
MODES = {"enhanced": "enhanced", "enh": "enhanced", "impaired": "impaired", "imp": "impaired"}


def track_die(piece: str, text: str, loc: int) -> int | None:
    match = TRACK_DIE.fullmatch(piece)
    if match is None:
        return None
    sides = 0 if piece == "0" else integer(match.group(1), text, loc)
    return sides if sides in TRACK else None


def scan(kind: str, text: str) -> list[Word] | None:
    """The tagged words of a save (its keyword first), or None for the grammar to read."""
    pieces = plain_pieces(text)
    if kind != "save" or pieces is None or len(pieces) < 2 or pieces[0][0].lower() not in SAVE_WORDS:
        return None
    words: list[Word] = []
    rest = iter(pieces[1:])
    piece, loc = next(rest)
    if piece.lower() in ATTRIBUTES:
        words.append(("attribute", ATTRIBUTES[piece.lower()], loc))
        following = next(rest, None)
        if following is None:
            return None
        piece, loc = following
    die = track_die(piece, text, loc)
    if die is None:
        return None
    words.append(("die", die, loc))
    for piece, loc in rest:
        word = piece.lower()
        if word in MODES:
            words.append((MODES[word], MODES[word], loc))
        elif word == "vs":
            against = next(rest, None)
            if against is None:
                return None
            number = plain_number(against[0], text, against[1])
            if number is not None:
                words.append(("vs number", number, loc))
                continue
            die = track_die(against[0], text, against[1])
            if die is None:
                return None
            words.append(("vs die", die, loc))
        else:
            return None
    return words
