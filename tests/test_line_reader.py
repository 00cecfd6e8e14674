"""One line language in every mode (issue 24): `odds STATEMENT` inside a line answers in one-shot, batch and
the Python API as it does at the REPL prompt, in text and in JSON, from the one splitter of core/lines.py."""

from __future__ import annotations

import json

import pytest
from helpers import crux_here

import crux_cli
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner


def prompt(line: str, *, json_out: bool = False, seed: int = 5) -> list[str]:
    return Session(Runner(seed=seed), json=json_out).handle(line)


@pytest.mark.parametrize("line", ["DEX; odds DEX", "odds 2d6", "odds atk 2d8+3 heavy; 1d20", "odds save WIL adv"])
def test_one_shot_answers_as_the_prompt(line: str) -> None:
    done = crux_here("--seed", "5", "--no-color", line)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == prompt(line)


def test_json_one_shot_answers_as_the_prompt() -> None:
    done = crux_here("--seed", "5", "--json", "DEX; odds DEX")
    assert [json.loads(x) for x in done.stdout.splitlines()] == [json.loads(x) for x in prompt("DEX; odds DEX",
                                                                                                json_out=True)]


def test_a_batch_line_odds_answers_as_the_prompt_and_as_crux_odds() -> None:
    done = crux_here("--no-color", "-", stdin="odds 2d6\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == prompt("odds 2d6") == crux_here("--no-color", "odds", "2d6").stdout.splitlines()


def test_a_batch_line_odds_in_json_carries_its_line_number() -> None:
    done = crux_here("--json", "-", stdin="1d6\n\nodds 2d6\n")
    first, second = (json.loads(x) for x in done.stdout.splitlines())
    assert first["kind"] == "dice" and "total" in first
    expected = json.loads(crux_here("--json", "odds", "2d6").stdout)
    assert second == {**expected, "line": 3}
    assert second["distribution"]["7"] == {"p": "1/6", "approx": 0.1667}


def test_odds_in_a_line_are_not_journaled_as_rolls(tmp_path) -> None:
    class Recorder:
        def __init__(self) -> None:
            self.inputs: list[str] = []

        def answered(self, answer, answer_json=None) -> None:
            self.inputs.append(answer.input)

    runner = Runner(seed=1)
    runner.journal = recorder = Recorder()
    assert [a.odds for a in runner.execute("1d6; odds 2d6")] == [False, True]
    assert recorder.inputs == ["1d6"]
    env = {"XDG_STATE_HOME": str(tmp_path)}
    crux_here("-", stdin="odds 2d6\n1d6\n", env=env)
    journal = "".join(p.read_text() for p in tmp_path.rglob("*.jsonl"))
    if journal:  # the journal's own format belongs to state/; only its rolls are counted here
        assert '"2d6"' not in journal


def test_api_rolls_answers_odds_with_an_odds_result() -> None:
    roll, odds = crux_cli.rolls("DEX; odds 2d6 # compare", seed=2)
    assert isinstance(roll, crux_cli.RollResult) and isinstance(odds, crux_cli.OddsResult)
    assert odds.mean == 7 and odds.distribution is not None
    assert odds.distribution[7] == crux_cli.odds("2d6").distribution[7]
    assert str(odds).splitlines()[1:] == str(crux_cli.odds("2d6")).splitlines()[1:]
    assert odds.to_dict()["comment"] == "compare"
    with pytest.raises(crux_cli.CruxError, match="roll\\(\\) returns a roll"):
        crux_cli.roll("odds 2d6")


def test_a_refused_odds_statement_is_refused_as_any_statement() -> None:
    done = crux_here("odds bogus")
    assert done.returncode == 2 and "'bogus' is not a statement" in done.stderr
    done = crux_here("--no-color", "-", stdin="odds bogus\n1d1\n")
    assert done.returncode == 2 and "line 1" in done.stderr and "1d1: 1" in done.stdout


def test_a_word_that_starts_with_odds_is_not_odds() -> None:
    assert crux_here("oddsy").returncode == 2
    assert crux_here("--no-color", "ODDS 1d1").stdout.splitlines()[0] == "1d1: exact odds"
