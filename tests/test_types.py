"""mypy passes with --strict on the whole package, and the configuration relaxes nothing of it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_configuration_is_strict_everywhere():
    """`strict = true` for the whole package and no per-module section: an override could turn a flag back off."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    assert mypy["packages"] == ["crux_cli"]
    assert "overrides" not in mypy, "a [[tool.mypy.overrides]] section would relax --strict for its modules"


@pytest.mark.slow  # a cold run (a fresh clone, as in CI) takes 10-30 s; a warm cache about 2 s
def test_mypy_strict_is_clean():
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found" in result.stdout


# A rule set's rows, each wired right or to another statement's function (`# wrong` marks the line mypy must
# refuse: the wrong argument is on it). Every row is checked on its own (`core.ruleset.row`): its request is
# what `run` and `odds` take, its result what `describe` and `to_json` take; and a table's keys are its rule
# set's statements.
ROWS = """
from __future__ import annotations

from crux_cli.core.ruleset import RuleSet, StatementTable, row
from crux_cli.rulesets.d20check import grammar as d20_notation
from crux_cli.rulesets.stepdice import engine, probability, render
from crux_cli.rulesets.stepdice import grammar as notation
from crux_cli.rulesets.stepdice.ruleset import RULESET, attack_request, save_request

RIGHT = row(result=engine.SaveResult, request=save_request, run=engine.roll_save, odds=probability.save_odds,
            describe=render.save_text, to_json=render.save_json)
RUN = row(result=engine.SaveResult, request=save_request, run=engine.roll_attack,  # wrong
          odds=probability.save_odds, describe=render.save_text, to_json=render.save_json)
ODDS = row(result=engine.SaveResult, request=save_request, run=engine.roll_save,  # wrong
           odds=probability.attack_odds, describe=render.save_text, to_json=render.save_json)
DESCRIBE = row(describe=render.save_text, result=engine.AttackResult, request=attack_request,  # wrong
               run=engine.roll_attack, odds=probability.attack_odds, to_json=render.attack_json)
TO_JSON = row(to_json=render.death_json, result=engine.AttackResult, request=attack_request,  # wrong
              run=engine.roll_attack, odds=probability.attack_odds, describe=render.attack_text)
TABLE: StatementTable[notation.StepDiceStatement, engine.SaveResult] = StatementTable("x", {
    notation.Save: RIGHT,
    d20_notation.Check: RIGHT,  # wrong
})
TYPED: RuleSet[notation.StepDiceStatement, engine.SaveResult | engine.StepResult | engine.AttackResult
               | engine.DeathResult] = RULESET
UNTYPED: RuleSet[notation.StepDiceStatement, engine.SaveResult] = RULESET  # wrong
"""


@pytest.mark.slow  # one mypy run over the rule set's modules: about 5 s with a warm cache
def test_a_row_wired_to_another_statements_function_is_a_mypy_error(tmp_path: Path) -> None:
    sample = tmp_path / "rows.py"
    sample.write_text(ROWS, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"),
                             "--cache-dir", str(ROOT / ".mypy_cache"), str(sample)],
                            cwd=ROOT, capture_output=True, text=True)
    errors = {int(line.split(":")[1]) for line in result.stdout.splitlines()
              if line.startswith(str(sample)) and ": error:" in line}
    wrong = {number for number, line in enumerate(ROWS.splitlines(), start=1) if line.endswith("# wrong")}
    assert errors == wrong, result.stdout + result.stderr


def lowest_click() -> str:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    found = next(re.match(r"click>=([0-9.]+)$", d) for d in dependencies if d.startswith("click"))
    assert found is not None, "click's lowest version is named as click>=X.Y"
    return found.group(1)


@pytest.mark.slow  # fetches that click (a second) and runs mypy with a cold cache (10-30 s)
def test_mypy_strict_is_clean_with_the_lowest_click_allowed(tmp_path: Path) -> None:
    """The verdict does not depend on the installed click: clean with the lowest the package allows too
    (test_mypy_strict_is_clean runs with the one installed, usually the newest)."""
    version = lowest_click()
    fetched = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
                              str(tmp_path / "click"), f"click=={version}"], capture_output=True, text=True)
    if fetched.returncode != 0:
        pytest.skip(f"click {version} could not be fetched: {fetched.stderr[-500:]}")
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "click")}  # mypy reads click from there first
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache")],
                            cwd=ROOT, capture_output=True, text=True, env=environment)
    assert result.returncode == 0, f"with click {version}:\n{result.stdout}{result.stderr}"
    assert "no issues found" in result.stdout
