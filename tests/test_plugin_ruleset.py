"""A rule set from another package: declared by an entry point, seen by every face of crux.

tests/plugin_ruleset/ is a tiny installable package, `crux-coinflip`, whose rule set
`coinflip` has the statements `flip` and `flip N`, its own result, rendering and exact
odds. Nothing in crux names it. The in-process tests make it visible the way an
installation does: a `crux_coinflip-1.0.dist-info/entry_points.txt` on `sys.path`, found
by the real `importlib.metadata`; the slow test installs it with pip and runs `crux`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from crux_cli import rulesets
from crux_cli.cli import crux
from crux_cli.running.settings import Settings

PLUGIN = Path(__file__).resolve().parent / "plugin_ruleset"
ROOT = PLUGIN.parent.parent
ENTRY_POINTS = "[crux.rulesets]\ncoinflip = coinflip.ruleset:RULESET\n"
FLIP_LINE = re.compile(r"flip 3: (\d) heads of 3 · ([HT]) ([HT]) ([HT])")


def forget_plugins() -> None:
    rulesets.plugins.cache_clear()
    rulesets.load.cache_clear()


def install_metadata(site: Path, entry_points: str = ENTRY_POINTS) -> None:
    """What pip leaves behind for importlib.metadata: a dist-info folder with the entry points."""
    info = site / "crux_coinflip-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: crux-coinflip\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def coinflip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    install_metadata(tmp_path)
    monkeypatch.syspath_prepend(str(PLUGIN))  # the package itself
    monkeypatch.syspath_prepend(str(tmp_path))  # its metadata
    monkeypatch.delenv("CRUX_RULES", raising=False)
    monkeypatch.delenv("CRUX_SHEET", raising=False)
    forget_plugins()
    yield tmp_path
    forget_plugins()


def crux_says(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(crux, list(args), env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def test_it_imports_nothing_of_crux_but_the_public_plugin_module() -> None:
    import ast

    imported = set()
    for path in (PLUGIN / "coinflip").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    assert {name for name in imported if name.split(".")[0] == "crux_cli"} == {"crux_cli.plugin"}


def test_the_public_plugin_module_exports_what_it_promises() -> None:
    import crux_cli.plugin as plugin

    assert {"RuleSet", "Context", "CruxError", "LimitError", "SheetError", "Odds", "Table", "AtLeast",
            "Distribution", "Dist", "dice_odds", "Roller", "Palette", "lazy"} <= set(plugin.__all__)
    assert all(hasattr(plugin, name) for name in plugin.__all__)
    assert "Stability" in (plugin.__doc__ or "")


def test_the_registry_finds_it_by_its_entry_point(coinflip: Path) -> None:
    assert rulesets.names() == [*rulesets.BUILT_IN, "coinflip"]
    assert rulesets.load("coinflip").keywords == {"flip"}
    assert rulesets.load("coinflip").parse.__module__ == "coinflip.ruleset"  # nothing in crux names it


def test_a_roll_in_the_plug_in_rules(coinflip: Path) -> None:
    status, out, _ = crux_says("--rules", "coinflip", "--seed", "7", "flip 3")
    assert status == 0
    match = FLIP_LINE.fullmatch(out.strip())
    assert match, out
    assert int(match.group(1)) == [match.group(i) for i in (2, 3, 4)].count("H")
    assert crux_says("--rules", "coinflip", "--seed", "7", "flip 3")[1] == out  # the seed repeats it


def test_rules_list_names_it_with_its_summary(coinflip: Path) -> None:
    status, out, _ = crux_says("--rules", "list")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == [*rulesets.BUILT_IN, "coinflip"]
    assert "coinflip   Coin flips (a plug-in): flip, flip N" in out.splitlines()


def test_json_carries_its_own_fields(coinflip: Path) -> None:
    import json

    status, out, _ = crux_says("--json", "--rules", "coinflip", "--seed", "1", "flip 4")
    record = json.loads(out)
    assert status == 0
    assert {k: record[k] for k in ("input", "kind", "rules", "seed")} == \
        {"input": "flip 4", "kind": "flip", "rules": "coinflip", "seed": 1}
    assert record["heads"] == record["coins"].count("heads") and len(record["coins"]) == 4


def test_exact_odds(coinflip: Path) -> None:
    status, out, _ = crux_says("odds", "--rules", "coinflip", "flip 3")
    assert status == 0, out
    assert out.splitlines()[0] == "flip 3: exact odds"
    assert re.search(r"all heads\s+1/8\b", out), out
    assert re.search(r"not all heads\s+7/8\b", out), out


def test_exact_odds_as_json(coinflip: Path) -> None:
    import json

    status, out, _ = crux_says("odds", "--json", "--rules", "coinflip", "flip 2")
    record = json.loads(out)
    assert status == 0 and record["rules"] == "coinflip" and record["kind"] == "flip"


def test_its_errors_are_crux_errors(coinflip: Path) -> None:
    status, _, err = crux_says("--rules", "coinflip", "flip many")
    assert status == 2
    assert err.splitlines() == ["crux: error: flip takes a number of coins", "  flip many", "      ^",
                                "  hint: write 'flip' or 'flip 3'"]


def test_generic_dice_still_roll_under_it(coinflip: Path) -> None:
    status, out, _ = crux_says("--rules", "coinflip", "--seed", "1", "2d6")
    assert status == 0 and out.startswith("2d6: ")


def test_an_unknown_name_lists_the_plug_in_too(coinflip: Path) -> None:
    status, _, err = crux_says("--rules", "coinflop", "flip")
    assert status == 2
    assert f"the rule sets are: {', '.join(rulesets.BUILT_IN)}, coinflip" in err
    assert "crux, stepdice" in err


def test_a_broken_plug_in_is_refused_in_plain_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_metadata(tmp_path, "[crux.rulesets]\ncoinflip = no_such_module:RULESET\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    forget_plugins()
    try:
        status, _, err = crux_says("--rules", "coinflip", "flip")
    finally:
        forget_plugins()
    assert status == 2
    assert "the rule set 'coinflip' could not be loaded: ModuleNotFoundError" in err
    assert "Traceback" not in err


def drive_repl(*lines: str, rules: str) -> list[str]:
    """A real prompt-toolkit session on pipe input (as tests/test_repl_pipe.py does): the lines it printed."""
    from crux_cli.repl.app import run_repl

    printed: list[str] = []
    with create_pipe_input() as keys:

        def type_lines() -> None:
            for line in lines:
                time.sleep(0.25)  # let the session handle the line before
                keys.send_text(line + "\r")
            time.sleep(0.25)
            keys.send_text("\x04")

        typist = threading.Thread(target=type_lines, daemon=True)
        typist.start()
        run_repl(Settings(seed=3, rules=rules), input=keys, output=DummyOutput(), history=InMemoryHistory(),
                 write=printed.append)
        typist.join()
    return "".join(printed).splitlines()


def test_the_repl_plays_it_and_switches_to_it(coinflip: Path) -> None:
    lines = drive_repl("flip 3", "/rules", "/rules crux", "/rules coinflip", "flip", rules="coinflip")
    assert "coinflip rules" in lines[0]
    assert FLIP_LINE.fullmatch(lines[1]), lines
    assert any(re.fullmatch(r"\*\s+coinflip\s+Coin flips \(a plug-in\): flip, flip N", line) for line in lines)
    assert "rules: crux" in lines and "rules: coinflip" in lines
    assert re.fullmatch(r"flip: [01] heads of 1 · [HT]", lines[-1]), lines


# -- installed for real ----------------------------------------------------------------------------

@pytest.mark.slow
def test_installed_with_pip_the_crux_command_sees_it(tmp_path: Path) -> None:
    site, source = tmp_path / "site", tmp_path / "coinflip-src"
    shutil.copytree(PLUGIN, source)  # pip builds in the folder it is given: not in the checkout
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(source)],
                   check=True, capture_output=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET")}
    env.update(NO_COLOR="1", PYTHONPATH=str(site))

    def crux_cli(*args: str, stdin: str | None = None) -> str:
        done = subprocess.run([sys.executable, "-m", "crux_cli", *args], capture_output=True, text=True,
                              env=env, timeout=30, cwd=tmp_path, input=stdin)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert FLIP_LINE.fullmatch(crux_cli("--rules", "coinflip", "flip 3").strip())
    assert "coinflip" in crux_cli("--rules", "list")
    assert '"kind": "flip"' in crux_cli("--json", "--rules", "coinflip", "flip 3")
    assert "all heads" in crux_cli("odds", "--rules", "coinflip", "flip 3")
    batch = crux_cli("--rules", "coinflip", "-", stdin="flip 3\nflip 1\n").splitlines()
    assert FLIP_LINE.fullmatch(batch[0]) and batch[1].startswith("flip 1: ")


# -- built-in rule sets never pay for the lookup ---------------------------------------------------

@pytest.mark.parametrize("args", [["DEX +2b"], ["4d6kh3"], ["--rules", "stepdice", "save d8"], ["odds", "4d6kh3"],
                                  ["--json", "4d6kh3"]], ids=" ".join)
def test_a_built_in_roll_never_imports_importlib_metadata(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "crux_cli", *args], capture_output=True,
                          text=True, timeout=30, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "importlib.metadata" not in imported
    assert "prompt_toolkit" not in imported


@pytest.fixture
def three_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """coinflip, one whose module is missing, and one whose rule engine divides by zero: three packages."""
    for package, entry in (("crux_coinflip", "coinflip = coinflip.ruleset:RULESET"),
                           ("crux_broken", "broken = no_such_module:RULESET"),
                           ("crux_faulty", "faulty = faultyflip:RULESET")):
        info = tmp_path / f"{package}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[crux.rulesets]\n{entry}\n")
    (tmp_path / "faultyflip.py").write_text(
        "from coinflip.ruleset import RULESET as COINFLIP\n\n"
        "def run(statement, ctx):\n    return 1 / 0\n\n"
        "RULESET = COINFLIP.replace(name='faulty', run=run)\n")
    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("CRUX_RULES", raising=False)
    forget_plugins()
    yield tmp_path
    forget_plugins()


def test_one_broken_plug_in_does_not_hide_the_others(three_plugins: Path) -> None:
    status, out, err = crux_says("--rules", "list")
    assert status == 0, err
    listed = dict(line.split(None, 1) for line in out.splitlines())
    assert listed["coinflip"] == "Coin flips (a plug-in): flip, flip N"
    assert listed["broken"].startswith("(not usable: could not be loaded: ModuleNotFoundError")
    status, out, _ = crux_says("--rules", "coinflip", "--seed", "1", "flip 3")
    assert status == 0 and FLIP_LINE.match(out)


def test_a_fault_in_a_plug_in_is_blamed_on_the_plug_in_not_on_crux(three_plugins: Path) -> None:
    status, _, err = crux_says("--rules", "faulty", "flip 2")
    assert status == 2
    assert "the rule set 'faulty' failed (run): ZeroDivisionError: division by zero" in err
    assert "a bug in the package that provides it (faultyflip:RULESET), not in crux" in err
    assert "internal error" not in err and "Traceback" not in err


def test_a_package_s_rule_set_gets_a_new_roller_and_context_every_statement(coinflip: Path) -> None:
    """Crux's own rules share one roller a runner (`Runner.roller(shared=True)`); a package's rule set may keep
    what it is given, so each of its statements gets a roller and a context of its own."""
    from crux_cli.core.ruleset import Context
    from crux_cli.running.runner import Runner

    runner = Runner(rules="coinflip", seed=7)
    rules = runner.rules
    seen: list[Context] = []
    runner.loaded = rules.replace(run=lambda statement, ctx: seen.append(ctx) or rules.run(statement, ctx))
    first, second = runner.answer("flip 3"), runner.answer("flip 3")
    assert first.input == second.input == "flip 3"
    assert seen[0] is not seen[1] and seen[0].roller is not seen[1].roller
    assert not runner.contexts
