"""Sheet values in dice (issue 24): with a sheet, `1d20 + DEX` adds the sheet's DEX modifier (the value an
attack's `+DEX` adds), shown labelled with its name; without one, the error says a sheet is needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import crux_here
from hypothesis import given, settings
from hypothesis import strategies as st

import crux_cli
from crux_cli.core.rng import ScriptedSource
from crux_cli.dice import grammar as notation
from crux_cli.dice import scan, syntax
from crux_cli.rulesets.crux.hero import Attribute, Hero
from crux_cli.running.runner import Runner


@pytest.fixture
def wren(tmp_path: Path) -> Path:
    sheet = tmp_path / "wren.toml"
    made = crux_here("sheet", "new", str(sheet), "--name", "Wren", "--attr", "DEX=+2/1", "--attr", "STR=-1/0",
                     "--attack", "d8", "--hp", "12", "--hit-dice", "2")
    assert made.returncode == 0, made.stderr
    return sheet


def test_a_sheet_value_is_the_attribute_modifier(wren: Path) -> None:
    done = crux_here("--no-color", "--seed", "2", "--sheet", str(wren), "1d20 + DEX; 2d6 + STR")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.endswith("+ 2 [DEX]") and second.endswith("+ -1 [STR]")
    record = json.loads(crux_here("--json", "--seed", "2", "--sheet", str(wren), "1d20 + dexterity").stdout)
    assert record["labels"] == [{"label": "DEX", "notation": "2", "value": 2}]
    assert record["total"] == record["terms"][0]["value"] + 2


def test_odds_read_the_sheet_too(wren: Path) -> None:
    with_sheet = crux_cli.odds("1d20 + DEX vs 15", sheet=str(wren))
    assert with_sheet.outcomes == crux_cli.odds("1d20 + 2 vs 15").outcomes


def test_without_a_sheet_the_error_says_one_is_needed() -> None:
    done = crux_here("1d20 + DEX")
    assert done.returncode == 2
    assert "no sheet is loaded" in done.stderr and "--sheet" in done.stderr
    assert done.stderr.splitlines()[2].index("^") == done.stderr.splitlines()[1].index("DEX")
    assert "no sheet is loaded" in crux_here("odds", "1d20 + DEX").stderr


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["STR", "DEX", "INT", "WIL"]), st.integers(-10, 20), st.integers(1, 20))
def test_any_modifier_is_added_as_written(name: str, modifier: int, face: int) -> None:
    hero = Hero(attributes={name: Attribute(modifier=modifier)})
    [answer] = Runner(hero=hero, source=ScriptedSource([face])).execute(f"1d20 + {name.lower()}")
    assert answer.result.total == face + modifier


def test_the_grammar_and_the_fast_path_read_names_alike() -> None:
    statement = notation.parse("1d20 + Strength")
    assert isinstance(statement, syntax.Roll) and statement.reads_sheet and str(statement) == "1d20 + STR"
    assert not notation.parse("1d20 + 2").reads_sheet
    scanned = scan.scan("1d20 + DEX")  # the fast path reads the name; parse marks the statement as reading the sheet
    assert scanned is not None and str(scanned) == "1d20 + DEX" and notation.parse("1d20 + DEX").reads_sheet
