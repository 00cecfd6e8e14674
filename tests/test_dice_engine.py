"""Every dice operator against scripted dice: parse → roll, through the runner as a user's statement is."""

from __future__ import annotations

import pytest
from helpers import roll

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.core.rng import Roller, ScriptedSource, seeded
from crux_cli.dice import engine
from crux_cli.dice.grammar import parse
from crux_cli.running.runner import Runner


def faces(result: engine.DiceResult) -> list[tuple[int, bool]]:
    """(face, kept) of every die of the first dice term."""
    term = next(node for node in walk(result.rolled) if isinstance(node, engine.RolledDice))
    return [(d.value, d.kept) for d in term.dice]


def walk(rolled: engine.Rolled):
    yield rolled
    for child in ("inner", "first"):
        if hasattr(rolled, child):
            yield from walk(getattr(rolled, child))
    for _, operand in getattr(rolled, "rest", ()):
        yield from walk(operand)


def only_term(result: engine.DiceResult) -> engine.RolledDice:
    assert isinstance(result.rolled, engine.RolledDice)
    return result.rolled


# -- dice ------------------------------------------------------------------------------------------

def test_n_dice_add_up():
    assert roll("3d6", [1, 4, 6]).total == 11


def test_a_bare_d_is_one_die():
    assert roll("d20", [17]).total == 17


def test_percentile_is_a_d100():
    assert roll("d%", [100]).total == 100


def test_d66_reads_two_d6_as_tens_and_ones():
    result = roll("d66", [3, 5])
    assert result.total == 35 and faces(result) == [(35, True)]


def test_2d66_adds_two_d66_results():
    assert roll("2d66", [1, 1, 6, 6]).total == 11 + 66


@pytest.mark.parametrize(("die_faces", "total"), [([1, 1, 1, 1], -4), ([2, 2, 2, 2], 0), ([3, 3, 3, 1], 2)])
def test_fudge_dice_are_minus_one_zero_or_plus_one(die_faces, total):
    assert roll("4dF", die_faces).total == total


def test_zero_dice_come_to_zero():
    assert roll("0d6", []).total == 0


# -- keep and drop ---------------------------------------------------------------------------------

def test_keep_highest():
    result = roll("4d6kh3", [2, 4, 4, 5])
    assert result.total == 13 and faces(result) == [(2, False), (4, True), (4, True), (5, True)]


def test_k_is_keep_highest():
    assert roll("4d6k3", [2, 4, 4, 5]).total == 13


def test_keep_lowest():
    result = roll("2d20kl1", [7, 15])
    assert result.total == 7 and faces(result) == [(7, True), (15, False)]


def test_drop_lowest():
    result = roll("5d6dl2", [1, 6, 2, 5, 3])
    assert result.total == 14 and [kept for _, kept in faces(result)] == [False, True, False, True, True]


def test_drop_highest_defaults_to_one():
    assert roll("3d6dh", [6, 1, 2]).total == 3


def test_among_equal_faces_the_earlier_die_is_dropped():
    for rule in ("kh2", "kl2", "dh1", "dl1"):
        assert faces(roll(f"3d6{rule}", [4, 4, 4])) == [(4, False), (4, True), (4, True)], rule


def test_keeping_more_dice_than_there_are_keeps_all():
    assert roll("2d6kh5", [3, 4]).total == 7


# -- explosions ------------------------------------------------------------------------------------

def test_a_top_face_explodes_again_and_again():
    term = only_term(roll("d6!", [6, 6, 2]))
    assert term.value == 14
    assert [(d.value, d.exploded, d.added) for d in term.dice] == [(6, True, False), (6, True, True), (2, False, True)]


def test_explosion_on_a_threshold():
    assert roll("2d10!>=9", [9, 3, 5]).total == 17


def test_compounding_sums_the_chain_into_one_die():
    term = only_term(roll("2d6!!", [6, 6, 2, 4]))
    assert term.value == 18 and [(d.value, d.parts) for d in term.dice] == [(14, (6, 6, 2)), (4, ())]


def test_explosion_dice_can_be_dropped_by_keep():
    result = roll("2d6!kh2", [6, 1, 3])  # 6 explodes into 1; the 3 is the second die
    assert result.total == 9 and faces(result) == [(6, True), (1, False), (3, True)]


def test_an_exploding_chain_stops_after_the_depth_cap():
    roller = Roller(ScriptedSource([2] * (EXPLOSION_DEPTH + 1)))
    result = engine.roll_statement(roller, parse("d2!"))
    assert len(only_term(result).dice) == EXPLOSION_DEPTH + 1 and result.total == 2 * (EXPLOSION_DEPTH + 1)


def test_explosions_count_against_the_dice_limit_as_they_happen():
    roller = Roller(ScriptedSource([6, 6, 6, 6]), limit=3)
    with pytest.raises(LimitError, match="more than 3 dice"):
        engine.roll_statement(roller, parse("d6!"))


# -- rerolls ---------------------------------------------------------------------------------------

def test_reroll_again_while_the_face_matches():
    term = only_term(roll("d6rr1", [1, 1, 4]))
    assert term.value == 4 and [(d.value, d.rerolled, d.kept) for d in term.dice] == [
        (1, True, False), (1, True, False), (4, False, True)]


def test_reroll_once_keeps_the_second_face_whatever_it_is():
    assert roll("d6ro<3", [2, 1]).total == 1


