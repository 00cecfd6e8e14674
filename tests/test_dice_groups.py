"""Grouped rolls `{A, B}kh1`, `min(…)`, `max(…)` and the sort modifier `s` (issue 24): read back canonically, rolled as
written, and their exact odds equal to brute force over every way the dice fall."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import crux_here, roll
from helpers.brute import brute_odds
from hypothesis import given, settings
from hypothesis import strategies as st

import crux_cli
from crux_cli.core.errors import CruxError, LimitError
from crux_cli.dice import engine, scan, syntax
from crux_cli.dice import grammar as notation
from crux_cli.dice.probability import statement_odds


@pytest.mark.parametrize(("text", "faces", "total"), [
    ("{1d8, 1d10}kh1", [3, 7], 7),
    ("{1d8, 1d10}kl1", [3, 7], 3),
    ("{4d6kh3, 4d6kh3, 4d6kh3}", [1, 2, 3, 4, 6, 6, 6, 6, 1, 1, 1, 1], 9 + 18 + 3),
    ("{3d6, 3d6, 3d6}dl1", [1, 1, 1, 6, 6, 6, 2, 2, 2], 18 + 6),
    ("{3d6, 3d6, 3d6}dh1", [1, 1, 1, 6, 6, 6, 2, 2, 2], 3 + 6),
    ("{1d6, 1d6}kh5", [2, 3], 5),  # keeping more items than there are keeps all
    ("max(1d20, 1d20) + 5", [4, 17], 22),
    ("min(1d20, 1d20)", [4, 17], 4),
    ("min(2d6, 7)", [6, 6], 7),
    ("{1d6, 2}k", [1], 2),  # k is kh
    ("4d6s", [5, 1, 3, 1], 10),
])
def test_rolls(text: str, faces: list[int], total: int) -> None:
    assert roll(text, faces).total == total


def test_text_marks_the_items_that_do_not_count_and_sorts_the_shown_dice() -> None:
    result = roll("{1d8, 1d10}kh1 + 4d6kh3s", [3, 7, 5, 1, 3, 1])
    from crux_cli.core.style import PLAIN
    from crux_cli.dice.render import describe

    assert describe(result, PLAIN) == "16 · {~~1d8 [3]~~, 1d10 [7]}kh1 + 4d6kh3s [~~1~~, 1, 3, 5]"
    # ties: the earlier item goes
    assert describe(roll("max(1d20, 1d20)", [4, 4]), PLAIN) == "4 · max(~~1d20 [4]~~, 1d20 [4])"


def test_json_lists_each_group_with_its_items() -> None:
    [line] = crux_here("--json", "--seed", "3", "{1d8, 1d10}kh1 + 1").stdout.splitlines()
    record = json.loads(line)
    [group] = record["groups"]
    assert group["notation"] == "{1d8, 1d10}kh1" and [i["notation"] for i in group["items"]] == ["1d8", "1d10"]
    assert sum(i["value"] for i in group["items"] if i["kept"]) == group["value"] == record["total"] - 1
    assert [t["notation"] for t in record["terms"]] == ["1d8", "1d10"]


@pytest.mark.parametrize("text", ["{1d8, 1d10}kh1", "{4d6kh3, 4d6kh3, 4d6kh3}", "{3d6, 3d6, 3d6}dl1",
                                  "max(1d20, 1d20) + 5", "min(2d6, 7)", "{1d100, 1d20}kl1", "4d6kh3s", "10d10>=8s",
                                  "{1d6 [fire], 1d8 [cold]}kh1", "max(min(1d6, 1d8), 3)", "{1d6, 1d6}kh5"])
def test_canonical_text_reads_back(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    statement = notation.parse(text)
    assert str(statement) == text and notation.parse(str(statement)) == statement
    monkeypatch.setattr(notation, "FAST_PATH", False)
    assert repr(scan.scan(text)) == repr(notation.parse(text))  # the fast path reads groups as the grammar does


@pytest.mark.parametrize(("text", "message", "position"), [
    ("{}", "does not take '}'", 1),
    ("max()", "does not take '\\)'", 4),
    ("{1d6, 1d6} kh1", "does not take 'kh1'", 11),
    ("4d6ss", "one sort", 4),
    ("{1d6, 1d6", "ended too soon", None),
    ("{600d6, 600d6}", "1,000 dice", None),
])
def test_refusals(text: str, message: str, position: int | None) -> None:
    with pytest.raises(CruxError, match=message) as refused:
        crux_cli.roll(text)
    if position is not None:
        assert refused.value.position == position


def test_the_item_limit() -> None:
    with pytest.raises(LimitError, match="items in one group"):
        notation.parse("{" + ", ".join(["1"] * 101) + "}")


def test_min_and_max_start_a_dice_statement_in_every_rule_set() -> None:
    for rules in ("crux", "stepdice", "d20check", "challenge"):
        assert crux_cli.roll("max(1d1, 0)", rules=rules).total == 1


def test_odds_of_max_of_two_d20() -> None:
    odds = crux_cli.odds("max(1d20, 1d20)")
    assert odds.mean == Fraction(553, 40) and odds.distribution is not None
    assert odds.distribution[20] == Fraction(39, 400)


def test_odds_of_very_different_items_are_refused_past_the_limit() -> None:
    with pytest.raises(LimitError, match="odds size limit"):
        crux_cli.odds("{10d10, 10d12, 10d10, 10d10, 10d10}kh3")


ITEM = st.one_of(
    st.builds(lambda n, s, mod: f"{n}d{s}{mod}", st.integers(1, 2), st.sampled_from([2, 3, 4]),
              st.sampled_from(["", "kh1", "s", "kl1s"])),
    st.integers(0, 4).map(str),
)


@st.composite
def groups(draw: st.DrawFn) -> str:
    items = draw(st.lists(ITEM, min_size=1, max_size=3))
    inside = ", ".join(items)
    form = draw(st.sampled_from(["{}", "{}kh1", "{}kl1", "{}dh1", "{}dl1", "{}kh2", "{}dl2", "min", "max"]))
    text = f"{form}({inside})" if form in ("min", "max") else "{" + inside + "}" + form[2:]
    return text + draw(st.sampled_from(["", " + 1", " * 2"]))


@settings(max_examples=80, deadline=None)
@given(groups())
def test_odds_equal_brute_force(text: str) -> None:
    statement = notation.parse(text)
    assert isinstance(statement, syntax.Roll)
    odds = statement_odds(statement)
    counted = brute_odds(lambda roller: engine.roll_statement(roller, statement), lambda r: r.total)
    assert odds.distribution is not None
    assert dict(odds.distribution) == {v: p for v, p in sorted(counted.items()) if p}


@pytest.mark.parametrize("text", ["{" * 33 + "1" + "}" * 33, "max(" * 33 + "1" + ")" * 33])
def test_groups_count_toward_the_nesting_limit(text: str) -> None:
    with pytest.raises(LimitError, match="32 levels") as refused:
        notation.parse(text)
    assert refused.value.position == text.index("1") - 1  # at the 33rd opening


def test_a_keep_of_many_different_items_is_refused_before_it_takes_long() -> None:
    from helpers import counting

    text = "{" + ", ".join(f"1d{6 + i}" for i in range(30)) + "}kh3"
    crux_cli.odds("{1d6, 1d8}kh1")  # the grammar loaded
    with counting() as work, pytest.raises(LimitError, match="odds size limit"):
        crux_cli.odds(text)
    assert work.calls < 150_000  # about 13,000
    assert crux_cli.roll(text).total > 0  # rolling it still works


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.sampled_from([4, 6, 10]), st.sampled_from(["", "kh2", "dl1", "!", "rr1", ">=3"]),
       st.data())
def test_sorting_shows_the_same_dice_in_order_and_changes_nothing_else(count: int, sides: int, modifier: str,
                                                                       data: st.DataObject) -> None:
    faces = data.draw(st.lists(st.integers(1, sides - 1), min_size=60, max_size=60))  # no explosions run away
    faces += [2] * count  # and `rr1` ends even when every drawn face was a 1
    plain, ordered = f"{count}d{sides}{modifier}", f"{count}d{sides}{modifier}s"

    def rolled(text: str):
        from crux_cli.core.rng import Roller, ScriptedSource

        statement = notation.parse(text)
        return engine.roll_statement(Roller(ScriptedSource(faces)), statement).rolled

    a, b = rolled(plain), rolled(ordered)
    assert a.value == b.value and sorted(a.dice, key=lambda d: d.value) == list(b.dice)
    assert [d.value for d in b.dice] == sorted(d.value for d in b.dice)
    assert statement_odds(notation.parse(ordered)) == statement_odds(notation.parse(plain))


def test_the_prompt_colours_a_group_keep_and_min_max() -> None:
    from crux_cli import rulesets
    from crux_cli.repl.lexer import fragments

    shown = fragments("max(1d20, 1d20) + {1d8, 1d10}kh1 + 4d6s", rulesets.load("crux"))
    assert ("class:keyword", "max") in shown and ("class:dice", "kh1") in shown and ("class:dice", "4d6s") in shown
