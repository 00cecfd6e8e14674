"""Property tests for dice: any text is rolled and shown, or refused cleanly; rolled totals obey the rules."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.rng import Roller, ScriptedSource, seeded
from crux_cli.core.style import PLAIN
from crux_cli.dice import engine, syntax
from crux_cli.render.jsonl import line
from crux_cli.render.text import answer_line
from crux_cli.running.read import read
from crux_cli.running.runner import Answer

pytestmark = pytest.mark.slow  # property-based: hundreds of generated examples per test

CRUX = rulesets.load("crux")
VALID = ["4d6kh3", "roll 2d20kl1 + 5 [fire]", "d66", "6x 4d6kh3", "d6!", "Cd8", "(2d4+1)*3", "d%", "5d6dl2",
         "10d10>=8!", "4d6rr1kh3", "3d10!!>=9", "-(2d6 - 1) / 2", "4dF + 1", "2d6ro<3 * 3 [x]", "1 - -2"]
WORDS = ["d", "d6", "4d6", "d%", "d66", "dF", "Cd8", "kh", "kl", "k", "dh", "dl", "3", "!", "!!", ">=", "<", "=",
         "rr", "ro", "1", "+", "-", "*", "/", "(", ")", "[", "]", "[fire]", "x", "6x", "roll", " ", "1000",
         "9999999999", "0", "#", "\t", "66", "06", "%", "F"]


def rolls_or_refuses_cleanly(text: str) -> None:
    """A result or a CruxError with a position inside the input; never another exception."""
    try:
        handler, statement = read(text, CRUX)
        if handler is not CRUX:
            assert read(str(statement), CRUX)[1] == statement, "canonical form reads back the same"
            result = handler.run(statement, SimpleContext(Roller(seeded(len(text)))))
            assert isinstance(result.total, int)
            answer = Answer(text, "crux", result, handler=handler.name)
            assert answer_line(answer, PLAIN) and json.loads(line(answer))["total"] == result.total
    except CruxError as error:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(error.text or text)


class SimpleContext:
    def __init__(self, roller: Roller) -> None:
        self.roller, self.hero, self.text = roller, None, ""


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=80))
def test_random_text(text: str):
    rolls_or_refuses_cleanly(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=16).map("".join))
def test_random_run_of_dice_notation(text: str):
    rolls_or_refuses_cleanly(text)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(VALID), st.integers(0, 40), st.text(max_size=4) | st.sampled_from(WORDS), st.integers(0, 3))
def test_mutated_valid_statements(valid: str, at: int, insert: str, delete: int):
    at = min(at, len(valid))
    rolls_or_refuses_cleanly(valid[:at] + insert + valid[at + delete:])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["(", ")", "-", "1d6", "+", "*", "[a]"]), max_size=200).map("".join))
def test_deep_and_long_input_never_escapes_as_recursion(text: str):
    rolls_or_refuses_cleanly(text)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.integers(1, 20), st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 12),
       st.data())
def test_keep_and_drop_match_a_sorted_model(count: int, sides: int, rule: str, n: int, data: st.DataObject):
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    result = engine.roll_statement(Roller(ScriptedSource(faces)), read(f"{count}d{sides}{rule}{n}", CRUX)[1])
    ordered = sorted(faces)
    n = min(n, count)
    expected = {"kh": ordered[count - n:], "kl": ordered[:n], "dh": ordered[:count - n], "dl": ordered[n:]}[rule]
    assert result.total == sum(expected)
    assert sorted(d.value for d in result.rolled.dice if d.kept) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.sampled_from([2, 4, 6, 10, 20]), st.integers(0, 2**32))
def test_exploding_totals_are_at_least_the_dice_and_every_added_die_follows_a_top_face(count, sides, seed):
    statement = read(f"{count}d{sides}!", CRUX)[1]
    result = engine.roll_statement(Roller(seeded(seed)), statement)
    dice = result.rolled.dice
    assert result.total >= count and sum(not d.added for d in dice) == count
    for before, after in itertools.pairwise(dice):
        assert after.added == (before.value == sides)


@settings(max_examples=200, deadline=None)
@given(st.integers(-10**6, 10**6), st.integers(-1000, 1000).filter(bool))
def test_division_floors_toward_minus_infinity(a: int, b: int):
    statement = read(f"{a} / {b}", CRUX)[1]
    assert engine.roll_statement(Roller(ScriptedSource([])), statement).total == a // b


def test_round_trip_of_every_node_type():
    for text in VALID:
        statement = read(text, CRUX)[1]
        assert read(str(statement), CRUX)[1] == statement
    assert isinstance(read("Cd8", CRUX)[1], syntax.Countdown)


# -- trees built at random: canonical text reads back as the same tree -------------------------------

def compares(low: int = 0, high: int = 12) -> st.SearchStrategy[syntax.Compare]:
    return st.builds(syntax.Compare, st.sampled_from(syntax.COMPARISONS), st.integers(low, high))


@st.composite
def dice_terms(draw: st.DrawFn) -> syntax.DiceTerm:
    term: syntax.DiceTerm = draw(st.one_of(
        st.builds(syntax.Dice, st.integers(0, 5), st.integers(2, 12).filter(lambda n: n != 66)),
        st.builds(syntax.D66, st.integers(0, 3)), st.builds(syntax.Fudge, st.integers(0, 5))))
    if draw(st.booleans()):
        term = syntax.Reroll(term, syntax.Compare("=", 1), once=draw(st.booleans()))
    if draw(st.booleans()):
        term = syntax.Explode(term, draw(st.none() | st.just(syntax.Compare(">=", 12))), draw(st.booleans()))
    if draw(st.booleans()):
        term = draw(st.sampled_from([syntax.Keep, syntax.Drop]))(term, draw(st.booleans()), draw(st.integers(0, 4)))
    if draw(st.booleans()):
        term = syntax.Successes(term, draw(compares()))
    return term


def expressions() -> st.SearchStrategy[syntax.Expr]:
    leaves = st.builds(syntax.Number, st.integers(0, 10**9)) | dice_terms()
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds(syntax.Group, inner),
        st.builds(syntax.Labelled, inner.filter(lambda e: not isinstance(e, syntax.Negate | syntax.Sum | syntax.Product
                                                                       | syntax.Labelled)),
                  st.text("abc fire", min_size=1, max_size=8).map(lambda s: " ".join(s.split()))),
        st.builds(syntax.Negate,
                  inner.filter(lambda e: not isinstance(e, syntax.Negate | syntax.Sum | syntax.Product))),
        st.builds(syntax.Product, inner.filter(lambda e: not isinstance(e, syntax.Sum | syntax.Product)),
                  st.lists(st.tuples(st.sampled_from("*/"), inner.filter(
                      lambda e: not isinstance(e, syntax.Sum | syntax.Product))), min_size=1, max_size=3).map(tuple)),
        st.builds(syntax.Sum, inner.filter(lambda e: not isinstance(e, syntax.Sum)),
                  st.lists(st.tuples(st.sampled_from("+-"), inner.filter(lambda e: not isinstance(e, syntax.Sum))),
                           min_size=1, max_size=3).map(tuple)),
    ), max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(expressions(), st.integers(1, 3))
def test_canonical_text_of_any_tree_reads_back_the_same(expr: syntax.Expr, repeat: int):
    statement = syntax.Roll(expr, repeat)
    try:
        assert read(str(statement), CRUX)[1] == statement, str(statement)
    except CruxError as error:  # only what the parser refuses on purpose: endless rolls, the dice limit
        assert "never stop" in error.message or "limit" in error.message, (str(statement), error.message)
