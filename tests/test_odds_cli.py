"""`crux odds` as a user runs it: the command, its text and its JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from helpers import crux_here


def odds_json(*args: str) -> dict:
    result = crux_here("--json", "odds", *args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_the_acceptance_values() -> None:
    record = odds_json("DEX +2b")
    assert (record["input"], record["kind"], record["rules"]) == ("DEX +2b", "test", "crux")
    assert record["outcomes"]["success"] == {"p": "19/27", "approx": 0.7037}
    assert odds_json("DEX -2B")["outcomes"]["failure"] == {"p": "19/27", "approx": 0.7037}
    save = odds_json("save WIL adv")
    assert save["outcomes"]["partial"] == {"p": "1/3", "approx": 0.3333}
    assert save["effect"]["resisted"]["p"] == "5/9"


def test_text_has_fractions_percentages_and_bars() -> None:
    result = crux_here("odds", "DEX +2b")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "DEX +2b: exact odds"
    assert lines[3] == "  success  19/27   70.37%  █████████████████████▏"
    assert "\x1b[" not in result.stdout  # piped: no colour


def test_an_attack_with_at_least() -> None:
    record = odds_json("--at-least", "10", "atk 2d8+3 heavy rushed")
    assert list(record["outcomes"]) == ["miss", "hit", "crit"]
    assert record["outcomes"]["crit"]["p"] == "1/64"
    assert record["at_least"]["k"] == 10
    # exact: the table's values from 10 up, and every chain it leaves out (each deals far more than 10)
    assert Fraction(record["at_least"]["p"]) == sum(
        Fraction(v["p"]) for k, v in record["distribution"].items() if int(k) >= 10) + Fraction(
        record["leftover"]["p"])
    assert Fraction(record["leftover"]["p"]) == Fraction(1, 64) * Fraction(1, 8) ** 14
    total = sum(Fraction(v["p"]) for v in record["distribution"].values())
    assert total + Fraction(record["leftover"]["p"]) == 1
    text = crux_here("odds", "atk 2d8+3 heavy rushed", "--at-least", "10").stdout
    assert "  P(damage ≥ 10) = 1/64 ≈ 1.56%" in text
    assert "  leftover 3.6e-15: exploding chains longer than 14 re-rolls are not in the table" in text


def test_initiative_and_ambush() -> None:
    assert odds_json("init")["actions"]["3"]["p"] == "1/3"
    assert odds_json("init ambush")["actions"]["3"]["p"] == "1"


def test_at_least_needs_a_distribution() -> None:
    result = crux_here("odds", "--at-least", "3", "DEX +1b")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "--at-least counts damage or totals, which test odds do not have" in result.stderr


def test_mistakes_are_explained_without_a_traceback() -> None:
    result = crux_here("odds", "DEX +2B")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "^" in result.stderr and "Traceback" not in result.stderr


def test_dice_expressions() -> None:
    record = odds_json("4d6kh3")
    assert (record["kind"], record["outcomes"]) == ("dice", {})
    assert record["distribution"]["18"] == {"p": "7/432", "approx": 0.0162}
    assert record["mean"]["p"] == "15869/1296"
    assert "leftover" not in record
    exploding = odds_json("--at-least", "7", "d6!")
    assert exploding["depth"] == 15
    assert Fraction(exploding["leftover"]["p"]) == Fraction(1, 6 ** 16)
    assert Fraction(exploding["at_least"]["p"]) == Fraction(1, 6) - Fraction(1, 6 ** 16)


def test_dice_text_and_countdown() -> None:
    text = crux_here("odds", "2d20kl1+5", "--at-least", "15").stdout
    assert "  P(total ≥ 15) = 121/400 ≈ 30.25%" in text
    assert "  mean total = 487/40 ≈ 12.18" in text
    countdown = odds_json("Cd4")
    assert (countdown["kind"], countdown["outcomes"]["ends"]["p"]) == ("countdown", "1/4")


def test_a_divisor_that_can_be_zero_is_refused_with_a_caret() -> None:
    result = crux_here("odds", "d6/(d3-1)")
    assert result.returncode == 2
    assert "the divisor can be 0" in result.stderr
    assert "  d6/(d3-1)\n     ^" in result.stderr


@pytest.mark.parametrize("statement", ["1d6", "4d6kh3", "DEX +2b"])
def test_odds_import_neither_the_dice_roller_nor_random(statement: str) -> None:
    """Odds roll nothing: `crux odds` leaves the generic dice engine and the random module (and the seeding
    of a generator) to the commands that roll."""
    probe = ("import sys\nfrom crux_cli.cli import main\n"
             f"try:\n    main(['odds', {statement!r}])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('random', 'crux_cli.dice.engine') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "CRUX_CONFIG": "/nonexistent/config.toml"})
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_roll_after_odds_draws_from_the_seeded_source() -> None:
    """The runner makes its source at the first roll: odds first change nothing of a seeded run."""
    from crux_cli.running.runner import Runner

    plain, after_odds = Runner(seed=7), Runner(seed=7)
    after_odds.odds("4d6kh3")
    line = "4d6kh3; DEX +1b"
    assert [a.result for a in plain.execute(line)] == [a.result for a in after_odds.execute(line)]
