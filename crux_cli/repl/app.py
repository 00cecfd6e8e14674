"""The interactive loop: read a line with prompt-toolkit, let the session answer it, print.

`run_repl` takes the terminal's input and output as arguments so tests can
drive the real loop through prompt-toolkit's pipe input.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from crux_cli import __version__, rulesets
from crux_cli.core.style import PLAIN, Palette, wants_colour
from crux_cli.repl.completer import CruxCompleter
from crux_cli.repl.history import data_dir, open_history
from crux_cli.repl.key_bindings import create_key_bindings
from crux_cli.repl.lexer import CruxLexer
from crux_cli.repl.session import Session
from crux_cli.repl.style import create_style
from crux_cli.repl.toolbar import create_toolbar
from crux_cli.rulesets import DEFAULT
from crux_cli.running.settings import make_runner


def create_prompt(session: Session, history: History, no_color: bool = False, input: Input | None = None,
                  output: Output | None = None) -> PromptSession[str]:
    return PromptSession(
        message=lambda: [("class:prompt", f"{session.rules_name}> ")],
        history=history,
        auto_suggest=AutoSuggestFromHistory(),
        completer=CruxCompleter(session),
        complete_while_typing=False,  # Tab asks; dice lines are short and a menu would cover the output
        lexer=CruxLexer(lambda: session.runner.rules, lambda: frozenset(session.aliases), session.claims,
                        session.fight_marks),
        bottom_toolbar=create_toolbar(session),
        style=create_style(),
        color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
        key_bindings=create_key_bindings(),
        input=input,
        output=output,
    )


def run_repl(settings: Any, *, input: Input | None = None, output: Output | None = None,
             history: History | None = None, write: Callable[[str], Any] | None = None) -> int:
    """Run the session until /quit or Ctrl-D; the exit status is 0 (errors were answered, not fatal)."""
    terminal = output is None and sys.stdout.isatty()
    palette = Palette(wants_colour(terminal, settings.no_color, dict(os.environ))) if terminal else PLAIN
    session = new_session(settings, palette)
    say = write or _stdout
    warnings: list[str] = []
    if history is None:  # a real session: history and aliases live in the user's data directory
        history, warning = open_history()
        warnings += [warning] if warning else []
        warnings += keep_aliases_in(session, data_dir() / "aliases")
        warnings += keep_journal(session)
    prompt = create_prompt(session, history, settings.no_color, input, output)
    warm_up_after_first_draw(prompt, session)
    say(palette.dim(f"crux {__version__} · {session.rules_name} rules · /help for help, Ctrl-D to leave") + "\n")
    for warning in warnings + (session.resume_offer() if session.autosave is not None else []):
        say(warning + "\n")
    while not session.done:
        try:
            line = prompt.prompt()
        except EOFError:
            break
        except KeyboardInterrupt:  # only when a terminal sends SIGINT outside the key binding
            continue
        try:
            for text in session.handle(line):
                say(text + "\n")
        except KeyboardInterrupt:  # Ctrl-C while answers print: the session goes on (the line is in history)
            say("cancelled\n")
        for warning in getattr(history, "take_warnings", list)():  # said once; the session goes on
            say(warning + "\n")
    if session.fight is not None and session.autosave is not None and session.autosave.path.exists():
        say(palette.dim(f"the fight is kept in {session.autosave.path}: start crux again to resume it") + "\n")
    return 0


def keep_journal(session: Session) -> list[str]:
    """Journal this session's rolls and changes, and autosave its fights; a warning when it cannot."""
    from crux_cli.state.autosave import Autosave
    from crux_cli.state.journal import Journal

    session.journal = Journal.open()
    try:
        session.autosave = Autosave.start(session.journal.session)
    except OSError as error:
        return [f"fights are not autosaved this time: {error.filename}: {error.strerror}"]
    return []


def new_session(settings: Any, palette: Palette) -> Session:
    """A session whose runner is built as the one-shot command builds it (make_runner).

    Without a sheet, the rule set's name is all the first prompt needs, so the
    runner is built after the prompt is drawn; a sheet names its own rule set.
    """
    if settings.sheet is not None:
        return Session(make_runner(settings), palette, settings.json)
    rules = settings.rules or DEFAULT
    rulesets.check(rules)  # refused before the prompt appears, in the runner's words
    return Session(lambda: make_runner(settings), palette, settings.json, rules_name=rules, seed=settings.seed)


def keep_aliases_in(session: Session, path: Path) -> list[str]:
    """Load the aliases kept in `path` and keep later ones there; a warning if the file cannot be read."""
    from crux_cli.repl.aliases import load_aliases

    try:
        session.aliases = load_aliases(path)
    except OSError as error:
        return [f"the aliases of earlier sessions cannot be read: {path}: {error.strerror}"]
    session.aliases_file = path
    return []


def warm_up_after_first_draw(prompt: PromptSession[str], session: Session) -> None:
    """Build the runner and grammars once the first prompt is on screen, while the user starts typing."""

    def warm_up(app: Any) -> None:
        prompt.app.after_render -= warm_up
        session.warm_up()

    prompt.app.after_render += warm_up


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
