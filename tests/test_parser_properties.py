"""Property tests: any text gives a statement or a clean error with a position inside the input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.running.read import parse_statement

pytestmark = pytest.mark.slow  # property-based: hundreds of generated examples per test

CRUX = rulesets.load("crux")
VALID = ["DEX +2b -1B grit", "save WIL adv", "init ambush", "atk 2d8+3 heavy rushed", "test risky",
         "atk d6 +1b resist vuln minion", "save STR vs rushed -1B", "WIL 2 boons bane help great"]
WORDS = ["DEX", "save", "atk", "init", "+2b", "-1B", "grit", "help", "heavy", "rushed", "2", "d8", "+", "-",
         "adv", "dis", "vs", "(", ")", "b", "B", "#", ";", "1d6", "9999999999", "\t", " "]


def parses_or_refuses_cleanly(text: str) -> None:
    try:
        statement = parse_statement(text, CRUX)
    except CruxError as error:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(text)
    else:
        # what was understood prints back as notation that means the same
        assert parse_statement(str(statement), CRUX) == statement


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text(text: str):
    parses_or_refuses_cleanly(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))
def test_random_words_of_the_notation(text: str):
    parses_or_refuses_cleanly(text)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VALID), st.integers(0, 40), st.text(max_size=4), st.integers(0, 3))
def test_mutated_valid_statements(valid: str, at: int, insert: str, delete: int):
    at = min(at, len(valid))
    parses_or_refuses_cleanly(valid[:at] + insert + valid[at + delete:])
