"""Shared helpers: run statements with scripted dice, and run the installed `crux` as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from crux_cli.core.rng import ScriptedSource
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.running.runner import Runner

ROOT = Path(__file__).resolve().parent.parent
CRUX = Path(sys.executable).parent / "crux"


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
    environment = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR")}
    environment.update(env or {})
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          env=environment, timeout=timeout)


@pytest.fixture
def crux_cmd():
    return run_crux
