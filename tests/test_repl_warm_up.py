"""What the REPL builds while its prompt waits for keys, through prompt-toolkit's pipe input.

The first prompt is drawn before the runner and the rule set exist; a line typed a
moment later must find them built, and the grammars (pyparsing) follow once the user
has had a moment, even when the first line came sooner.
"""

from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from crux_cli.core.style import PLAIN
from crux_cli.repl import app
from crux_cli.repl.lexer import tokens
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings


def prompt_for(session: Session, keys: PipeInput) -> PromptSession[str]:
    prompt = app.create_prompt(session, InMemoryHistory(), input=keys, output=DummyOutput())
    app.warm_up_after_first_draw(prompt, session)
    return prompt


def test_what_a_first_line_needs_is_built_before_it_is_typed() -> None:
    tokens.cache_clear()
    session = app.new_session(Settings(seed=3), PLAIN)
    seen: dict[str, bool] = {}
    with create_pipe_input() as keys:
        prompt = prompt_for(session, keys)

        def type_later() -> None:
            time.sleep(0.5)  # a person's pause after the prompt shows; the steps take ~15 ms
            runner = session._runner
            seen["runner"] = runner is not None
            seen["rule set"] = runner is not None and runner.loaded is not None
            seen["tokens"] = tokens.cache_info().currsize > 0
            keys.send_text("DEX\r")

        typist = threading.Thread(target=type_later, daemon=True)
        typist.start()
        line = prompt.prompt()
        typist.join()
    assert line == "DEX"
    assert seen == {"runner": True, "rule set": True, "tokens": True}


def test_the_grammars_are_built_after_a_pause_even_when_the_first_line_came_sooner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "WARM_GRAMMARS_AFTER", 0.3)
    session = app.new_session(Settings(seed=3), PLAIN)
    warmed: list[float] = []
    monkeypatch.setattr(session, "warm_up", lambda: warmed.append(time.perf_counter()))
    with create_pipe_input() as keys:
        prompt = prompt_for(session, keys)
        keys.send_text("DEX\r")  # typed ahead: the first prompt ends before the pause
        assert prompt.prompt() == "DEX"
        assert not warmed

        def type_later() -> None:
            time.sleep(0.8)
            keys.send_text("DEX\r")

        typist = threading.Thread(target=type_later, daemon=True)
        typist.start()
        assert prompt.prompt() == "DEX"
        typist.join()
        assert len(warmed) == 1  # built during the second prompt's pause
        keys.send_text("DEX\r")
        assert prompt.prompt() == "DEX"
    assert len(warmed) == 1  # and only once
