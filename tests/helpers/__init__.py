"""The tests' shared kit, imported as a package (`from helpers import crux_here`): run statements with
scripted dice, and run `crux` in this process or as a user would.

`crux_here` runs the command line in this process (click's CliRunner streams, no interpreter to
start): the fast way for a test of what crux answers. `run_crux` runs the installed console script
in a process of its own: for what only a real process shows (exit on a closed pipe, what it imports,
bytes on stdin, a terminal). `helpers.terminal` drives the REPL through a real pseudo-terminal.
The fixtures (a clean state directory per test, no user config) stay in `conftest.py`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.running.runner import Runner

ROOT = Path(__file__).resolve().parent.parent.parent
CRUX = Path(sys.executable).parent / "crux"
UNSET_FOR_TESTS = ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR")  # a clean environment: no colour unless asked


class Work:
    """What a block of code did, counted rather than timed: the same on any machine at any load."""

    calls = 0  # function calls, Python and C (sys.setprofile's "call" and "c_call")


@contextlib.contextmanager
def counting() -> Iterator[Work]:
    """Count the function calls made inside the block: a measure of work a test can bound where it would
    once have bounded seconds (a timed bound fails by chance on a busy machine; a count never does).
    Bounds are generous, a factor of ten or more, so a new Python or library version does not trip them."""
    work = Work()

    def profile(frame: object, event: str, arg: object) -> None:
        if event == "call" or event == "c_call":
            work.calls += 1

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield work
    finally:
        sys.setprofile(before)


def scripted(*faces: int) -> tuple[Roller, ScriptedSource]:
    """A roller that rolls these faces, in order, and its source (to check `source.left`)."""
    source = ScriptedSource(faces)
    return Roller(source), source


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


def said(session: Any, line: str) -> str:
    """What a REPL session (`repl.session.Session`) answers to `line`, which must not be refused."""
    out = session.handle(line)
    assert not any(text.startswith("crux: error") for text in out), out
    return "\n".join(out)


def refused(session: Any, line: str) -> str:
    """What a REPL session answers to `line`, which must be refused."""
    out = session.handle(line)
    assert out and out[0].startswith("crux: error"), out
    return "\n".join(out)
