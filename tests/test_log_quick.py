"""`crux log` read without click (running/log_view.py, issue 38): each common form prints exactly what click's
command prints (stdout, stderr, exit status), imports neither click nor pyparsing, and every other form goes to
click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bench.bench_state import fill_quickly

SHEET = "@SHEET@"  # the store's sheet, put in when run
QUICK = [["log"], ["log", "-n", "5"], ["log", "--last", "2"], ["log", "--json"], ["log", "--json", "-n", "3"],
         ["log", "--stats"], ["log", "--stats", "--json"], ["log", "--fight", "-n", "4"], ["log", "--fight"],
         ["log", "--sheet", SHEET, "-n", "3"], ["log", "--sheet", SHEET], ["log", "--since", "1h"],
         ["log", "--since", "bogus"], ["log", "--json", "--since", "bogus"], ["log", "--session", "last", "-n", "2"],
         ["log", "--stats", "-n", "3"], ["log", "--color", "always", "-n", "3"], ["log", "--no-color", "-n", "3"],
         ["log", "--session", "nosuch"], ["log", "--stats", "--session", "prompt"], ["log", "--since", "2020-01-01",
                                                                                     "-n", "2"]]
CLICK = [["log", "-n", "0"], ["log", "-n5"], ["log", "--last=5"], ["log", "--export"], ["log", "--verify", "x"],
         ["log", "--set-aside"], ["log", "-h"], ["log", "--help"], ["log", "-n", "5", "-n", "6"],
         ["log", "--color", "sometimes"], ["log", "extra"], ["log", "--since", "-1"], ["log", "-n", "+5"],
         ["--json", "log"], ["log", "--"], ["log", "--json", "--json"], ["log", "-n", "٣"]]


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    """A store of batch runs, prompt rolls, sheet changes and fight words (bench_state's season), and its sheet."""
    folder = tmp_path_factory.mktemp("log-quick")
    sheet = folder / "hero.toml"
    sheet.write_text('name = "Hero"\n\n[status]\nhp = 12\nhp_max = 12\n')
    env = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR", "CRUX_DEBUG")}
    env.update(XDG_STATE_HOME=str(folder), XDG_CONFIG_HOME=str(folder), XDG_DATA_HOME=str(folder))
    (folder / "crux").mkdir()
    fill_quickly(folder / "crux", 3000, [sheet])
    return env, str(sheet)


def both_ways(words: list[str], env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], ...]:
    through_click = subprocess.run(
        [sys.executable, "-c", "import sys; from crux_cli.cli import main; main(sys.argv[1:])", *words],
        capture_output=True, text=True, env=env)
    fast = subprocess.run([sys.executable, "-m", "crux_cli", *words], capture_output=True, text=True, env=env)
    return through_click, fast


@pytest.mark.parametrize("words", QUICK, ids=" ".join)
def test_the_common_forms_of_log_print_without_click_what_click_prints(
        words: list[str], journal: tuple[dict[str, str], str]) -> None:
    from crux_cli.running import log_view

    env, sheet = journal
    words = [sheet if word == SHEET else word for word in words]
    assert log_view.read(words) is not None
    through_click, fast = both_ways(words, env)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        through_click.returncode, through_click.stdout, through_click.stderr)
    assert fast.stdout or fast.stderr
    probe = ("import runpy, sys; sys.argv = ['crux', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('crux_cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "sys.stderr.write(' '.join(sorted(m for m in ('click', 'pyparsing') if m in sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", probe, *words], capture_output=True, text=True, env=env)
    assert loaded.stderr == fast.stderr, loaded.stderr  # nothing after crux's own: neither was imported


def test_an_empty_journal_and_a_config_that_cannot_be_used_read_the_same(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR", "CRUX_DEBUG")}
    env.update(XDG_STATE_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    for words in (["log"], ["log", "-n", "2"], ["log", "--stats"], ["log", "--json"]):
        through_click, fast = both_ways(words, env)
        assert (fast.returncode, fast.stdout, fast.stderr) == (
            through_click.returncode, through_click.stdout, through_click.stderr)
    (tmp_path / "crux").mkdir(exist_ok=True)
    (tmp_path / "crux" / "config.toml").write_text("rules = [\n")
    through_click, fast = both_ways(["log", "-n", "2"], env)
    assert "config file is not used" in fast.stderr
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        through_click.returncode, through_click.stdout, through_click.stderr)


@pytest.mark.parametrize("words", CLICK, ids=" ".join)
def test_every_other_form_of_log_goes_to_click(words: list[str]) -> None:
    from crux_cli.running import log_view

    assert log_view.read(words) is None


def test_crux_rules_or_crux_sheet_set_go_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.running import log_view

    assert log_view.read(["log", "-n", "3"]) is not None
    for name in ("CRUX_RULES", "CRUX_SHEET"):
        with monkeypatch.context() as patched:
            patched.setenv(name, "x")
            assert log_view.read(["log", "-n", "3"]) is None
