"""The command follows its users' shell habits: forced colour, no sheet, JSON errors, usage errors in crux's words.

Each through the command line (`crux_here`: the real `main`, in this process, stdout and stderr not terminals).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import crux_here

ESC = "\x1b["


@pytest.mark.parametrize(("args", "env", "painted"), [
    (["DEX"], {}, False),  # a pipe: plain, as before
    (["--color=always", "DEX"], {}, True),
    (["DEX", "--color", "always"], {}, True),
    (["DEX"], {"FORCE_COLOR": "1"}, True),
    (["DEX"], {"CLICOLOR_FORCE": "1"}, True),
    (["DEX"], {"FORCE_COLOR": "0"}, False),
    (["DEX"], {"CLICOLOR_FORCE": ""}, False),
    (["DEX"], {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),  # NO_COLOR wins over the environment's forcing
    (["DEX"], {"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, False),
    (["--color=always", "DEX"], {"NO_COLOR": "1"}, True),  # the command line is the latest word (no-color.org)
    (["--color=never", "DEX"], {"FORCE_COLOR": "1"}, False),
    (["--no-color", "DEX"], {"CLICOLOR_FORCE": "1"}, False),
    (["--color=auto", "DEX"], {"FORCE_COLOR": "1"}, True),
    (["odds", "--color=always", "2d6"], {}, True),
    (["odds", "2d6"], {"FORCE_COLOR": "1"}, True),
])
def test_colour_through_a_pipe_when_asked(args: list[str], env: dict[str, str], painted: bool) -> None:
    result = crux_here("--seed", "1", *args, env={"TERM": "xterm", **env}) if args[0] != "odds" else \
        crux_here(*args, env={"TERM": "xterm", **env})
    assert result.returncode == 0, result.stderr
    assert (ESC in result.stdout) is painted, result.stdout


def test_a_forced_colour_paints_the_error_too() -> None:
    result = crux_here("--color=always", "DEX +2", env={"TERM": "xterm"})
    assert result.returncode == 2 and ESC in result.stderr


def test_a_bad_colour_choice_is_refused_with_a_caret() -> None:
    result = crux_here("--color=pink", "DEX")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["crux: error: --color: 'pink' is not one of 'auto', 'always', 'never'",
                                          "  --color=pink DEX", "          ^",
                                          "  hint: crux --help lists the options"]


@pytest.fixture
def config_with_a_sheet(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "wren.toml").write_text('name = "Wren"\n[attributes]\nDEX = { modifier = 0, rating = 2 }\n')
    (tmp_path / "config" / "crux").mkdir(parents=True)
    (tmp_path / "config" / "crux" / "config.toml").write_text(f'sheet = "{tmp_path / "wren.toml"}"\n')
    return {"XDG_CONFIG_HOME": str(tmp_path / "config")}


def net(result) -> int:
    assert result.returncode == 0, result.stderr
    return int(json.loads(result.stdout)["net"])


def test_no_sheet_turns_off_the_config_files_sheet(config_with_a_sheet: dict[str, str]) -> None:
    env = config_with_a_sheet
    assert net(crux_here("--json", "--seed", "1", "DEX", env=env)) == 2  # the sheet's DEX rating
    assert net(crux_here("--no-sheet", "--json", "--seed", "1", "DEX", env=env)) == 0
    assert net(crux_here("--json", "--seed", "1", "DEX", "--no-sheet", env=env)) == 0
    assert net(crux_here("--no-sheet", "--json", "DEX", stdin=None, env=env)) == 0
    batch = crux_here("--no-sheet", "--json", "-", stdin="DEX\n", env=env)
    assert json.loads(batch.stdout)["net"] == 0


def test_an_empty_crux_sheet_means_no_sheet(config_with_a_sheet: dict[str, str], tmp_path: Path) -> None:
    env = config_with_a_sheet
    assert net(crux_here("--json", "--seed", "1", "DEX", env={**env, "CRUX_SHEET": ""})) == 0
    named = {**env, "CRUX_SHEET": str(tmp_path / "wren.toml")}
    assert net(crux_here("--json", "--seed", "1", "DEX", env=named)) == 2
    assert net(crux_here("--json", "--seed", "1", "--no-sheet", "DEX", env=named)) == 0


@pytest.mark.parametrize("args", [["--json", "bogus"], ["--json", "odds", "bogus"], ["bogus", "--json"]])
def test_a_one_shot_json_error_is_a_json_object_on_stdout(args: list[str]) -> None:
    result = crux_here(*args)
    assert result.returncode == 2
    record = json.loads(result.stdout)
    assert record["input"] == "bogus" and "line" not in record
    assert set(record["error"]) == {"message", "position", "hint"}
    assert record["error"]["position"] == 0 and "not a statement" in record["error"]["message"]
    assert "crux: error:" in result.stderr  # the person reading stderr still sees it


def test_a_one_shot_json_error_is_shaped_as_a_batch_error() -> None:
    one = json.loads(crux_here("--json", "DEX +2").stdout)
    batch = json.loads(crux_here("--json", "-", stdin="DEX +2\n").stdout)
    assert batch.pop("line") == 1
    assert one == batch


@pytest.mark.parametrize(("args", "lines"), [
    (["--seed"], ["crux: error: --seed needs a value", "  --seed", "  ^",
                  "  hint: write it as --seed N; crux --help lists the options"]),
    (["--seed", "abc", "DEX"], ["crux: error: --seed: the seed must be a whole number, not 'abc'",
                                "  --seed abc DEX", "         ^",
                                "  hint: a seed such as 42 repeats the same dice; leave it out for fresh dice"]),
    (["DEX", "--seed", "1.5"], ["crux: error: --seed: the seed must be a whole number, not '1.5'",
                                "  DEX --seed 1.5", "             ^",
                                "  hint: a seed such as 42 repeats the same dice; leave it out for fresh dice"]),
    (["--seed=1_000", "DEX"], ["crux: error: --seed: the seed must be a whole number, not '1_000'",
                               "  --seed=1_000 DEX", "         ^",
                               "  hint: a seed such as 42 repeats the same dice; leave it out for fresh dice"]),
    (["--repeat", "0", "DEX"], ["crux: error: --repeat takes a whole number from 1 up", "  --repeat 0 DEX",
                                "           ^", "  hint: crux --help lists the options"]),
    (["--rules"], ["crux: error: --rules needs a value", "  --rules", "  ^",
                   "  hint: write it as --rules NAME; crux --help lists the options"]),
    (["--colr", "always", "DEX"], ["crux: error: no such option: --colr", "  --colr always DEX", "  ^",
                                   "  hint: did you mean --color? crux --help lists the options"]),
    (["odds"], ["crux: error: crux odds needs a statement", "  hint: for example: crux odds 'DEX +2b'"]),
    (["sheet", "new"], ["crux: error: crux sheet new needs a file", "  hint: crux sheet new --help lists the options"]),
    (["sheet", "new", "x.toml", "--hp", "0"], ["crux: error: --hp takes a whole number from 1 to 100,000",
                                               "  sheet new x.toml --hp 0", "                        ^",
                                               "  hint: crux sheet new --help lists the options"]),
    (["sheet", "bogus"], ["crux: error: no such command 'bogus'", "  hint: crux sheet --help lists its commands"]),
])
def test_usage_errors_are_said_in_cruxs_own_words(args: list[str], lines: list[str] | None) -> None:
    result = crux_here(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert "Usage:" not in result.stderr and "Error:" not in result.stderr
    assert result.stderr.startswith("crux: error: ")
    if lines is not None:
        assert result.stderr.splitlines() == lines


def test_odds_offers_no_option_that_does_nothing_there() -> None:
    shown = crux_here("odds", "--help").stdout
    assert "--seed" not in shown and "--repeat" not in shown
    assert "--at-least" in shown and "--json" in shown and "--color" in shown and "--no-sheet" in shown
    assert "--seed" in crux_here("--help").stdout
    refused = crux_here("odds", "--seed", "3", "2d6")
    assert refused.returncode == 2
    assert "no such option: --seed" in refused.stderr
    assert "odds roll nothing" in refused.stderr


@pytest.mark.parametrize("args", [["help"], ["help", "odds"]])
def test_help_points_at_dash_dash_help(args: list[str]) -> None:
    result = crux_here(*args)
    assert result.returncode == 2
    assert "heal" not in result.stderr
    assert "crux --help" in result.stderr


@pytest.mark.parametrize("args", [["--json", "--seed", "abc", "DEX"], ["--json", "--repeat"],
                                  ["DEX", "--json", "--sedd"], ["--json", "--color=pink", "DEX"]])
def test_with_json_a_usage_error_is_a_json_object_on_stdout_too(args: list[str]) -> None:
    result = crux_here(*args)
    assert result.returncode == 2 and result.stderr.startswith("crux: error: ")
    record = json.loads(result.stdout)
    assert set(record["input"].split()) <= set(args)  # the words the caret is placed in
    assert record["error"]["message"] in result.stderr and record["error"]["hint"]
    position = record["error"]["position"]
    assert position is not None and record["input"][position:].startswith(("abc", "--", "pink"))


def test_a_group_alone_still_shows_its_help() -> None:
    result = crux_here("sheet")
    assert result.returncode == 2 and "crux sheet new FILE" in result.stdout + result.stderr
