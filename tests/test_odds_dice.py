"""Odds of generic dice statements against the dice roller itself: every face sequence it can
consume, through scripted dice, weighted and counted, gives exactly the odds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

import crux_cli.dice.engine as engine
from crux_cli.core.errors import CruxError
from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.dice import grammar as notation
from crux_cli.dice import syntax
from crux_cli.dice.probability import statement_odds


def faces_needed(error: AssertionError) -> int:
    """The die size a scripted source ran out on ('... (wanted d6)')."""
    return int(str(error).rsplit("wanted d", 1)[1].rstrip(")"))


def every_roll(statement: syntax.Roll, most_faces: int = 40) -> Iterator[tuple[engine.DiceResult | None, Fraction]]:
    """Depth first over the faces: when the roller wants one more, branch on each face of that die.

    A sequence still unfinished after `most_faces` faces (only `rr` can go on so long here)
    is yielded as None with its probability.
    """
    prefixes: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while prefixes:
        prefix, p = prefixes.pop()
        try:
            result = engine.roll_statement(Roller(ScriptedSource(prefix)), statement)
        except AssertionError as ran_out:
            if len(prefix) >= most_faces:
                yield None, p
                continue
            sides = faces_needed(ran_out)
            prefixes.extend(((*prefix, face), p / sides) for face in range(1, sides + 1))
            continue
        yield result, p


def longest_chain(rolled: engine.Rolled) -> int:
    """The most dice one die's explosions added, anywhere in the rolled tree."""
    if isinstance(rolled, engine.RolledDice):
        longest = run = 0
        for die in rolled.dice:
            if die.parts:
                longest = max(longest, len(die.parts) - 1)
            if not die.added:
                run = 0
            elif not die.rerolled:
                run += 1
                longest = max(longest, run)
        return longest
    if isinstance(rolled, engine.RolledNumber):
        return 0
    if isinstance(rolled, engine.RolledChain):
        return max(longest_chain(rolled.first), *(longest_chain(r) for _, r in rolled.rest))
    return longest_chain(rolled.inner)


def tally(text: str, depth: int, monkeypatch: pytest.MonkeyPatch,
          most_faces: int = 40) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """The roller with its explosion cap one past `depth`: a chain that reaches it is left over.
    Returns the totals, the leftover, and the probability of sequences still unfinished."""
    monkeypatch.setattr(engine, "EXPLOSION_DEPTH", depth + 1)
    totals: Counter[int] = Counter()
    leftover = unfinished = Fraction(0)
    for result, p in every_roll(notation.parse(text), most_faces):
        if result is None:
            unfinished += p
        elif longest_chain(result.rolled) > depth:
            leftover += p
        else:
            totals[result.total] += p
    return {t: p for t, p in sorted(totals.items()) if p}, leftover, unfinished


@pytest.mark.parametrize("text", [
    "3d4", "4d4kh3", "3d4kl1", "4d3dh1", "4d3dl2", "d66", "2dF", "3dFkh2", "0d6 + 2",
    "2d4 * d3 - 1", "(d6 + 1) / d3", "-d4 / 2", "d4 - -2", "2d4 [fire] + d3 [cold]",
    "3d4>=3", "4d4kh2>=3", "3d4=2", "4d4kl2<3",
    "3d4ro1", "2d4ro<3kh1",
    "2d3!", "2d3!kh1", "3d3!kl2", "2d3!dl1", "2d3!>=2kh1", "2d3!<=1kh2", "2d3!!kh1", "2d4!!>=3",
    "2d3>=3!", "2d3ro1!kh1", "2d3ro3!kh1", "d2! + d2!!",
])
def test_odds_match_every_roll(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    depth = 2
    totals, leftover, unfinished = tally(text, depth, monkeypatch)
    assert unfinished == 0
    odds = statement_odds(notation.parse(text), depth=depth)
    assert dict(odds.distribution) == totals
    assert odds.leftover == leftover
    assert odds.mean == sum(t * p for t, p in totals.items())


@pytest.mark.slow  # enumerates every roll of up to 14 faces
@pytest.mark.parametrize("text", ["2d4rr<2", "2d3rr1!", "d4rr>=3kh1 + d2", "2d3rr3!kh1"])
def test_rerolls_that_may_go_on_are_bounded_by_every_roll(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rr` can roll on without end: the rolls finished within 14 faces count at most the exact
    odds, and fall short of them by no more than the probability of the unfinished ones."""
    totals, _, unfinished = tally(text, 2, monkeypatch, most_faces=14)
    odds = dict(statement_odds(notation.parse(text), depth=2).distribution)
    assert 0 < unfinished < Fraction(1, 100)
    assert odds.keys() == totals.keys()
    for total, p in odds.items():
        assert totals[total] <= p <= totals[total] + unfinished


def test_success_counts_are_labelled_so() -> None:
    assert statement_odds(notation.parse("(10d10>=8) [hits]")).label == "successes"
    assert statement_odds(notation.parse("10d10>=8 + 1")).label == "total"


def test_default_cap_and_countdown() -> None:
    odds = statement_odds(notation.parse("4d6!kh3"))
    assert odds.depth == 16 and 0 < odds.leftover < Fraction(1, 10**12)
    assert statement_odds(notation.parse("4d6kh3")).depth is None
    countdown = statement_odds(notation.parse("Cd4"))
    assert dict(countdown.outcomes) == {"holds": Fraction(3, 4), "ends": Fraction(1, 4)}


def test_a_divisor_that_can_be_zero_is_pointed_at() -> None:
    with pytest.raises(CruxError, match="divisor can be 0") as caught:
        statement_odds(notation.parse("d6 / (d3 - 1)"))
    assert caught.value.position == 5
