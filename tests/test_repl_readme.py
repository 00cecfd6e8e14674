"""The README's REPL transcript is real: each line typed at a prompt prints what follows it."""

from __future__ import annotations

import re
from pathlib import Path

from crux_cli import __version__
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner

README = Path(__file__).resolve().parent.parent / "README.md"
PROMPT = re.compile(r"^(\w+)> (.*)$")


def transcript() -> list[str]:
    section = README.read_text(encoding="utf-8").split("### The interactive session", 1)[1]
    return re.search(r"```text\n(.*?)```", section, flags=re.S).group(1).splitlines()


def test_the_readme_tour_is_what_a_session_prints() -> None:
    command, banner, *lines = transcript()
    assert command == "$ crux --seed 3"
    assert banner == f"crux {__version__} · crux rules · /help for help, Ctrl-D to leave"
    session = Session(Runner(seed=3))
    typed: list[tuple[str, str, list[str]]] = []
    for line in lines:
        prompt = PROMPT.match(line)
        if prompt:
            typed.append((prompt.group(1), prompt.group(2), []))
        else:
            typed[-1][2].append(line)
    assert len(typed) >= 8
    for rules, line, expected in typed:
        assert session.runner.rules_name == rules, line
        assert session.handle(line) == expected, line
