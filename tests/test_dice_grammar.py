"""The dice grammar: the trees it builds, which statements it is asked to read, and each limit of §5."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from crux_cli import rulesets
from crux_cli.core.errors import CruxError, LimitError
from crux_cli.dice import syntax
from crux_cli.dice.grammar import parse
from crux_cli.dice.handler import DICE
from crux_cli.running.read import read

CRUX = rulesets.load("crux")


def expr(text: str) -> syntax.Expr:
    statement = parse(text)
    assert isinstance(statement, syntax.Roll)
    return statement.expr


def refusal(text: str, rules=CRUX) -> CruxError:
    with pytest.raises(CruxError) as caught:
        read(text, rules)
    return caught.value


# -- trees -----------------------------------------------------------------------------------------

def test_modifiers_nest_in_the_order_they_apply():
    assert expr("4d6kh3rr1!>=6>=5") == syntax.Successes(
        syntax.Keep(syntax.Explode(syntax.Reroll(syntax.Dice(4, 6), syntax.Compare("=", 1), once=False),
                                   syntax.Compare(">=", 6)),
                 highest=True, count=3),
        syntax.Compare(">=", 5))


def test_sums_and_products_are_flat_and_keep_precedence():
    assert expr("1 + 2 * 3 - 4") == syntax.Sum(syntax.Number(1), (
        ("+", syntax.Product(syntax.Number(2), (("*", syntax.Number(3)),))), ("-", syntax.Number(4))))


def test_five_hundred_terms_are_one_flat_node():
    tree = expr("1" + "+1" * 499)
    assert isinstance(tree, syntax.Sum) and len(tree.rest) == 499


def test_a_label_attaches_to_the_atom_before_it():
    assert expr("2d20kl1 + 5 [fire]") == syntax.Sum(
        syntax.Keep(syntax.Dice(2, 20), False, 1), (("+", syntax.Labelled(syntax.Number(5), "fire")),))


def test_special_dice():
    assert expr("d%") == syntax.Dice(1, 100)
    assert expr("3d66") == syntax.D66(3)
    assert expr("2dF") == syntax.Fudge(2)


def test_repeat_and_countdown_statements():
    assert parse("6x 4d6kh3") == syntax.Roll(syntax.Keep(syntax.Dice(4, 6), True, 3), repeat=6)
    assert parse("roll Cd8") == syntax.Countdown(8)
    assert parse("2x Cd10") == syntax.Countdown(10, repeat=2)


def test_positions_do_not_take_part_in_equality():
    assert expr("  1d6") == expr("1d6")


# -- dispatch: which handler reads a statement -----------------------------------------------------

@pytest.mark.parametrize("text", ["4d6kh3", "d6", "D20", "d%", "dF", "Cd8", "roll 2d6", "ROLL d6", "(1d6)",
                                  "-1d6", "+3", "6x 4d6", "12"])
def test_dice_statements_go_to_the_dice_handler(text):
    handler, _ = read(text, CRUX)
    assert handler is DICE


@pytest.mark.parametrize("text", ["DEX +1b", "save WIL", "atk 2d8+3", "init"])
def test_rule_set_statements_stay_with_the_rule_set(text):
    assert read(text, CRUX)[0] is CRUX


def test_dice_work_in_any_rule_set():
    other = SimpleNamespace(name="other", keywords=frozenset({"check"}),
                            parse=lambda text, word: ("other", text))
    assert read("check 4", other) == (other, ("other", "check 4"))
    handler, statement = read("2d20kl1 + 3", other)
    assert handler is DICE and isinstance(statement, syntax.Roll)


def test_an_unknown_word_is_not_read_as_dice():
    error = refusal("dexx +1b")
    assert "not a statement" in error.message and error.hint == "did you mean 'dex'?"
    assert "not a statement" in refusal("foo").message


def test_a_keyword_of_the_rule_set_wins_over_dice():
    ruleset = SimpleNamespace(name="odd", keywords=frozenset({"roll"}), parse=lambda text, word: "rule set")
    assert read("roll 2d6", ruleset) == (ruleset, "rule set")


# -- errors with positions -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "position", "words"), [
    ("1d6 +", 5, "ended too soon"),
    ("2d6 d6", 4, "does not take 'd6'"),
    ("1 + 1d1!", 7, "explodes on every face"),
    ("4d6kh3kl1", 6, "one keep or drop"),
    ("4d6 kh3", 4, "does not take 'kh3'"),
    ("d6 [a] [b]", 7, "does not take '['"),
    ("１d6", 0, "fullwidth digit one"),
    ("1d6 ＋ 2", 4, "fullwidth plus sign"),
])
def test_errors_point_at_the_problem(text, position, words):
    error = refusal(text)
    assert words in error.message and error.position == position and error.text == text


# -- each limit of crux-notation(7) LIMITS ----------------------------------------------------------------------

def test_limit_dice_per_statement_is_checked_where_the_count_is_written():
    error = refusal("1 + 1001d6")
    assert isinstance(error, LimitError) and "1,000" in error.message and error.position == 4
    assert isinstance(refusal("501d66"), LimitError)  # a d66 is two dice
    assert isinstance(read("1000d6", CRUX)[1], syntax.Roll)  # the limit itself is allowed


def test_limit_sides():
    error = refusal("2d10001")
    assert isinstance(error, LimitError) and "10,000 sides" in error.message and error.position == 2
    assert read("d10000", CRUX)[1] == syntax.Roll(syntax.Dice(1, 10000))


def test_limit_input_length():
    error = refusal("1+" * 500 + "1")
    assert isinstance(error, LimitError) and "1,000" in error.message
    assert read("1" + "+1" * 499, CRUX)  # 999 characters


def test_limit_nesting_of_parentheses():
    assert read("(" * 32 + "1d6" + ")" * 32, CRUX)
    error = refusal("(" * 33 + "1" + ")" * 33)
    assert isinstance(error, LimitError) and "32 levels" in error.message
    assert read(" + ".join(["(1)"] * 40), CRUX)  # many brackets, none deep: the quick check defers to the count
    assert read("1d6\t+ 2", CRUX)  # a tab is not printable, and still welcome


def test_limit_nesting_of_signs():
    assert expr("-" * 32 + "1") == syntax.Number(1)
    error = refusal("-" * 33 + "1")
    assert isinstance(error, LimitError) and "33 signs" in error.message


def test_limit_integers():
    assert expr("1000000000") == syntax.Number(10**9)
    error = refusal("1000000001")
    assert isinstance(error, LimitError) and "1,000,000,000" in error.message
    assert isinstance(refusal("9" * 999), LimitError)  # refused before int() ever sees 999 digits


def test_limit_repetitions():
    assert parse("1000x 1").repeat == 1000
    assert isinstance(refusal("1001x 1"), LimitError)


def test_endless_explosions_and_rerolls_are_refused():
    for text in ("1d1!", "d6!>=1", "d6!!<7", "d2rr1!", "dF!>=0rr<0"):
        assert "never stop" in refusal(text).message, text
    assert "never stop" in refusal("d6rr<7").message
    assert read("d6ro<7", CRUX)  # once is bounded
    assert read("d6rr6!", CRUX)  # rerolling 6s means no explosion at all: pointless but finite


@pytest.mark.parametrize("text", ["", "   ", "\x00", "1d6\x07", "\u202e1d6", "1d\u200b6", "\ufeff1d6", "1d6\x1b[31m"])
def test_empty_and_invisible_input_is_refused(text):
    error = refusal(text)
    assert error.message and (error.position is None or 0 <= error.position <= len(text))
