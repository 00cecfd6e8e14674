"""The odds renderers: the JSON shape crux(1) lists (JSON OUTPUT), and text with fractions, percentages and bars."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from crux_cli.core.style import PLAIN, Palette
from crux_cli.probability.dist import die
from crux_cli.probability.result import Odds, Table, WeightedRows, dice_odds, names_and_ratios
from crux_cli.render.odds_json import approx, odds_to_json, probability
from crux_cli.render.odds_text import HISTOGRAM_ROWS, bar, odds_text_lines, percent, render_odds
from crux_cli.rulesets.crux.engine import AttackRequest, PoolRequest, Source
from crux_cli.rulesets.crux.probability import attack_odds, pool_odds
from crux_cli.rulesets.crux.words import COLOURS
from crux_cli.running.output import odds_lines
from crux_cli.running.runner import Runner

DEX_2B = PoolRequest("test", "DEX", (Source("boons", 2),))
ATTACK = AttackRequest(2, 8, (Source("rushed", -1),), flat=3, armour="heavy")


def test_json_probabilities_are_exact_strings_beside_floats() -> None:
    assert probability(Fraction(19, 27)) == {"p": "19/27", "approx": 0.7037}
    assert probability(Fraction(1243, 384)) == {"p": "1243/384", "approx": 3.237}
    assert probability(Fraction(1)) == {"p": "1", "approx": 1.0}
    assert approx(Fraction(1, 3 * 10**13)) == 3.333e-14  # tiny values keep their digits


def test_json_of_a_test() -> None:
    data = odds_to_json(pool_odds(DEX_2B))
    assert data["outcomes"] == {
        "failure": {"p": "1/27", "approx": 0.03704},
        "partial": {"p": "7/27", "approx": 0.2593},
        "success": {"p": "19/27", "approx": 0.7037},
    }
    assert list(data["kept"]) == ["1", "2", "3", "4", "5", "6"]
    assert data["grit_gained"]["1"] == {"p": "1/216", "approx": 0.00463}
    assert "distribution" not in data and "leftover" not in data and "mean" not in data
    json.dumps(data)  # plain JSON types only


def test_json_of_an_attack() -> None:
    odds = attack_odds(ATTACK, at_least=10)
    data = odds_to_json(odds)
    assert list(data["outcomes"]) == ["miss", "hit", "crit"]
    assert data["outcomes"]["crit"] == {"p": "1/64", "approx": 0.01562}
    keys = list(data["distribution"])
    assert keys[0] == "0" and keys == [str(v) for v in sorted(int(k) for k in keys)]
    assert Fraction(data["distribution"]["0"]["p"]) == Fraction(15, 64)
    assert Fraction(data["mean"]["p"]) == odds.mean
    assert data["at_least"]["k"] == 10 and Fraction(data["at_least"]["p"]) == odds.at_least.p
    assert Fraction(data["leftover"]["p"]) == Fraction(1, 64) * Fraction(1, 8) ** 14
    assert data["depth"] == 14
    json.dumps(data)


def test_percentages_never_round_to_certainty() -> None:
    assert percent(Fraction(0)) == "0%"
    assert percent(Fraction(1)) == "100%"
    assert percent(Fraction(19, 27)) == "70.37%"
    assert percent(Fraction(1, 10**6)) == "<0.01%"
    assert percent(1 - Fraction(1, 10**6)) == ">99.99%"


def test_bars_in_eighths() -> None:
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 3) == "█▌"
    assert bar(0.0, 10) == ""
    assert bar(1e-9, 10) == "▏"  # something possible is never drawn as nothing


def test_text_of_a_test() -> None:
    text = render_odds(pool_odds(DEX_2B))
    first = text.splitlines()[0]
    assert first.split()[:3] == ["failure", "1/27", "3.70%"]
    assert "success  19/27   70.37%  █████████████████████▏" in text
    assert "kept die" in text and "Grit earned" in text
    assert "mean" not in text and "leftover" not in text


def test_text_of_an_attack() -> None:
    text = render_odds(attack_odds(ATTACK, at_least=10))
    assert "crit   1/64    1.56%  ▌" in text
    assert "damage" in text
    assert "mean damage ≈ 3.237" in text
    assert "P(damage ≥ 10) = 1/64 ≈ 1.56%" in text
    assert ("leftover 3.6e-15: exploding chains longer than 14 re-rolls are not in the table "
            "(the mean and P(≥) count them)") in text


def test_a_wide_distribution_is_grouped_compactly() -> None:
    text = render_odds(dice_odds(die(6).sum_of(100)))
    lines = text.splitlines()
    assert lines[0] == "total"
    histogram = lines[1:lines.index("")]
    assert len(histogram) <= HISTOGRAM_ROWS + 2  # the ranges and the two thin tails
    assert histogram[0].split()[:2] == ["<", "294"]
    assert "mean total = 350" in text


def test_a_narrow_distribution_has_a_row_per_value() -> None:
    text = render_odds(dice_odds(die(6).keep_highest(4, 3), at_least=15))
    assert [line.split()[0] for line in text.splitlines()[1:17]] == [str(v) for v in range(3, 19)]
    assert "mean total = 15869/1296 ≈ 12.24" in text
    assert "P(total ≥ 15) = 25/108 ≈ 23.15%" in text


def test_colour_only_through_the_palette() -> None:
    painted = render_odds(pool_odds(DEX_2B), palette=Palette(True), colours=COLOURS)
    assert "\x1b[32msuccess\x1b[0m  19/27" in painted  # the outcome in its colour
    assert "\x1b[1mkept die\x1b[0m" in painted
    assert not any(line.endswith("\x1b[31m\x1b[0m") for line in painted.splitlines())  # no empty paint
    assert "\x1b[" not in render_odds(pool_odds(DEX_2B))


def _split_and_indented(odds: Odds, palette: Palette, colours: dict[str, str]) -> list[str]:
    """What `crux odds` printed before its lines were written with their margin: the text, split, indented."""
    return [f"  {line}".rstrip() for line in render_odds(odds, palette, colours).splitlines()]


ODDS_SHAPES = {
    "test": pool_odds(DEX_2B),
    "attack": attack_odds(ATTACK, at_least=10),
    "keep": dice_odds(die(6).keep_highest(4, 3), at_least=15),
    "grouped": dice_odds(die(6).sum_of(40)),
    "a title with spaces after it": Odds("plug-in", (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))),
                                         (Table("side", "side  ", (("up", Fraction(1)),)),), label="coins "),
}


@pytest.mark.parametrize("palette", [PLAIN, Palette(True)], ids=["plain", "colour"])
@pytest.mark.parametrize("name", list(ODDS_SHAPES))
def test_lines_written_with_a_margin_read_as_the_text_indented(name: str, palette: Palette) -> None:
    odds = ODDS_SHAPES[name]
    assert odds_text_lines(odds, palette, COLOURS, "  ") == _split_and_indented(odds, palette, COLOURS)
    assert odds_text_lines(odds, palette, COLOURS) == render_odds(odds, palette, COLOURS).split("\n")


@pytest.mark.parametrize("name", ["line\nbreak", "carriage\rreturn", "line\u2028separator", "tab\there"])
def test_a_name_that_breaks_a_line_is_indented_part_by_part(name: str) -> None:
    """A plug-in's outcome named across lines: each part of it keeps the margin, as the text split would."""
    for odds in (Odds("plug-in", ((name, Fraction(1, 3)), ("other", Fraction(2, 3)))),
                 Odds("plug-in", (), (Table("side", f"{name}\n", (("up", Fraction(1)),)),)),
                 dice_odds(die(4), label=name)):
        answer = Runner().odds("1d6").replace(result=odds)
        assert odds_lines(answer, PLAIN, False)[1:] == _split_and_indented(odds, PLAIN, {})


