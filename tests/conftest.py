"""Shared helpers: run statements with scripted dice, and run `crux` in this process or as a user would.

`crux_here` runs the command line in this process (click's CliRunner streams, no interpreter to
start): the fast way for a test of what crux answers. `run_crux` runs the installed console script
in a process of its own: for what only a real process shows (exit on a closed pipe, what it imports,
bytes on stdin, a terminal).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from crux_cli.core.rng import ScriptedSource
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.running.runner import Runner

# Every crux a test runs keeps its journal and autosaves here, never in the user's own state directory.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="crux-test-state-")

ROOT = Path(__file__).resolve().parent.parent
CRUX = Path(sys.executable).parent / "crux"
UNSET_FOR_TESTS = ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR")  # a clean environment: no colour unless asked


@pytest.fixture(autouse=True, scope="session")
def no_user_config(tmp_path_factory: pytest.TempPathFactory) -> object:
    """No test reads the developer's crux config or writes one into their home (subprocesses included)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
        patch.delenv("CRUX_CONFIG", raising=False)
        yield


def roll(statement: str, faces: list[int], hero: Hero | None = None, rules: str = "crux"):
    """Answer one statement with these faces, in order; every face must be used."""
    source = ScriptedSource(faces)
    answers = Runner(rules=rules, source=source, hero=hero).execute(statement)
    assert source.left == 0, f"{source.left} scripted faces were not rolled"
    assert len(answers) == 1
    return answers[0].result


def run_crux(*args: str, stdin: str | None = None, env: dict[str, str] | None = None,
             timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """The installed console script, with a clean environment (no colour unless asked)."""
    environment = {k: v for k, v in os.environ.items() if k not in UNSET_FOR_TESTS}
    environment.update(env or {})
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          env=environment, timeout=timeout)


def crux_here(*args: str, stdin: str | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`crux ARGS…` run in this process, answered as `run_crux` answers (status, stdout, stderr)."""
    from click.testing import CliRunner

    from crux_cli.__main__ import main

    environment: dict[str, str | None] = {name: None for name in UNSET_FOR_TESTS}
    environment.update(env or {})
    with CliRunner().isolation(input=stdin, env=environment) as streams:
        try:
            main(list(args))
            status = 0
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        sys.stdout.flush()  # what a process leaving would flush
        sys.stderr.flush()
        return subprocess.CompletedProcess(["crux", *args], status, streams[0].getvalue().decode(),
                                           streams[1].getvalue().decode())


@functools.cache
def gen_completions() -> ModuleType:
    """tools/gen_completions.py, the developers' script that writes the completion scripts."""
    spec = importlib.util.spec_from_file_location("gen_completions", ROOT / "tools" / "gen_completions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def own_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own journal and autosaves: a fight one test leaves is never offered to the next."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


@pytest.fixture
def crux_cmd():
    return run_crux
