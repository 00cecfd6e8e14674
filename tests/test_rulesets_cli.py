"""The kindred rule sets from the command line: --rules, CRUX_RULES, --json, --seed, batches and errors."""

from __future__ import annotations

import json
import subprocess

import pytest
from helpers import crux_here

from crux_cli import rulesets
from crux_cli.rulesets.stepdice.engine import compare


def crux(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return crux_here(*args, stdin=stdin, env={"NO_COLOR": "1", **(env or {})})


ISSUE_EXAMPLES = [
    ("stepdice", "save d8 vs d6 enhanced"),
    ("stepdice", "attack d6 d8 armor 1 grit 3 str d8"),
    ("d20check", "check 4 trained favored"),
    ("challenge", "action 2 adv major"),
]


@pytest.mark.parametrize(("rules", "statement"), ISSUE_EXAMPLES)
def test_the_issue_examples_answer_in_one_line(rules: str, statement: str) -> None:
    r = crux("--rules", rules, statement)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert len(r.stdout.splitlines()) == 1
    assert r.stdout.startswith(f"{statement}: ")


@pytest.mark.parametrize(("rules", "statement", "kind"), [
    ("stepdice", "save d8 vs 4", "save"),
    ("d20check", "check 4 trained favored", "check"),
    ("challenge", "action 3 major", "action"),
])
def test_the_acceptance_statements_give_a_json_object(rules: str, statement: str, kind: str) -> None:
    r = crux("--rules", rules, "--seed", "1", "--json", statement)
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)
    assert (record["input"], record["kind"], record["rules"], record["seed"]) == (statement, kind, rules, 1)
    assert "outcome" in record


def test_a_seed_repeats_a_run_exactly_and_options_may_follow_the_statement() -> None:
    first = crux("--rules", "challenge", "--seed", "7", "--json", "fortune 4")
    again = crux("fortune 4", "--json", "--seed", "7", "--rules", "challenge")
    assert first.returncode == again.returncode == 0
    assert first.stdout == again.stdout


def test_crux_rules_in_the_environment_chooses_the_rule_set_and_the_option_wins() -> None:
    r = crux("--json", "--seed", "1", "resist 2", env={"CRUX_RULES": "challenge"})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "challenge"
    r = crux("--rules", "stepdice", "--json", "--seed", "1", "death", env={"CRUX_RULES": "challenge"})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "stepdice"


def test_crux_stays_the_default() -> None:
    r = crux("--json", "--seed", "1", "DEX +1b")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "crux"
    r = crux("check 4")  # a d20check statement means nothing to the Crux rules
    assert r.returncode == 2


def test_rules_list_names_every_rule_set_with_a_line_each() -> None:
    r = crux("--rules", "list")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert names == list(rulesets.BUILT_IN)  # the registry's order: crux, stepdice, d20check, challenge…
    assert names[0] == rulesets.DEFAULT == "crux"


def test_a_batch_in_one_rule_set_answers_every_line_consistently() -> None:
    r = crux("--rules", "stepdice", "--seed", "3", "--json", "-", stdin="save d8 vs 4\n" * 300)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(records) == 300
    assert all(rec["outcome"] == compare(rec["kept"], 4) for rec in records)
    assert {rec["outcome"] for rec in records} == {"win", "tie", "lose"}
    assert {rec["kept"] for rec in records} == set(range(1, 9))


def test_a_batch_of_challenge_rolls_reads_the_highest_die() -> None:
    r = crux("--rules", "challenge", "--seed", "5", "--json", "-", stdin="action 3\n" * 300)
    records = [json.loads(line) for line in r.stdout.splitlines()]
    for rec in records:
        sixes = rec["dice"].count(6)
        expected = "critical" if sixes >= 2 else "strong hit" if sixes else "weak hit" if max(
            rec["dice"]) >= 4 else "miss"
        assert (rec["kept"], rec["outcome"]) == (max(rec["dice"]), expected)
    assert {rec["outcome"] for rec in records} == {"critical", "strong hit", "weak hit", "miss"}


@pytest.mark.parametrize(("rules", "statement", "message", "caret"), [
    ("stepdice", "save d7", "not a die on the step-dice track", 5),
    ("stepdice", "attack d6 armor 1 armor 2", "one armor score", 18),
    ("stepdice", "DEX +1b", "not a statement", 0),
    ("d20check", "check 4 trained trained", "said once", 16),
    ("d20check", "damage 2d6 armor", "ended too soon", 16),
    ("challenge", "action 2 adv adv", "counts once", 13),
    ("challenge", "action 5000", "limit", 7),
    ("challenge", "resist", "ended too soon", 6),
])
def test_errors_are_plain_words_with_a_caret_and_exit_2(rules: str, statement: str, message: str,
                                                        caret: int) -> None:
    r = crux("--rules", rules, statement)
    assert r.returncode == 2
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert message in lines[0]
    assert lines[1] == "  " + statement
    assert lines[2] == "  " + " " * caret + "^"


def test_an_unknown_rule_set_is_refused_with_the_list() -> None:
    r = crux("--rules", "stepdie", "save d8")
    assert r.returncode == 2
    assert "no rule set called 'stepdie'" in r.stderr
    assert "stepdice" in r.stderr


# --- odds -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "statement", "first"), [
    ("challenge", "resist 3", ["critical", "2/27", "7.41%"]),
    ("stepdice", "save d8 vs 4", ["win", "1/2", "50.00%"]),
    ("d20check", "check 4 trained favored", ["crit", "1/20", "5.00%"]),
])
def test_odds_print_fractions_percentages_and_bars(rules: str, statement: str, first: list[str]) -> None:
    r = crux("--rules", rules, "odds", statement)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"{statement}: exact odds"
    assert lines[1].split()[:3] == first
    assert "█" in r.stdout


def test_odds_of_an_attack_add_the_damage_distribution_and_its_mean() -> None:
    r = crux("--rules", "stepdice", "odds", "attack d6 d8 armor 1 grit 3 str d8")
    assert r.returncode == 0, r.stderr
    assert "  damage" in r.stdout.splitlines()
    assert r.stdout.splitlines()[-1] == "  mean damage = 203/48 ≈ 4.229 · sd ≈ 1.806"


def test_odds_as_json() -> None:
    r = crux("--rules", "challenge", "--json", "odds", "action 2 adv major")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)
    assert (record["input"], record["kind"], record["rules"]) == ("action 2 adv major", "action", "challenge")
    assert record["outcomes"]["critical"] == {"p": "2/27", "approx": 0.07407}
    assert list(record["outcomes"]) == ["critical", "strong hit", "weak hit", "miss"]


def test_odds_errors_are_clean() -> None:
    r = crux("--rules", "challenge", "odds", "resist x")
    assert r.returncode == 2
    assert r.stdout == ""
    assert "does not take 'x'" in r.stderr
    assert "Traceback" not in r.stderr
    r = crux("--rules", "d20check", "odds", "damage 1000d10000")
    assert r.returncode == 2
    assert "odds size limit" in r.stderr
