"""A fast path in front of the step-dice grammar: a save read without pyparsing, word for word as
grammar.py reads it, or not at all (core/grammar_parts.py, "fast paths"; tests/test_scan_fast_path.py)."""

from __future__ import annotations

import re

from crux_cli.core.grammar import integer
from crux_cli.core.grammar_parts import Word, plain_number, plain_pieces, plain_pool
from crux_cli.rulesets.stepdice.engine import TRACK
from crux_cli.rulesets.stepdice.words import ATTACK_WORDS, ATTRIBUTES, DEATH_WORDS, SAVE_WORDS, STEP_WORDS

TRACK_DIE = re.compile(r"[dD]([0-9]+)|0")
MODES = {"enhanced": "enhanced", "enh": "enhanced", "impaired": "impaired", "imp": "impaired"}


def track_die(piece: str, text: str, loc: int) -> int | None:
    match = TRACK_DIE.fullmatch(piece)
    if match is None:
        return None
    sides = 0 if piece == "0" else integer(match.group(1), text, loc)
    return sides if sides in TRACK else None


HEADS = {"save": SAVE_WORDS, "step": STEP_WORDS, "attack": ATTACK_WORDS, "death": DEATH_WORDS}
TARGETS = {"str": "strength", "strength": "strength", "dex": "dexterity", "dexterity": "dexterity",
           "wil": "willpower", "will": "willpower", "willpower": "willpower"}  # the attack's `str DIE`
COUNTED = {"armor": "armor", "armour": "armor", "grit": "grit"}


def scan(kind: str, text: str) -> list[Word] | None:
    """The tagged words of a `kind` statement (its keyword first), or None for the grammar to read."""
    pieces = plain_pieces(text)
    if pieces is None or not pieces or pieces[0][0].lower() not in HEADS[kind]:
        return None
    if kind == "save":
        return save(text, pieces) if len(pieces) >= 2 else None
    if kind == "step":
        return step(text, pieces[1:])
    if kind == "attack":
        return attack(text, pieces[1:])
    if len(pieces) == 1:
        return []
    return [("marked", "marked", pieces[1][1])] if len(pieces) == 2 and pieces[1][0].lower() == "marked" else None


def step(text: str, pieces: list[tuple[str, int]]) -> list[Word] | None:
    """`step DIE up|down [N]`."""
    if not 2 <= len(pieces) <= 3 or pieces[1][0].lower() not in ("up", "down"):
        return None
    die = track_die(pieces[0][0], text, pieces[0][1])
    if die is None:
        return None
    words: list[Word] = [("die", die, pieces[0][1]), ("direction", pieces[1][0].lower(), pieces[1][1])]
    if len(pieces) == 3:
        steps = plain_number(pieces[2][0], text, pieces[2][1])
        if steps is None:
            return None
        words.append(("steps", steps, pieces[2][1]))
    return words


def attack(text: str, pieces: list[tuple[str, int]]) -> list[Word] | None:
    """`attack DICE... [enhanced] [impaired] [armor A] [grit G] [str|dex|wil DIE]`, words in any order."""
    words: list[Word] = []
    rest = iter(pieces)
    for piece, loc in rest:
        word = piece.lower()
        if word in MODES:
            words.append((MODES[word], MODES[word], loc))
            continue
        if word in TARGETS or word in COUNTED:
            following = next(rest, None)
            if following is None:
                return None
            value = (track_die if word in TARGETS else plain_number)(following[0], text, following[1])
            if value is None:
                return None
            words.append((TARGETS[word], value, following[1]) if word in TARGETS else (COUNTED[word], value, loc))
            continue
        dice = plain_pool(piece, text, loc, "dice")
        if dice is None:
            return None
        words.append(dice)
    return words


def save(text: str, pieces: list[tuple[str, int]]) -> list[Word] | None:
    """`save [STR|DEX|WIL] DIE [vs N | vs DIE] [enhanced] [impaired]`."""
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
