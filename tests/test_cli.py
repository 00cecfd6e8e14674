"""The `crux` command: arguments, stdin, JSON, seeds, errors, exit codes (in this process, and as a real one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import crux_here, run_crux


def test_a_statement_as_one_argument_or_several_is_the_same():
    one = crux_here("--seed", "4", "DEX +2b -1B")
    many = crux_here("--seed", "4", "DEX", "+2b", "-1B")
    assert one.returncode == 0 and one.stdout == many.stdout and one.stdout.startswith("DEX +2b -1B: ")


def test_options_may_follow_the_statement():
    before = crux_here("--seed", "9", "--json", "save WIL adv")
    after = crux_here("save", "WIL", "adv", "--json", "--seed", "9")
    assert before.stdout == after.stdout and json.loads(before.stdout)["kind"] == "save"


def test_python_dash_m_runs_the_same_command():
    result = subprocess.run([sys.executable, "-m", "crux_cli", "--seed", "1", "init"], capture_output=True,
                            text=True)
    assert result.returncode == 0 and result.stdout == run_crux("--seed", "1", "init").stdout


def test_seed_repeats_a_run_exactly_and_differs_between_seeds():
    batch = "DEX +1b\n" * 30
    a, b = crux_here("--seed", "7", "-", stdin=batch), crux_here("--seed", "7", "-", stdin=batch)
    c = crux_here("--seed", "8", "-", stdin=batch)
    assert a.stdout == b.stdout and a.stdout != c.stdout


def test_json_carries_the_notation_fields():
    record = json.loads(crux_here("--seed", "3", "--json", "DEX +2b -1B grit").stdout)
    assert {"input", "kind", "rules", "seed", "attribute", "net", "dice", "kept", "outcome", "grit"} <= set(record)
    assert record["kind"] == "test" and record["rules"] == "crux" and record["seed"] == 3
    assert record["kept"] == max(record["dice"]) and len(record["dice"]) == 3
    assert record["grit"]["spent"] == 1


def test_attack_json_fields():
    record = json.loads(crux_here("--seed", "5", "--json", "atk 2d8+3 heavy rushed").stdout)
    assert {"primary", "dice", "explosions", "flat", "armor", "outcome", "damage", "grit"} <= set(record)
    assert len(record["primary"]["dice"]) == 2 and record["primary"]["kept"] == min(record["primary"]["dice"])
    assert record["armor"] == "heavy" and record["flat"] == 3


def test_save_and_initiative_json_add_their_fields():
    save = json.loads(crux_here("--json", "save WIL").stdout)
    init = json.loads(crux_here("--json", "init").stdout)
    assert save["effect"] in ("full effect", "partial", "resisted") and init["actions"] in (1, 2, 3)


def test_stdin_batch_gives_one_result_per_line():
    result = crux_here("--json", "-", stdin="DEX +1b\natk d8+2 medium\n\n# a comment line\nsave STR\n")
    kinds = [json.loads(line)["kind"] for line in result.stdout.splitlines()]
    assert result.returncode == 0 and kinds == ["test", "attack", "save"]


def test_piped_stdin_with_no_arguments_is_batch_mode():
    result = crux_here(stdin="DEX\ninit\n")
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 2


def test_a_bad_line_is_reported_with_its_number_and_the_batch_goes_on():
    result = crux_here("-", stdin="DEX\nsave XYZ\ninit\n")
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 2
    assert "line 2:" in result.stderr and "unknown attribute 'XYZ'" in result.stderr


def test_several_statements_on_a_line_and_a_comment():
    result = crux_here("--json", "DEX; save WIL # before the door")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["kind"] for r in records] == ["test", "save"] and records[0]["comment"] == "before the door"


@pytest.mark.parametrize(("statement", "words", "column"), [
    ("DEX -2b", "mixes a minus sign", 4),
    ("DEX grit grit", "at most once", 9),
    ("save XYZ", "unknown attribute", 5),
    ("atk d1", "at least 2 sides", 4),
    ("DEX +2x", "does not take '+2x'", 4),
])
def test_errors_echo_the_input_with_a_caret_and_a_hint(statement, words, column):
    result = crux_here(statement)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert words in lines[0] and lines[1] == "  " + statement
    assert lines[2] == "  " + " " * column + "^"
    assert "Traceback" not in result.stderr


def test_usual_mistakes_get_hints():
    assert "write +2b for 2 boons or -2B for 2 banes" in crux_here("DEX -2b").stderr
    assert "STR, DEX, INT and WIL" in crux_here("save XYZ").stderr
    assert "did you mean 'dex'" in crux_here("DXE +1b").stderr


@pytest.mark.parametrize("junk", ["\x01\x02", "\u202e1d6", "\ufeffDEX", "DEX\u200b"])
def test_junk_characters_are_refused_without_a_traceback(junk):
    result = crux_here(junk)
    assert result.returncode == 2 and "Traceback" not in result.stderr and result.stderr.strip()


def test_junk_bytes_on_stdin_are_refused_per_line():
    result = subprocess.run([sys.executable, "-m", "crux_cli", "-"], input=b"DEX\n\xff\xfe junk\ninit\n",
                            capture_output=True)
    assert result.returncode == 2 and len(result.stdout.splitlines()) == 2 and b"Traceback" not in result.stderr


def test_an_empty_statement_is_refused():
    result = crux_here("")
    assert result.returncode == 2 and "empty" in result.stderr


def test_unknown_options_are_usage_errors():
    result = crux_here("DEX", "--sed", "3")
    assert result.returncode == 2 and "no such option" in result.stderr.lower()


def test_unknown_rule_set_is_refused():
    result = crux_here("--rules", "nope", "DEX")
    assert result.returncode == 2 and "no rule set called 'nope'" in result.stderr


def test_rules_list_names_each_rule_set():
    result = crux_here("--rules", "list")
    assert result.returncode == 0 and result.stdout.startswith("crux ")


def test_crux_rules_from_the_environment():
    assert crux_here("DEX", env={"CRUX_RULES": "nope"}).returncode == 2
    assert crux_here("DEX", env={"CRUX_RULES": "crux"}).returncode == 0


def test_version_and_help():
    assert crux_here("--version").stdout.startswith("crux ")
    shown = crux_here("--help").stdout
    for example in ("DEX +2b -1B grit", "save WIL adv", "init", "atk 2d8+3 heavy rushed", "man crux"):
        assert example in shown


def test_no_colour_when_piped_and_none_with_no_color():
    assert "\x1b[" not in crux_here("DEX").stdout
    assert "\x1b[" not in crux_here("--no-color", "DEX").stdout


def test_a_one_shot_roll_never_imports_prompt_toolkit():
    result = run_crux("DEX +1b", env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert result.returncode == 0 and "prompt_toolkit" not in result.stderr and "tomlkit" not in result.stderr


def test_a_closed_pipe_is_not_a_traceback():
    command = f"{sys.executable} -m crux_cli - < /dev/stdin | head -n 1"
    batch = "DEX\n" * 20000
    result = subprocess.run(["bash", "-c", command], input=batch, capture_output=True, text=True)
    assert "Traceback" not in result.stderr and result.stdout.count("\n") == 1


def test_the_console_script_freezes_what_start_up_made_and_still_collects():
    """crux_cli/__main__.py pauses the collector while the command line (click) is imported and freezes it
    (start-up cost); the collector is back on afterwards (a batch or a session still collects), unless
    the program that imported it had turned it off."""
    probe = ("import gc\n{before}import crux_cli.__main__\ncrux_cli.__main__.command_line()\n"
             "print(gc.isenabled(), gc.get_freeze_count() > 1000)\n")
    done = subprocess.run([sys.executable, "-c", probe.format(before="")], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]
    done = subprocess.run([sys.executable, "-c", probe.format(before="gc.disable()\n")], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


def test_the_quick_path_freezes_what_it_made_and_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    """crux_cli/__main__.py pauses the collector while a one-shot form is imported and answered, and freezes
    what it made (the exit's collection skips it); the collector is then as the caller had it."""
    probe = ("import gc\n{before}import crux_cli.__main__ as program\n"
             "status = program.quick_answer(['--no-journal', '--seed', '1', 'd20'])\n"
             "print(status, gc.isenabled(), gc.get_freeze_count() > 1000)\n")
    env = {**fast_env(), "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    for before, enabled in (("", "True"), ("gc.disable()\n", "False")):
        done = subprocess.run([sys.executable, "-c", probe.format(before=before)], capture_output=True, text=True,
                              check=True, env=env)
        assert done.stdout.split()[-3:] == ["0", enabled, "True"]


# --- the common forms, answered without click (running/quick.py), as click answers them ----------------

QUICK = [["--seed", "3", "DEX +2b"], ["--seed", "3", "DEX", "+2b", "grit"], ["--json", "--seed", "7", "4d6kh3"],
         ["--seed", "+5", "atk 2d8+3 heavy"], ["odds", "4d6kh3"], ["--json", "odds", "DEX +1b"],
         ["--rules", "stepdice", "--seed", "2", "save d8"], ["--rules", "nosuch", "4d6"], ["--seed", "1", "DEX +2x"],
         ["--json", "--seed", "1", "DEX +2x"], ["odds", "2d6; 3d6"], ["--no-journal", "--seed", "4", "d20"],
         ["--sheet", "missing.toml", "DEX"], ["--json", "--sheet", "missing.toml", "DEX"], ["--seed", "9", "init"],
         ["--seed", "3", "DEX", "-1B"], ["--seed", "3", "DEX", "+2b", "-1B"], ["odds", "DEX", "-1B"],
         ["--seed", "2", "d20", "-", "3"], ["--seed", "2", "d20", "-3"], ["--seed", "2", "d20", "-x=3"],
         ["--seed", "5", "-1d6"], ["--2"], ["-7/2"], ["odds", "-1d6"], ["--json", "--seed", "2", "-1d6 + 3"],
         ["-1B", "DEX"], ["--seed", "1", "--3d6"], ["--seed", "6", "-2", "+", "1d4"], ["--2h"]]
CLICK = [["DEX", "-1h"], ["DEX", "-h"], ["-1h"], ["-1V"], ["-x"], ["--x2"], ["DEX", "--", "-1B"],
         ["DEX", "--json"], ["--seed", "x", "d6"], ["--seed", "-3", "d6"], ["--json", "--json", "d6"],
         ["help"], ["-"], ["repl"], ["sheet", "show"], ["--rules", "list"], ["--sed", "3", "d6"], ["odds"], [],
         ["--seed", "1", "odds", "d6"], ["--color", "always", "d6"], ["--", "d6"], ["log"]]


@pytest.mark.parametrize("words", QUICK, ids=" ".join)
def test_the_common_forms_answer_without_click_exactly_as_click_does(words: list[str], tmp_path: Path) -> None:
    from crux_cli.running import quick

    assert quick.read(words) is not None
    env = {**fast_env(), "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path), "CRUX_JOURNAL": "off"}
    through_click = subprocess.run(
        [sys.executable, "-c", "import sys; from crux_cli.cli import main; main(sys.argv[1:])", *words],
        capture_output=True, text=True, env=env, cwd=tmp_path)
    fast = subprocess.run([sys.executable, "-m", "crux_cli", *words], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        through_click.returncode, through_click.stdout, through_click.stderr)
    assert "click" not in subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "crux_cli", *words], capture_output=True, text=True, env=env,
        cwd=tmp_path).stderr


@pytest.mark.parametrize("words", CLICK, ids=" ".join)
def test_every_other_command_line_goes_to_click(words: list[str]) -> None:
    from crux_cli.running import quick

    assert quick.read(words) is None


BATCH = [["-"], ["--seed", "3", "-"], ["--json", "--seed", "7", "-"], ["--no-journal", "--seed", "4", "-"],
         ["--rules", "stepdice", "--seed", "2", "-"], ["--sheet", "missing.toml", "--seed", "1", "-"],
         ["--rules", "nosuch", "-"], ["--seed", "+5", "--json", "-"]]
BATCH_TO_CLICK = [["--seed", "x", "-"], ["-", "-"], ["--rules", "list", "-"], ["--sed", "3", "-"],
                  ["--json", "--json", "-"], ["d6", "-"], ["odds", "-"], ["--seed", "-3", "-"],
                  ["--color", "always", "-"]]
BATCH_INPUT = "DEX +2b\nd20 # a note\n\nnonsense here\n4d6kh3\natk 2d8+3 heavy\nd6; d6\nodds 2d6\n" * 3


@pytest.mark.parametrize("words", BATCH, ids=" ".join)
def test_a_batch_starts_without_click_and_answers_exactly_as_click_does(words: list[str], tmp_path: Path) -> None:
    """`crux [OPTIONS] -` (crux_cli.__main__ `quick_batch`): the same output, errors and status as click's path,
    and click never imported."""
    from crux_cli.running import quick

    assert quick.read_batch(words) is not None
    env = {**fast_env(), "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path)}
    through_click = subprocess.run(
        [sys.executable, "-c", "import sys; from crux_cli.cli import main; main(sys.argv[1:])", *words],
        input=BATCH_INPUT, capture_output=True, text=True, env=env, cwd=tmp_path)
    fast = subprocess.run([sys.executable, "-m", "crux_cli", *words], input=BATCH_INPUT, capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    if "--seed" in words:
        assert (fast.returncode, fast.stdout, fast.stderr) == (
            through_click.returncode, through_click.stdout, through_click.stderr)
    else:  # fresh dice: the same shape
        assert (fast.returncode, fast.stdout.count("\n"), fast.stderr) == (
            through_click.returncode, through_click.stdout.count("\n"), through_click.stderr)
    assert fast.returncode == 2 and fast.stderr  # `nonsense here` is refused, the batch goes on
    assert "click" not in subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "crux_cli", *words], input=BATCH_INPUT, capture_output=True,
        text=True, env=env, cwd=tmp_path).stderr


@pytest.mark.parametrize("words", BATCH_TO_CLICK, ids=" ".join)
def test_every_other_batch_command_line_goes_to_click(words: list[str]) -> None:
    from crux_cli.running import quick

    assert quick.read_batch(words) is None


def test_the_quick_path_knows_every_subcommand() -> None:
    from crux_cli.cli import LAZY_COMMANDS, crux
    from crux_cli.running import quick

    assert {*crux.commands, *LAZY_COMMANDS} == quick.COMMANDS


def fast_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR", "CRUX_DEBUG")}


def test_dash_capital_v_prints_the_version_and_dash_x_is_a_usage_error_not_dice():
    """`crux -V` is the version (as --version), `crux -x` an unknown option (status 2), neither read as dice;
    a negative die (`-d6`, `-dF`) is still arithmetic (issue 38)."""
    import crux_cli

    version = crux_here("-V")
    assert version.returncode == 0 and version.stdout.strip() == f"crux {crux_cli.__version__}"
    for words in (["-x"], ["-x", "3"], ["--seed", "1", "-q"], ["odds", "-q"]):
        refused = crux_here(*words)
        assert refused.returncode == 2, words
        assert f"no such option: {words[-1] if words[0] != '-x' else '-x'}" in refused.stderr, refused.stderr
        assert "dice expression" not in refused.stderr
    assert crux_here("--seed", "1", "-d6").stdout.startswith("-d6: -")
    assert crux_here("--seed", "1", "-dF").returncode == 0


def test_a_first_word_close_to_a_command_suggests_it():
    slip = crux_here("lgo")
    assert slip.returncode == 2 and "did you mean the command `crux log`?" in slip.stderr
    assert "did you mean the command `crux sheet`?" in crux_here("shet").stderr
    assert "did you mean the command" not in crux_here("bogus").stderr
    assert "did you mean the command" not in crux_here("DEX +2").stderr  # refused past its first word
