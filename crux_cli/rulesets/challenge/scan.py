"""A fast path in front of the challenge grammar: its statements read without pyparsing, word for word
as grammar.py reads them, or not at all (core/grammar_parts.py, "fast paths"; tests/test_scan_fast_path.py)."""

from __future__ import annotations

from crux_cli.core.grammar_parts import Word, plain_number, plain_pieces
from crux_cli.rulesets.challenge.engine import RISKS
from crux_cli.rulesets.challenge.words import ACTION_WORDS, FORTUNE_WORDS, RESIST_WORDS

ADV_DIS = {"adv": ("adv", "adv"), "advantage": ("adv", "adv"), "dis": ("dis", "dis"), "disadvantage": ("dis", "dis")}
RISK = {risk: ("risk", risk) for risk in RISKS}
SPELLINGS = {"action": ACTION_WORDS, "fortune": FORTUNE_WORDS, "resist": RESIST_WORDS}


def scan(kind: str, text: str) -> list[Word] | None:
    """The tagged words of a `kind` statement (its keyword first), or None for the grammar to read."""
    pieces = plain_pieces(text)
    if pieces is None or len(pieces) < 2 or pieces[0][0].lower() not in SPELLINGS[kind]:
        return None
    piece, loc = pieces[1]
    rating = plain_number(piece, text, loc)
    if rating is None:
        return None
    words: list[Word] = [("rating", rating, loc)]
    rest = pieces[2:]
    if kind == "resist":
        return None if rest else words
    after_risk = False
    for piece, loc in rest:
        word = piece.lower()
        if word in ADV_DIS:
            words.append((*ADV_DIS[word], loc))
        elif kind == "action" and word in RISK:
            words.append((*RISK[word], loc))
            after_risk = True
            continue
        elif after_risk and word == "risk":  # `major risk`: the word says nothing more
            pass
        else:
            return None
        after_risk = False
    return words
