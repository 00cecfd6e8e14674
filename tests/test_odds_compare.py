"""Odds side by side (issue 24): `crux odds 'A; B; C'`, `--cumulative`, the standard deviation, in the command,
a line (`odds A; B` takes the rest of the line) and `crux_cli.odds()`; every number checked by enumeration."""

from __future__ import annotations

import itertools
import json
import math
import statistics
from fractions import Fraction

import pytest
from helpers import crux_here
from hypothesis import given, settings
from hypothesis import strategies as st

import crux_cli
from crux_cli.core.errors import LimitError
from crux_cli.probability.result import deviation, variance
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner


def enumerated(count: int, sides: int, keep: int) -> list[int]:
    """Every equally likely total of `count`d`sides` keep the `keep` highest."""
    return [sum(sorted(faces)[-keep:]) for faces in itertools.product(range(1, sides + 1), repeat=count)]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.sampled_from([2, 3, 4, 6]), st.data())
def test_variance_and_sd_equal_enumeration(count: int, sides: int, data: st.DataObject) -> None:
    keep = data.draw(st.integers(1, count))
    totals = enumerated(count, sides, keep)
    odds = crux_cli.odds(f"{count}d{sides}kh{keep}").odds
    assert variance(odds) == statistics.pvariance([Fraction(t) for t in totals])
    assert math.isclose(deviation(odds) or 0.0, statistics.pstdev(totals), rel_tol=1e-12)


def test_the_mean_line_gives_the_standard_deviation() -> None:
    text = crux_here("odds", "2d6").stdout
    assert text.splitlines()[-1] == "  mean total = 7 · sd ≈ 2.415"
    assert json.loads(crux_here("--json", "odds", "2d6").stdout)["sd"] == 2.415


def test_cumulative_columns_equal_sums_of_the_distribution() -> None:
    lines = crux_here("odds", "--cumulative", "2d6").stdout.splitlines()
    assert lines[1].split() == ["total", "P", "≥", "it", "≤", "it"]
    assert lines[2].split()[:4] == ["2", "2.78%", "100%", "2.78%"]
    assert lines[7].split()[:4] == ["7", "16.67%", "58.33%", "58.33%"]
    record = json.loads(crux_here("--json", "odds", "--cumulative", "2d6").stdout)
    for value in range(2, 13):
        at_least = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= value), 36)
        at_most = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= value), 36)
        assert record["cumulative"][str(value)]["at_least"]["p"] == str(at_least)
        assert record["cumulative"][str(value)]["at_most"]["p"] == str(at_most)


def test_a_comparison_shares_rows_and_differs_from_the_first() -> None:
    done = crux_here("odds", "2d6; 1d12")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "2d6; 1d12: exact odds compared"
    assert lines[1].split() == ["2d6", "1d12", "vs", "1st"]
    row = {line.split()[0]: line.split()[1:] for line in lines[3:] if line.strip()}
    assert row["1"] == ["0%", "8.33%", "+8.33"] and row["7"] == ["16.67%", "8.33%", "-8.33"]
    assert row["mean"] == ["7", "6.5", "-0.5"] and row["sd"][:2] == ["2.415", "3.452"]


def test_a_comparison_of_outcomes() -> None:
    c = crux_cli.compare("DEX +2b; DEX; DEX -1B")
    assert isinstance(c, crux_cli.OddsComparison) and len(c) == 3
    assert [r.outcomes["success"] for r in c] == [Fraction(19, 27), Fraction(1, 3), Fraction(1, 9)]
    record = c.to_dict()
    assert record["kind"] == "comparison" and [x["input"] for x in record["compared"]] == ["DEX +2b", "DEX", "DEX -1B"]
    assert record["compared"][1]["difference"]["outcomes"]["success"]["p"] == str(Fraction(1, 3) - Fraction(19, 27))
    text = str(c).splitlines()
    assert text[2].split() == ["failure", "3.70%", "33.33%", "+29.63", "55.56%", "+51.85"]


def test_odds_takes_the_rest_of_a_line_in_every_mode() -> None:
    expected = crux_here("--no-color", "odds", "2d6; 1d12").stdout.splitlines()
    assert crux_here("--no-color", "--seed", "1", "1d1; odds 2d6; 1d12").stdout.splitlines() == ["1d1: 1 · 1d1 [1]",
                                                                                               *expected]
    assert crux_here("--no-color", "-", stdin="odds 2d6; 1d12\n").stdout.splitlines() == expected
    assert Session(Runner()).handle("odds 2d6; 1d12") == expected
    [comparison] = crux_cli.rolls("odds 2d6; 1d12")
    assert isinstance(comparison, crux_cli.OddsComparison) and str(comparison).splitlines() == expected


def test_a_comparison_is_bounded() -> None:
    with pytest.raises(LimitError, match="more than 10"):
        crux_cli.compare("; ".join(["d6"] * 11))


def test_odds_answers_one_statement_and_compare_several() -> None:
    from crux_cli import CruxError

    with pytest.raises(CruxError, match="answers one statement; these are several"):
        crux_cli.odds("2d6; 1d12")
    with pytest.raises(CruxError, match="separate them"):
        crux_cli.compare("2d6")


def test_a_statement_without_a_distribution_shows_a_dash() -> None:
    lines = crux_here("odds", "DEX; 1d2").stdout.splitlines()
    assert any(line.split() == ["1", "—", "50.00%"] for line in lines)


def test_cumulative_outcome_rows_read_in_order() -> None:
    lines = crux_here("odds", "--cumulative", "DEX +1b").stdout.splitlines()
    assert lines[2].split() == ["partial", "1/3", "33.33%", "≥", "88.89%", "≤", "44.44%", "██████████"]
    record = json.loads(crux_here("--json", "odds", "--cumulative", "DEX +1b").stdout)
    assert record["outcomes_cumulative"]["partial"] == {"at_least": {"p": "8/9", "approx": 0.8889},
                                                        "at_most": {"p": "4/9", "approx": 0.4444}}
    compared = crux_here("odds", "--cumulative", "DEX; DEX +1b").stdout.splitlines()
    assert compared[3].split() == ["partial", "33.33%", "66.67%", "66.67%", "33.33%", "88.89%", "44.44%", "0"]
