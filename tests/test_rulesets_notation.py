"""The kindred rule sets' grammars: what each statement means, canonical text, and errors with positions."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.rulesets import load
from crux_cli.rulesets.challenge import grammar as challenge
from crux_cli.rulesets.d20check import grammar as d20check
from crux_cli.rulesets.stepdice import grammar as stepdice
from crux_cli.running.read import parse_statement


def parse(rules: str, text: str):
    return parse_statement(text, load(rules))


# --- stepdice -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "tree"), [
    ("save d8", stepdice.Save(8)),
    ("save d8 vs 5", stepdice.Save(8, target=5)),
    ("save d8 vs d6 enhanced", stepdice.Save(8, opposing=6, enhanced=True)),
    ("SAVE STR d10 impaired", stepdice.Save(10, attribute="STR", impaired=True)),
    ("save wil d4 enh imp", stepdice.Save(4, attribute="WIL", enhanced=True, impaired=True)),
    ("save 0 vs 0", stepdice.Save(0, target=0)),
    ("save d6 vs 0", stepdice.Save(6, target=0)),
    ("step d8 up", stepdice.Step(8, 1)),
    ("step d8 down 2", stepdice.Step(8, -2)),
    ("step 0 up", stepdice.Step(0, 1)),
    ("attack d6 d8 armor 1 grit 3 str d8", stepdice.Attack((6, 8), armor=1, grit=3, strength=8)),
    ("atk 2d6 d10 enhanced armour 5", stepdice.Attack((6, 6, 10), enhanced=True, armor=5)),
    ("attack grit 2 d6 str 0", stepdice.Attack((6,), grit=2, strength=0)),
    ("death", stepdice.Death()),
    ("death marked", stepdice.Death(marked=True)),
])
def test_stepdice_statements(text: str, tree: object) -> None:
    assert parse("stepdice", text) == tree


@pytest.mark.parametrize("text", [
    "save d8", "save d8 vs 5", "save STR d8 vs d6 enhanced", "step d8 down 2", "step d12 up",
    "attack d6 d8 armor 1 grit 3 str d8", "attack d6 impaired", "death marked",
])
def test_stepdice_canonical_text_reads_back_the_same(text: str) -> None:
    tree = parse("stepdice", text)
    assert str(tree) == text
    assert parse("stepdice", str(tree)) == tree


@pytest.mark.parametrize(("text", "message", "position"), [
    ("save d7", "not a die on the step-dice track", 5),
    ("save", "ended too soon", 4),
    ("save d8 vs 4 vs d6", "one number or one die", 13),
    ("save d8 enhanced enhanced", "said once", 17),
    ("save d8 vs d20", "not a die on the step-dice track", 11),
    ("step d8", "ended too soon", 7),
    ("step d8 sideways", "does not take 'sideways'", 8),
    ("attack", "needs its dice", 6),
    ("attack d6 armor", "ended too soon", 15),
    ("attack d6 armor 1 armor 2", "one armor score", 18),
    ("attack d6 str d7", "not a die on the step-dice track", 14),
    ("attack d6 foo", "does not take 'foo'", 10),
    ("attack d1", "at least 2 sides", 7),
    ("attack 0d6", "at least one die", 7),
    ("death twice", "does not take 'twice'", 6),
    ("check 4", "not a statement", 0),  # a d20check statement is not stepdice
])
def test_stepdice_errors_say_what_and_where(text: str, message: str, position: int) -> None:
    with pytest.raises(CruxError, match=message) as caught:
        parse("stepdice", text)
    assert caught.value.position == position
    assert caught.value.text == text


@pytest.mark.parametrize("text", ["attack 2000d6", "attack 600d6 600d6", "attack d20000"])
def test_stepdice_limits_are_refused_by_name(text: str) -> None:
    with pytest.raises(LimitError, match="limit"):
        parse("stepdice", text)


# --- d20check -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "tree"), [
    ("check 4", d20check.Check(4)),
    ("check 4 trained favored", d20check.Check(4, trained=True, favored=1)),
    ("check might 3 hindered favoured", d20check.Check(3, "Might", favored=1, hindered=1)),
    ("check 2 favored favored hindered", d20check.Check(2, favored=2, hindered=1)),
    ("damage 2d6 armor 1 weak", d20check.Damage(2, 6, armor=1, weak=True)),
    ("dmg d8+2 immune", d20check.Damage(1, 8, flat=2, immune=True)),
    ("damage 3d4 - 1 armour 2", d20check.Damage(3, 4, flat=-1, armor=2)),
])
def test_d20check_statements(text: str, tree: object) -> None:
    assert parse("d20check", text) == tree


@pytest.mark.parametrize("text", ["check 4 trained favored", "check Might 3 hindered",
                                  "damage 2d6+1 armor 1 weak", "damage 1d8 immune"])
def test_d20check_canonical_text_reads_back_the_same(text: str) -> None:
    tree = parse("d20check", text)
    assert str(tree) == text
    assert parse("d20check", str(tree)) == tree


@pytest.mark.parametrize(("text", "message", "position"), [
    ("check", "ended too soon", 5),
    ("check trained", "does not take 'trained'", 6),
    ("check 4 trained trained", "said once", 16),
    ("check 21", "out of range", 6),
    ("check 4 lucky", "does not take 'lucky'", 8),
    ("damage", "ended too soon", 6),
    ("damage armor 2", "does not take 'armor'", 7),
    ("damage 2d6 armor 1 armor 2", "one Armor score", 19),
    ("damage 2d6 weak weak", "said once", 16),
])
def test_d20check_errors_say_what_and_where(text: str, message: str, position: int) -> None:
    with pytest.raises(CruxError, match=message) as caught:
        parse("d20check", text)
    assert caught.value.position == position


# --- challenge ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "tree"), [
    ("action 2", challenge.Action(2)),
    ("action 2 adv major", challenge.Action(2, advantage=True, risk="major")),
    ("action 3 major risk dis", challenge.Action(3, disadvantage=True, risk="major")),
    ("action 0 minor", challenge.Action(0, risk="minor")),
    ("fortune 1", challenge.Fortune(1)),
    ("fortune 2 adv adv dis", challenge.Fortune(2, advantages=2, disadvantages=1)),
    ("resist 3", challenge.Resist(3)),
    ("resistance 0", challenge.Resist(0)),
])
def test_challenge_statements(text: str, tree: object) -> None:
    assert parse("challenge", text) == tree


@pytest.mark.parametrize("text", ["action 2 adv major", "action 1 dis minor", "fortune 2 adv adv dis",
                                  "resist 3"])
def test_challenge_canonical_text_reads_back_the_same(text: str) -> None:
    tree = parse("challenge", text)
    assert str(tree) == text
    assert parse("challenge", str(tree)) == tree


@pytest.mark.parametrize(("text", "message", "position"), [
    ("action", "ended too soon", 6),
    ("action adv", "does not take 'adv'", 7),
    ("action 2 adv adv", "counts once", 13),
    ("action 2 major minor", "one level of risk", 15),
    ("action 2 extreme", "does not take 'extreme'", 9),
    ("fortune", "ended too soon", 7),
    ("resist 3 adv", "does not take 'adv'", 9),
    ("action -1", "does not take '-1'", 7),
])
def test_challenge_errors_say_what_and_where(text: str, message: str, position: int) -> None:
    with pytest.raises(CruxError, match=message) as caught:
        parse("challenge", text)
    assert caught.value.position == position


@pytest.mark.parametrize("text", ["action 1001", "fortune 1000 adv", "resist 5000", "action 99999999999"])
def test_challenge_pools_over_the_dice_limit_are_refused(text: str) -> None:
    with pytest.raises(LimitError, match="limit"):
        parse("challenge", text)


def test_an_unknown_first_word_names_the_rule_set_and_suggests() -> None:
    with pytest.raises(CruxError, match="challenge rules") as caught:
        parse("challenge", "acton 2")
    assert caught.value.hint == "did you mean 'action'?"
