"""How `crux repl` (and `crux` alone on a terminal) reaches its first prompt: without click, with the
collector paused until the prompt is drawn (crux_cli/__main__.py, repl/app.py; PERFORMANCE.md)."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from crux_cli.repl import app
from crux_cli.running.settings import Settings

PROBE = """
import sys
import crux_cli.__main__ as program
import crux_cli.running.streams as streams
program.is_terminal = streams.is_terminal = lambda stream: True  # stdin and stdout a terminal, as in a session
program.start_repl = lambda settings: print("click" in sys.modules, settings.rules, settings.sheet) or 0
try:
    program.main({words})
except SystemExit as leaving:
    print("status", leaving.code)
"""


def probe(words: list[str], env: dict[str, str] | None = None) -> list[str]:
    import os

    environment = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET")} | (env or {})
    done = subprocess.run([sys.executable, "-c", PROBE.format(words=words)], capture_output=True, text=True,
                          env=environment, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("words", [["repl"], []])
def test_the_session_opens_without_click(words: list[str]) -> None:
    assert probe(words) == ["False", "None", "None", "status", "0"]


def test_a_session_that_click_must_read_goes_to_click() -> None:
    assert probe(["repl"], {"CRUX_RULES": "stepdice"}) == ["True", "stepdice", "None", "status", "0"]
    assert probe(["repl", "--rules", "stepdice"]) == ["True", "stepdice", "None", "status", "0"]


def test_the_collector_waits_for_the_first_prompt_then_runs_again() -> None:
    seen: list[bool] = []
    assert gc.isenabled()
    with create_pipe_input() as keys:
        create_prompt = app.create_prompt

        def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(gc.isenabled())  # while the prompt is made
            prompt = create_prompt(*args, **kwargs)
            prompt.app.after_render += lambda _: seen.append(gc.isenabled())
            return prompt

        app.create_prompt = watched
        try:
            keys.send_text("\x04")
            app.run_repl(Settings(seed=1), input=keys, output=DummyOutput(), history=InMemoryHistory(),
                         write=lambda _: None)
        finally:
            app.create_prompt = create_prompt
    assert seen[0] is False and seen[-1] is True and gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off() -> None:
    gc.disable()
    try:
        with create_pipe_input() as keys:
            keys.send_text("\x04")
            app.run_repl(Settings(seed=1), input=keys, output=DummyOutput(), history=InMemoryHistory(),
                         write=lambda _: None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_prompt_toolkits_default_keys_are_made_after_the_first_draw_and_work() -> None:
    """Its ~600 default bindings are made at the first key or by the warm-up after the first draw
    (repl/key_bindings.py LaterBindings), never before the prompt shows; typed keys still edit the line."""
    from crux_cli.core.style import PLAIN
    from crux_cli.repl.key_bindings import LaterBindings

    session = app.new_session(Settings(seed=3), PLAIN)
    made_at_first_draw: list[bool] = []
    with create_pipe_input() as keys:
        prompt = app.create_prompt(session, InMemoryHistory(), input=keys, output=DummyOutput())
        defaults = prompt.app._default_bindings
        assert isinstance(defaults, LaterBindings) and defaults.made is None
        prompt.app.after_render += lambda _: made_at_first_draw.append(defaults.made is not None)
        keys.send_text("DEX +1x\x7fb\x01\x05\r")  # Backspace, Ctrl-A, Ctrl-E: Emacs keys of the defaults
        assert prompt.prompt() == "DEX +1b"
    assert made_at_first_draw[0] is False and defaults.made is not None


def test_the_default_keys_are_made_at_once_outside_the_session() -> None:
    """Only the session's prompt takes them later: an Application made elsewhere makes them as it always did."""
    from prompt_toolkit import PromptSession

    from crux_cli.repl.key_bindings import LaterBindings

    with create_pipe_input() as keys:
        assert not isinstance(PromptSession(input=keys, output=DummyOutput()).app._default_bindings, LaterBindings)
