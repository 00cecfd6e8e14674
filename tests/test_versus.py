"""Targets and opposed rolls on plain dice (issue 24): `EXPR vs N` passes when the total reaches N, and
`EXPR vs EXPR` is won by the higher total, equal totals a tie. Rolls, odds, text and JSON, checked
against brute force over every way the dice fall."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import crux_here, roll
from helpers.brute import brute_odds, nonzero
from hypothesis import given, settings
from hypothesis import strategies as st

import crux_cli
from crux_cli.core.errors import CruxError
from crux_cli.dice import engine, scan, syntax
from crux_cli.dice import grammar as notation
from crux_cli.dice.probability import statement_odds


@pytest.mark.parametrize(("text", "faces", "outcome", "margin"), [
    ("1d20+5 vs 15", [10], "pass", 0),  # reaching the target is a pass (>=)
    ("1d20+5 vs 15", [9], "fail", -1),
    ("1d20 vs 10+5", [20], "pass", 5),  # a target with no dice is worked out, not rolled
    ("1d20+3 vs 1d20+5", [12, 10], "tie", 0),  # equal totals: a tie, no side wins
    ("1d20+3 vs 1d20+5", [13, 10], "win", 1),
    ("1d20+3 vs 1d20+5", [1, 20], "lose", -21),
    ("4d6kh3 vs 3d6", [1, 6, 6, 6, 6, 6, 6], "tie", 0),
])
def test_outcome_and_margin(text: str, faces: list[int], outcome: str, margin: int) -> None:
    result = roll(text, faces)
    assert (result.outcome, result.margin) == (outcome, margin)


def test_text_and_json() -> None:
    done = crux_here("--no-color", "--seed", "5", "1d20+5 vs 15; 1d20+3 vs 1d20+5")
    assert done.stdout.splitlines() == ["1d20+5 vs 15: fail −4 · 11 · 1d20 [6] + 5 vs 15",
                                        "1d20+3 vs 1d20+5: win +7 · 13 · 1d20 [10] + 3 vs 6 · 1d20 [1] + 5"]
    target, opposed = (json.loads(line) for line in crux_here("--json", "--seed", "5",
                                                             "1d20+5 vs 15; 1d20+3 vs 1d20+5").stdout.splitlines())
    assert {k: target[k] for k in ("kind", "expression", "total", "target", "outcome", "margin")} == {
        "kind": "target", "expression": "1d20 + 5", "total": 11, "target": 15, "outcome": "fail", "margin": -4}
    assert target["terms"] == [{"notation": "1d20", "value": 6, "dice": [{"value": 6, "kept": True}]}]
    assert (opposed["kind"], opposed["outcome"], opposed["margin"], opposed["total"]) == ("opposed", "win", 7, 13)
    assert opposed["against"]["expression"] == "1d20 + 5" and opposed["against"]["total"] == 6


def test_odds_of_a_target_and_an_opposed_roll() -> None:
    target = crux_cli.odds("1d20+5 vs 15")
    assert target.kind == "target" and target.outcomes == {"pass": Fraction(11, 20), "fail": Fraction(9, 20)}
    assert target.mean == Fraction(1, 2) and target.distribution is not None and min(target.distribution) == -9
    opposed = crux_cli.odds("1d20+3 vs 1d20+5")
    assert opposed.outcomes == {"win": Fraction(153, 400), "tie": Fraction(9, 200), "lose": Fraction(229, 400)}
    assert opposed.mean == -2
    record = opposed.to_dict()
    assert record["kind"] == "opposed" and record["outcomes"]["tie"] == {"p": "9/200", "approx": 0.045}
    assert record["distribution"]["-21"]["p"] == "1/400"


SIDE = st.builds(lambda n, s, k, op: f"{n}d{s}{op}" + (f"+{k}" if k else ""), st.integers(1, 2),
                 st.sampled_from([2, 3, 4, 6]), st.integers(0, 3), st.sampled_from(["", "kh1", "kl1", "ro1"]))


@settings(max_examples=60, deadline=None)
@given(SIDE, st.one_of(SIDE, st.integers(-2, 12).map(str)))
def test_odds_equal_brute_force(mine: str, other: str) -> None:
    text = f"{mine} vs {other}"
    statement = notation.parse(text)
    assert isinstance(statement, syntax.Versus) and statement.opposed == ("d" in other)

    def roll_once(roller):
        return engine.roll_versus(roller, statement)

    odds = statement_odds(statement)
    assert nonzero(odds.outcomes) == nonzero(brute_odds(roll_once, lambda r: r.outcome))
    assert dict(odds.distribution) == brute_odds(roll_once, lambda r: r.margin)


def test_canonical_text_reads_back() -> None:
    for text in ("1d20 + 5 vs 15", "2x 1d20 vs 1d20 + 2", "4d6kh3 vs (2d6 + 1) * 2", "1d6 vs -3"):
        statement = notation.parse(text)
        assert str(statement) == text and notation.parse(str(statement)) == statement


@pytest.mark.parametrize(("text", "position", "message"), [
    ("1d20 vs", 7, "ended too soon"),
    ("1d20 vs 2 vs 3", 10, "does not take 'vs'"),
    ("1d20 versus 3", 5, "does not take 'versus'"),
])
def test_refusals_point_at_the_mistake(text: str, position: int, message: str) -> None:
    with pytest.raises(CruxError, match=message) as refused:
        notation.parse(text)
    assert refused.value.position == position


def test_the_fast_path_reads_vs_as_the_grammar_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 38: `vs` stays on the fast path (no pyparsing); the scanner's tree is the grammar's own
    monkeypatch.setattr(notation, "FAST_PATH", False)
    for text in ("1d20+5 vs 15", "1d20+3 vs 1d20+5", "2d6 + 1 vs 2d6"):
        assert scan.scan(text) is not None and repr(scan.scan(text)) == repr(notation.parse(text)), text


def test_limits_count_both_sides() -> None:
    with pytest.raises(CruxError, match="limit"):
        crux_cli.roll("600d6 vs 600d6")


def test_stepdice_save_vs_keeps_its_meaning_and_plain_dice_get_vs_in_every_rule_set() -> None:
    for rules in ("crux", "stepdice", "d20check", "challenge"):
        assert crux_cli.roll("d20 vs 1", rules=rules, seed=1).outcome == "pass"
    assert crux_cli.roll("save d8 vs 5", rules="stepdice", seed=1).kind == "save"


def test_the_prompt_colours_vs_as_a_word_of_the_notation() -> None:
    from crux_cli import rulesets
    from crux_cli.repl.lexer import fragments

    for name in ("crux", "stepdice"):
        assert ("class:keyword", "vs") in fragments("1d20+5 vs 1d20", rulesets.load(name))


@pytest.mark.parametrize(("text", "faces", "shown"), [
    ("1d20+5 vs 15", [8], "fail −2"),  # the sign crux prints before a number: U+2212, as a modifier's −1
    ("1d20+5 vs 15", [10], "pass +0"),
    ("1d20+3 vs 1d20+5", [10, 12], "lose −4"),
])
def test_a_margins_minus_is_the_sign_crux_prints(text: str, faces: list[int], shown: str) -> None:
    from crux_cli.core.style import PLAIN
    from crux_cli.dice.render import versus_text

    line = versus_text(roll(text, faces), PLAIN)
    assert line.startswith(shown + " · ") and "-" not in line.split(" · ")[0]
    # the JSON keeps the margin a number, and a stream that cannot carry U+2212 reads `-` (running.streams)
    record = json.loads(crux_here("--json", "--seed", "1", text).stdout)
    assert isinstance(record["margin"], int)
