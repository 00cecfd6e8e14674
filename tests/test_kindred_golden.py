"""The kindred rule sets answer byte for byte as before their statement tables (issue 26).

tests/golden/kindred/ holds, for stepdice, d20check and challenge, a batch of statements (every
statement with its options, repeats, comments, dice and refusals, four times over) and what main
answered before the five type dispatches became one table per rule set: `crux --rules NAME --seed 2026 -`
as text and as JSON, with what went to stderr and the exit status.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from crux_cli.running.modes import run_batch
from crux_cli.running.output import Output
from crux_cli.running.settings import Settings

GOLDEN = Path(__file__).parent / "golden" / "kindred"


def batch(rules: str, json: bool) -> str:
    settings = Settings(seed=2026, json=json, rules=rules)
    stdout, stderr = io.StringIO(), io.StringIO()
    with (GOLDEN / f"{rules}.txt").open(encoding="utf-8") as lines:
        status = run_batch(settings, lines, Output(settings, stdout, stderr, environ={}))
    return stdout.getvalue() + f"--- stderr (status {status})\n" + stderr.getvalue()


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("rules", ["stepdice", "d20check", "challenge"])
def test_a_kindred_batch_answers_as_it_always_did(rules: str, json: bool) -> None:
    expected = (GOLDEN / f"{rules}_{'json' if json else 'text'}.out").read_text(encoding="utf-8")
    assert batch(rules, json) == expected