def test_weighted_rows_read_as_the_pairs_they_stand_for() -> None:
    """Rows kept as weights over one denominator (pool odds) are, to every reader, the (name, Fraction) pairs."""
    weighted = WeightedRows(("failure", "partial", "success"), (0, 54, 162), 216)
    pairs = (("failure", Fraction(0)), ("partial", Fraction(1, 4)), ("success", Fraction(3, 4)))
    assert weighted == pairs and pairs == weighted and tuple(weighted) == pairs
    assert hash(weighted) == hash(pairs) and dict(weighted) == dict(pairs)
    assert weighted[1] == pairs[1] and weighted[1:] == pairs[1:] and len(weighted) == 3
    assert weighted == WeightedRows(("failure", "partial", "success"), (0, 1, 3), 4)  # the same odds, reduced
    assert weighted.ratios() == [(0, 1), (1, 4), (3, 4)]  # lowest terms, as a Fraction would be
    (names, ratios), (pair_names, pair_ratios) = names_and_ratios(weighted), names_and_ratios(pairs)
    assert list(names) == list(pair_names) and ratios == pair_ratios


def test_pool_odds_keep_weights_and_write_what_fractions_write() -> None:
    odds = pool_odds(DEX_2B)
    assert isinstance(odds.outcomes, WeightedRows) and all(isinstance(t.rows, WeightedRows) for t in odds.tables)
    as_fractions = odds.replace(outcomes=tuple(odds.outcomes),
                                tables=tuple(t.replace(rows=tuple(t.rows)) for t in odds.tables))
    assert as_fractions == odds
    assert render_odds(as_fractions) == render_odds(odds)
    assert odds_to_json(as_fractions) == odds_to_json(odds)