def test_rerolled_faces_are_not_kept_or_dropped_by_keep():
    result = roll("3d6rr1kh2", [1, 5, 2, 6])
    assert result.total == 11 and faces(result) == [(1, False), (5, True), (2, False), (6, True)]


def test_explosion_dice_are_rerolled_too():
    assert roll("d6rr1!", [6, 1, 3]).total == 9


# -- success counting -----------------------------------------------------------------------------

def test_success_counting_counts_the_dice_that_pass():
    term = only_term(roll("5d10>=8", [8, 2, 10, 7, 9]))
    assert term.value == 3 and [d.success for d in term.dice] == [True, False, True, False, True]


def test_success_counting_looks_only_at_kept_dice():
    assert roll("3d10kh2>=8", [9, 9, 10]).total == 2


def test_success_counting_on_exploding_dice():
    assert roll("2d10>=8!", [10, 3, 8]).total == 2


def test_successes_take_part_in_arithmetic():
    assert roll("3d6>=5 + 1", [5, 6, 1]).total == 3


# -- arithmetic ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "total"), [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 2 - 3", 5), ("7 / 2", 3), ("-7 / 2", -4), ("7 / -2", -4),
    ("-(2 + 3)", -5), ("--2", 2), ("1 - -2", 3), ("2 * -3", -6), ("+4", 4), ("8 / 2 / 2", 2), ("0d6 + 5", 5),
])
def test_arithmetic(text, total):
    assert roll(text, []).total == total


def test_dice_in_arithmetic():
    assert roll("(2d4+1)*3", [2, 3]).total == 18


def test_unary_minus_on_dice():
    assert roll("-1d6", [4]).total == -4


def test_division_by_zero_points_at_the_divisor():
    with pytest.raises(CruxError, match="division by zero") as caught:
        roll("1d6 / (1d1 - 1)", [3, 1])
    assert caught.value.position == 6


def test_labels_do_not_change_values():
    result = roll("2d20kl1 + 5 [fire]", [7, 15])
    assert result.total == 12


# -- repetition, limits before rolling, countdowns -------------------------------------------------

def test_nx_gives_one_answer_each_with_its_index():
    source = ScriptedSource([1, 2, 3, 4] * 6)
    answers = Runner(source=source).execute("6x 4d6kh3")
    assert [a.index for a in answers] == [1, 2, 3, 4, 5, 6] and {a.result.total for a in answers} == {9}
    assert source.left == 0


def test_repeat_option_answers_any_statement_again():
    answers = Runner(source=ScriptedSource([5, 1, 6]), repeat=3).execute("DEX")
    assert [(a.index, a.result.kept) for a in answers] == [(1, 5), (2, 1), (3, 6)]


def test_a_single_answer_has_no_index():
    assert Runner(source=ScriptedSource([3])).execute("d6")[0].index is None


def test_the_dice_limit_refuses_before_any_die_is_rolled():
    for text in ("999d6 + 999d6", "6x 200d6", "(600d6) * 2 - 500d6"):
        source = ScriptedSource([])  # any die rolled would fail the test with AssertionError
        with pytest.raises(LimitError, match="1,000 dice"):
            Runner(source=source).execute(text)


def test_rerolls_count_against_the_dice_limit():
    with pytest.raises(LimitError):
        Runner(seed=1).execute("1d10000rr<10000")


def test_repetitions_share_the_dice_limit():
    assert len(Runner(seed=1, repeat=333).execute("DEX +2b")) == 333
    with pytest.raises(LimitError, match="1,000 dice"):
        Runner(seed=1, repeat=1000).execute("1000d6")


def test_too_many_repetitions_are_refused():
    with pytest.raises(LimitError, match="1,000"):
        Runner(repeat=500).execute("3x d6")


@pytest.mark.parametrize(("sides", "face", "outcome", "next_sides"), [
    (8, 5, "holds", 8), (8, 1, "shrinks", 6), (20, 1, "shrinks", 12), (6, 1, "shrinks", 4), (4, 1, "ends", None),
    (4, 2, "holds", 4)])
def test_countdown_dice_shrink_on_a_one_and_end_on_cd4(sides, face, outcome, next_sides):
    result = engine.roll_countdown(Roller(ScriptedSource([face])), sides)
    assert (result.face, result.outcome, result.next_sides) == (face, outcome, next_sides)


def test_countdown_through_the_runner():
    assert roll("Cd8", [1]).outcome == "shrinks"


def test_a_countdown_die_of_no_size_is_refused():
    with pytest.raises(CruxError, match="Cd7"):
        engine.roll_countdown(Roller(seeded(1)), 7)


def test_one_parse_rolls_differently_each_time():
    statement = parse("10d6")
    roller = Roller(seeded(3))
    totals = {engine.roll_statement(roller, statement).total for _ in range(20)}
    assert len(totals) > 3


def test_a_seeded_roller_draws_the_faces_randint_would():
    """Roller.die and Roller.dice skip randint for crux-dice-1; a seed must still give the faces randint gives."""
    for seed in range(20):
        roller, reference = Roller(seeded(seed)), seeded(seed)
        for sides in [1, 2, 3, 6, 7, 20, 100, 1000, 4097, 10_000] * 10:
            assert roller.die(sides) == reference.randint(1, sides)
        for count, sides in [(4, 6), (30, 20), (3, 100), (2, 256)]:
            assert roller.dice(count, sides) == [reference.randint(1, sides) for _ in range(count)]
    limited = Roller(seeded(1), limit=3)
    limited.dice(3, 6)
    with pytest.raises(LimitError):
        limited.die(6)
