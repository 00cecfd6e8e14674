"""Property tests for the kindred grammars: any text parses (and prints back to the same tree) or is
refused with a CruxError whose position is inside the input; a parsed statement always runs and has odds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.rng import Roller, seeded
from crux_cli.core.ruleset import Context
from crux_cli.running.read import parse_statement, read

pytestmark = pytest.mark.slow  # property-based: hundreds of generated examples per test

VALID = {
    "stepdice": ["save d8 vs d6 enhanced", "save STR d4 vs 5 impaired", "step d8 down 2", "death marked",
                 "attack d6 d8 armor 1 grit 3 str d8", "atk 2d6 enhanced armor 5 str 0"],
    "d20check": ["check 4 trained favored", "check might 3 hindered favored", "damage 2d6+1 armor 1 weak",
                 "dmg d8 immune"],
    "challenge": ["action 2 adv major", "action 0 dis minor risk", "fortune 2 adv adv dis", "resist 3"],
}
WORDS = ["save", "step", "attack", "death", "check", "damage", "action", "fortune", "resist", "d4", "d8",
         "d12", "0", "3", "2d6", "vs", "up", "down", "armor", "grit", "str", "enhanced", "impaired", "marked",
         "trained", "favored", "hindered", "immune", "weak", "+1", "-2", "adv", "dis", "major", "risk", "+",
         "9999999999", "#", "\t"]


def answers_or_refuses_cleanly(rules: str, text: str) -> None:
    module = rulesets.load(rules)
    try:
        handler, statement = read(text, module)  # the rule set, or generic dice (every rule set has them)
    except CruxError as error:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(text)
        return
    assert parse_statement(str(statement), module) == statement
    try:
        handler.run(statement, Context(Roller(seeded(1)), None, text))
        if handler is module:
            module.odds(statement, None)
    except CruxError as error:  # only a limit, a dice division by zero, or dice naming a sheet's attribute
        # with no sheet loaded (`1d20 + STR`) may stop a statement that parsed
        assert any(why in error.message for why in ("limit", "division by zero", "no sheet is loaded"))


@pytest.mark.parametrize("rules", list(VALID))
@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=50))
def test_random_text(rules: str, text: str) -> None:
    answers_or_refuses_cleanly(rules, text)


@pytest.mark.parametrize("rules", list(VALID))
@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join))
def test_random_words(rules: str, text: str) -> None:
    answers_or_refuses_cleanly(rules, text)


@pytest.mark.parametrize("rules", list(VALID))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mutated_valid_statements(rules: str, data: st.DataObject) -> None:
    valid = data.draw(st.sampled_from(VALID[rules]))
    at = data.draw(st.integers(0, len(valid)))
    insert = data.draw(st.text(max_size=4))
    delete = data.draw(st.integers(0, 3))
    answers_or_refuses_cleanly(rules, valid[:at] + insert + valid[at + delete:])


@pytest.mark.parametrize("rules", list(VALID))
@pytest.mark.parametrize("text", ["+ str", "+DEX - 1 vs 10"])
def test_dice_that_start_with_an_attribute_read_back_as_dice(rules: str, text: str) -> None:
    """`+ STR` printed as `STR` read back as a rule set's statement (hypothesis found it in stepdice)."""
    answers_or_refuses_cleanly(rules, text)
    assert str(read(text, rulesets.load(rules))[1]).startswith("roll ")
