"""Input as people type and paste it: did-you-mean for a near miss, in the case typed, and the
typographic minus and times sign crux itself prints, read as their ASCII forms."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.running.runner import Runner


def refusal(text: str, rules: str = "crux") -> CruxError:
    with pytest.raises(CruxError) as caught:
        Runner(rules=rules, seed=1).execute(text)
    return caught.value


@pytest.mark.parametrize(("text", "fix"), [
    ("save WIL avd", "adv"),
    ("save WIL AVD", "ADV"),
    ("save WIL Avd", "Adv"),
    ("atk 2d8+3 hevy", "heavy"),
    ("atk 2d8 mediun rushed", "medium"),
    ("save wil adv rushd", "rushed"),
    ("DEX +2", "+2b"),
    ("DEX -1", "-1B"),
])
def test_a_near_miss_is_named_in_the_case_it_was_typed(text: str, fix: str) -> None:
    error = refusal(text)
    assert error.hint is not None and error.hint.startswith(f"did you mean '{fix}'?")


def test_the_hint_still_says_what_the_statement_takes() -> None:
    assert "a save takes" in (refusal("save WIL avd").hint or "")


def test_a_word_nothing_like_the_notation_gets_no_guess() -> None:
    assert "did you mean" not in (refusal("save WIL xyzzy").hint or "")


def test_other_rule_sets_get_guesses_too() -> None:
    assert (refusal("save d8 enhanse", rules="stepdice").hint or "").startswith("did you mean 'enhanced'?")


@pytest.mark.parametrize(("typed", "ascii"), [
    ("DEX −1B", "DEX -1B"),
    ("2×3", "2*3"),
    ("(1−3)×2", "(1-3)*2"),
    ("3× 4d6kh3", "3x 4d6kh3"),
])
def test_the_characters_crux_prints_are_read_as_their_ascii_forms(typed: str, ascii: str) -> None:
    pasted = Runner(seed=5).execute(typed)
    plain = Runner(seed=5).execute(ascii)
    assert [a.result for a in pasted] == [a.result for a in plain]
    assert pasted[0].input == typed  # the answer quotes what was typed


def test_a_position_still_points_at_what_was_typed() -> None:
    error = refusal("DEX −1B avd")
    assert error.position == len("DEX −1B ")
