"""A change of conditions is written on the sheet's one-line `conditions = [...]` in place, exactly as tomlkit
would write it, so a one-shot `crux --sheet F 'cond add prone'` never imports tomlkit (issue 38: every one-shot
path at most 0.5x `import click, pyparsing`; tomlkit and what it imports cost 80 M instructions of 268 M)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from crux_cli.rulesets.crux.hero import Hero
from crux_cli.rulesets.crux.sheet_file import conditions_in_place, edited_in_place, updated_document
from crux_cli.state.sheet import new_sheet_text, update_sheet_text

NAMES = ("prone", "blinded", "dazed", "frightened")
LISTS = [(), ("prone",), ("prone", "blinded"), ("blinded", "prone", "dazed")]


def sheet(conditions: tuple[str, ...], line: str | None = None) -> str:
    text = new_sheet_text(Hero(name="Wren", conditions=conditions))
    if line is None:
        return text
    return "\n".join(line if row.startswith("conditions") else row for row in text.split("\n"))


@pytest.mark.parametrize("start", LISTS)
def test_every_change_of_conditions_in_place_is_what_tomlkit_writes(start: tuple[str, ...]) -> None:
    for size in range(4):
        for wanted in itertools.permutations(NAMES, size):
            for text in (sheet(start), sheet(start, "conditions = [" + ", ".join(f'"{n}"' for n in start) + "]"),
                         sheet(start, " conditions= [" + ", ".join(f'"{n}"' for n in start) + "]  # mine")):
                before, after = Hero(conditions=start), Hero(conditions=wanted)
                by_tomlkit = updated_document(text, after, ["conditions"])
                assert edited_in_place(text, ["conditions"], after) == by_tomlkit, (text, wanted)
                assert update_sheet_text(text, before, after) == by_tomlkit


@pytest.mark.parametrize("line", ['conditions = ["prone",]', 'conditions = ["prone" , "dazed"]',
                                  'conditions = ["Prone"]', 'conditions = [\'prone\']',
                                  'conditions = ["prone", "prone"]', 'conditions = [  ]',
                                  'conditions = ["prone"] extra', 'conditions = ['])
def test_a_list_written_otherwise_is_left_to_tomlkit(line: str) -> None:
    assert conditions_in_place(line, ("dazed",)) is None


def test_a_condition_changed_from_the_command_line_does_not_import_tomlkit() -> None:
    script = ("import sys\nfrom crux_cli.rulesets.crux.hero import Hero\nfrom crux_cli.state.sheet import "
              "new_sheet_text, update_sheet_text\ntext = new_sheet_text(Hero(name='Wren'))\n"
              "update_sheet_text(text, Hero(), Hero(conditions=('prone', 'dazed')))\nprint('tomlkit' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
