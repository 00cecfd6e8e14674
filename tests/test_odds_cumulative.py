"""`--cumulative` counts "at least" toward worth, in every rule set (issue 36): `crux odds --cumulative
'1d20+5 vs 15'` said "pass ≥ 100%" because outcomes listed best first were accumulated downward as if worst
first. A row's "≥" is P(this outcome or a better one), its "≤" P(this one or a worse one), whichever way its
rule set lists them; numbers (a kept die, Grit earned) are worth their value."""

from __future__ import annotations

import json
import re

import pytest
from helpers import crux_here

CASES = [  # (rules, statement, row, P(at least), P(at most))
    ("crux", "1d20+5 vs 15", "pass", "55.00%", "100%"),  # generic dice: best first
    ("crux", "1d20+5 vs 15", "fail", "100%", "45.00%"),
    ("crux", "2d6 vs 2d6", "win", "44.37%", "100%"),
    ("crux", "DEX", "success", "33.33%", "100%"),  # the Crux System: worst first
    ("crux", "DEX", "failure", "100%", "33.33%"),
    ("crux", "atk 2d8", "crit", "12.50%", "100%"),
    ("d20check", "check 3", "crit", "5.00%", "100%"),
    ("d20check", "check 3", "pass", "20.00%", "95.00%"),
    ("d20check", "check 3", "fail", "100%", "80.00%"),
    ("challenge", "action 3", "critical", "7.41%", "100%"),
    ("challenge", "action 3", "miss", "100%", "12.50%"),
    ("stepdice", "save d8 vs d6", "win", "56.25%", "100%"),
    ("stepdice", "save d8 vs d6", "lose", "100%", "31.25%"),
]


def cells(stdout: str, row: str) -> tuple[str, str]:
    line = next(line for line in stdout.splitlines() if line.strip().startswith(row + " "))
    found = re.search(r"≥\s+(\S+)\s+≤\s+(\S+)", line)
    assert found is not None, line
    return found.group(1), found.group(2)


@pytest.mark.parametrize(("rules", "text", "row", "least", "most"), CASES)
def test_at_least_is_this_outcome_or_a_better_one(rules: str, text: str, row: str, least: str, most: str) -> None:
    done = crux_here("--rules", rules, "odds", "--cumulative", text)
    assert done.returncode == 0, done.stderr
    assert cells(done.stdout, row) == (least, most)


def test_numbers_count_at_least_by_their_value_whichever_way_they_are_listed() -> None:
    """Grit earned is listed 1 then 0: P(at least 1) is the chance of earning it."""
    done = crux_here("odds", "--cumulative", "atk 2d8")
    grit = done.stdout.split("Grit earned")[1]
    assert cells(grit, "1") == ("12.50%", "100%") and cells(grit, "0") == ("100%", "87.50%")
    kept = crux_here("odds", "--cumulative", "DEX").stdout.split("kept die")[1]  # listed 1 to 6
    assert cells(kept, "6") == ("16.67%", "100%") and cells(kept, "1") == ("100%", "16.67%")


def test_json_and_a_comparison_say_the_same() -> None:
    record = json.loads(crux_here("--json", "odds", "--cumulative", "1d20+5 vs 15").stdout)
    assert record["outcomes_cumulative"]["pass"]["at_least"]["p"] == "11/20"
    assert record["outcomes_cumulative"]["fail"]["at_most"]["p"] == "9/20"
    compared = crux_here("odds", "--cumulative", "1d20+5 vs 15; 2d20kh1+3 vs 15").stdout
    passed = next(line for line in compared.splitlines() if line.strip().startswith("pass"))
    assert passed.split()[1:7] == ["55.00%", "55.00%", "100%", "69.75%", "69.75%", "100%"]
    record = json.loads(crux_here("--json", "odds", "--cumulative", "1d20+5 vs 15; 1d20+3 vs 15").stdout)
    assert record["compared"][1]["outcomes_cumulative"]["pass"]["at_least"]["p"] == "9/20"
