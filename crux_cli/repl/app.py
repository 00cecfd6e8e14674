"""The interactive loop: read a line with prompt-toolkit, let the session answer it, print.

`run_repl` takes the terminal's input and output as arguments so tests can
drive the real loop through prompt-toolkit's pipe input.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import shutil
import sys
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from crux_cli import __version__, rulesets
from crux_cli.core.style import PLAIN, Palette, wants_colour
from crux_cli.repl import words
from crux_cli.repl.aliases import load_aliases
from crux_cli.repl.commands import alias_clash
from crux_cli.repl.completer import CruxCompleter
from crux_cli.repl.history import data_dir, open_history
from crux_cli.repl.key_bindings import create_key_bindings, default_bindings_later
from crux_cli.repl.lexer import CruxLexer, tokens
from crux_cli.repl.pager import page, pager_command, wrap
from crux_cli.repl.session import Session
from crux_cli.repl.style import create_style
from crux_cli.repl.toolbar import create_toolbar
from crux_cli.rulesets import DEFAULT
from crux_cli.running.config import Config, alias_problem, config_path, write_defaults
from crux_cli.running.settings import Settings, make_runner
from crux_cli.state.autosave import Autosave


class SuggestFromGoodLines(AutoSuggestFromHistory):
    """Suggestions from history, skipping the lines this session refused: a typo is not offered back."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        text = document.text.rsplit("\n", 1)[-1]
        if not text.strip():
            return None
        index = getattr(buffer.history, "line_index", None)  # the kept history's (tests/bench/bench_repl_history.py)
        if index is not None:
            line = index.newest_starting_with(text, self.session.failed)
            return None if line is None else Suggestion(line[len(text):])
        for string in reversed(list(buffer.history.get_strings())):
            line = string.splitlines()[-1] if string.strip() else ""
            if line.startswith(text) and line.strip() not in self.session.failed:
                rest = line[len(text):]
                if self.splits_a_name(text, rest):
                    return None
                return Suggestion(rest)
        return None

    def splits_a_name(self, text: str, rest: str) -> bool:
        """A grey continuation of a whole combatant's name (`atk rat` + `s`) would show `atk rats` on the
        screen while Enter runs `atk rat`: none is offered there."""
        last = text.split()[-1].lower() if text.split() and not text[-1].isspace() else ""
        if not last or not rest[:1].isalnum():
            return False
        return self.session.fight_marks().get(last) == "class:name"


class KeptBuffer(Buffer):
    """A prompt's buffer that starts from the whole history at once once it is read.

    prompt-toolkit's buffer empties its lines at every prompt and reloads the history into them one
    entry at a time (59,000 entries: milliseconds before the first key is read); the kept history's
    lines, oldest first, are copied in one step instead (tests/bench/bench_repl_history.py, a statement).
    """

    def reset(self, document: Document | None = None, append_to_history: bool = False) -> None:
        super().reset(document, append_to_history)
        lines = getattr(self.history, "oldest_first", None)
        if lines is None:  # not read whole yet: prompt-toolkit reads it, as it always does
            return
        working = deque(lines)
        working.append(self.text)
        self._working_lines = working
        self._Buffer__working_index = len(working) - 1  # Buffer's own (name-mangled) index of the line shown
        self._load_history_task = _READ  # type: ignore[assignment]


class _Read:
    """Stands for the history's load task once the history is in the buffer: there is nothing to cancel."""

    def cancel(self) -> bool:
        return False


_READ = _Read()


class KeptPromptSession(PromptSession[str]):
    def _create_default_buffer(self) -> Buffer:
        buffer = super()._create_default_buffer()
        buffer.__class__ = KeptBuffer  # the same buffer, with KeptBuffer's reset
        return buffer


def create_prompt(session: Session, history: History, no_color: bool = False, input: Input | None = None,
                  output: Output | None = None, config: Config | None = None) -> PromptSession[str]:
    config = config or Config()
    with default_bindings_later():  # made after the first draw (repl/key_bindings.py)
        return kept_prompt_session(session, history, no_color, input, output, config)


def kept_prompt_session(session: Session, history: History, no_color: bool, input: Input | None,
                        output: Output | None, config: Config) -> PromptSession[str]:
    return KeptPromptSession(
        message=lambda: [("class:prompt", f"{session.rules_name}> ")],
        history=history,
        auto_suggest=SuggestFromGoodLines(session),
        enable_history_search=True,  # Up recalls only the lines that start with what is typed
        enable_open_in_editor=True,  # Ctrl-X Ctrl-E (Emacs) or v (Vi): the line in $EDITOR
        completer=CruxCompleter(session),
        complete_while_typing=False,  # Tab asks; dice lines are short and a menu would cover the output
        lexer=CruxLexer(lambda: session.runner.rules, lambda: frozenset(session.aliases), session.claims,
                        session.fight_marks),
        bottom_toolbar=create_toolbar(session, config.toolbar),
        style=create_style(config.theme, config.colors, no_color),
        color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
        key_bindings=create_key_bindings(),
        editing_mode=EditingMode.VI if config.edit_mode == "vi" else EditingMode.EMACS,
        input=input,
        output=output,
    )


def run_repl(settings: Settings, *, input: Input | None = None, output: Output | None = None,
             history: History | None = None, write: Callable[[str], Any] | None = None) -> int:
    """Run the session until /quit or Ctrl-D; the exit status is 0 (errors were answered, not fatal)."""
    with collector_paused() as resume:
        return run_session(settings, input, output, history, write, resume)


def run_session(settings: Settings, input: Input | None, output: Output | None, history: History | None,
                write: Callable[[str], Any] | None, resume: Callable[[Any], None]) -> int:
    terminal = output is None and sys.stdout.isatty()
    config = getattr(settings, "config", None) or Config()
    no_color = settings.no_color or bool(os.environ.get("NO_COLOR"))
    palette = settings.palette(wants_colour(terminal, settings.no_color, dict(os.environ))) if terminal else PLAIN
    session = new_session(settings, palette)
    warnings: list[str] = []
    session.config_aliases = usable_config_aliases(session, config, warnings)
    session.aliases = dict(session.config_aliases)
    say = write or _stdout
    if history is None:  # a real session: history and aliases live in the user's data directory
        history, warning = open_history()
        warnings += [warning] if warning else []
        warnings += keep_aliases_in(session, data_dir() / "aliases")
        warnings += first_use(config)
        warnings += keep_journal(session, settings)
    if settings.table is not None:  # crux serve: the table opens with the session (an error ends it here)
        from crux_cli.repl.serving import Sharing

        session.sharing = Sharing(session, settings.table)
        warnings += session.sharing.links()
    prompt = create_prompt(session, history, no_color, input, output, config)
    prompt.app.after_render += resume  # the collector, paused until the first prompt is drawn
    warm_up_after_first_draw(prompt, session)
    session.paging = config.pager
    show = Screen(say, terminal, lambda: session.paging)
    show([palette.dim(f"crux {__version__} · {session.rules_name} rules · /help for help, Ctrl-D to leave"),
          *warnings, *(session.resume_offer() if session.autosave is not None else [])])
    take_turns(session, prompt, history, show, say)
    close_session(session, palette, say)
    return 0


def take_turns(session: Session, prompt: PromptSession[str], history: History, show: Screen,
               say: Callable[[str], Any]) -> None:
    """Read a line and show its answers, until /quit or Ctrl-D."""
    with contextlib.ExitStack() as printing:  # a shared table's lines print above the prompt (repl/serving.py)
        while not session.done:
            if session.sharing is not None and not session.sharing.above_prompt_on:
                printing.enter_context(session.sharing.above_prompt())
            try:
                line = prompt.prompt()
            except EOFError:
                break
            except KeyboardInterrupt:  # Ctrl-C: the line stays on screen with ^C, and a new prompt follows
                continue
            try:
                show(session.handle(line) if session.sharing is None else session.sharing.handle(line))
            except KeyboardInterrupt:  # Ctrl-C while answers print: the session goes on (the line is in history)
                say("cancelled\n")
            for warning in getattr(history, "take_warnings", list)():  # said once; the session goes on
                say(warning + "\n")


def close_session(session: Session, palette: Palette, say: Callable[[str], Any]) -> None:
    """Say where an unfinished fight is kept, and close the autosave and the journal."""
    if session.fight is not None and session.autosave is not None:
        say(palette.dim(f"the fight is kept in {session.autosave.path}: start crux again to resume it") + "\n")
    if session.sharing is not None:
        session.sharing.stop()
    if session.autosave is not None:
        session.autosave.close()
    if session.journal is not None:
        session.journal.close()


class Screen:
    """Prints a turn's lines: wrapped at word boundaries to the terminal, paged when taller than it."""

    def __init__(self, say: Callable[[str], Any], terminal: bool, paging: Callable[[], bool | str]) -> None:
        self.say = say
        self.terminal = terminal
        self.paging = paging  # the session's setting now (/pager switches it)

    def __call__(self, lines: list[str]) -> None:
        if not lines:
            return
        columns, rows = shutil.get_terminal_size()
        if self.terminal:
            lines = [part for line in lines for part in wrap(line, columns)]
        command = pager_command(self.paging()) if self.terminal else None
        if command is not None and len(lines) >= rows - 1 and page("\n".join(lines) + "\n", command):
            return
        self.say("".join(text + "\n" for text in lines))


def first_use(config: Config) -> list[str]:
    """On the first session, the commented defaults are written where crux looks for them (like pgcli)."""
    if os.environ.get("CRUX_CONFIG") or config.path is not None:
        return [] if not config.problem else [f"the config file is not used: {config.problem}"]
    path = config_path()
    if config.problem or not write_defaults(path):
        return [f"the config file is not used: {config.problem}"] if config.problem else []
    return [f"wrote the commented defaults to {path}: edit them to change the rule set, colours, keys…"]


def keep_journal(session: Session, settings: Settings) -> list[str]:
    """Journal this session's rolls and changes, and autosave its fights; a warning when it cannot."""
    session.journal = journal = settings.journal()
    if journal.mode == "off":
        return []
    try:
        session.autosave = Autosave.start(journal)
    except OSError as error:
        return [f"fights are not autosaved this time: {error.filename}: {error.strerror}"]
    return []


def new_session(settings: Settings, palette: Palette) -> Session:
    """A session whose runner is built as the one-shot command builds it (make_runner).

    Without a sheet, the rule set's name is all the first prompt needs, so the
    runner is built after the prompt is drawn; a sheet names its own rule set.
    """
    if settings.sheet is not None:
        return Session(make_runner(settings), palette, settings.json)
    rules = settings.rules or settings.default_rules or DEFAULT  # --rules, else the config file's
    rulesets.check(rules)  # refused before the prompt appears, in the runner's words
    return Session(lambda: make_runner(settings), palette, settings.json, rules_name=rules, seed=settings.seed)


def usable_config_aliases(session: Session, config: Config, warnings: list[str]) -> dict[str, str]:
    """The config file's aliases that /alias would take: one named like a statement word, a fight word or a
    session command is left out, with a warning that names its line, as other config problems do."""
    usable = {}
    for name, body in config.aliases.items():
        clash = alias_clash(session, name)
        if clash is None:
            usable[name] = body
        else:
            warnings.append(alias_problem(config, name, clash))
    return usable


def keep_aliases_in(session: Session, path: Path) -> list[str]:
    """Load the aliases kept in `path` and keep later ones there; a warning if the file cannot be read."""
    session.aliases_file = path  # even when unreadable now: each /alias tries it again, and says so when it fails
    try:
        session.aliases = {**session.aliases, **load_aliases(path)}
    except OSError as error:
        return [f"the aliases of earlier sessions cannot be read: {path}: {error.strerror}"]
    return []


@contextlib.contextmanager
def collector_paused() -> Iterator[Callable[[Any], None]]:
    """The collector paused until the function given is first called (the first prompt drawn), or the block
    ends; what was made meanwhile is then frozen out of its reach.

    The session, the prompt's key bindings, layout and filters live as long as the session: collected
    while they are made, they cost the first prompt some 4 % of its instructions
    (tests/bench/bench_repl_startup.py); frozen, no later collection walks them again.
    """
    paused = [gc.isenabled()]  # a caller that turned it off keeps it off
    gc.disable()

    def resume(_: Any = None) -> None:  # left in the event's handlers: removing one mid-fire skips the next
        if paused[0]:
            paused[0] = False
            gc.freeze()
            gc.enable()

    try:
        yield resume
    finally:
        resume()


WARM_GRAMMARS_AFTER = 1.0  # seconds after a prompt is drawn


def warm_up_after_first_draw(prompt: PromptSession[str], session: Session) -> None:
    """Build what the first answer needs while the first prompt waits for keys, and the grammars a moment later.

    A plain statement (DEX +1b, atk 2d8+3, 4d6kh3) is read by the scanners without any grammar,
    but its first line still needs the runner, the rule set's modules, prompt-toolkit's table of
    key bindings (built at the first key press, ~5 ms), the lexer's token expression and the
    fight words: each is built in a turn of the event loop of its own once the prompt is drawn,
    so a key typed meanwhile is read between two steps, and a line typed after a moment finds
    them all built. The grammars (pyparsing, ~50 ms), which errors and rarer statements need,
    wait until the user has had a moment; a prompt left before then (the app cancels its tasks
    on leaving) starts the wait again at the next, until they are built.
    """
    app = prompt.app
    running: list[asyncio.Task[None]] = []  # this prompt's warm-up, while it runs
    warm = [False]  # the grammars are built

    def start(_: Any) -> None:  # on every draw; left in place once warm, as removing it mid-fire skips the next
        if not warm[0] and (not running or running[0].done()):  # the first draw of this prompt
            running[:] = [app.create_background_task(warm_up())]

    async def warm_up() -> None:
        for step in first_answer_needs(prompt, session):
            with contextlib.suppress(Exception):  # a step that fails fails again for the line that needs it,
                step()                            # which says so in its place, as it did before
            await asyncio.sleep(0)  # keys typed meanwhile are read now
        await asyncio.sleep(WARM_GRAMMARS_AFTER)
        warm[0] = True  # tried once, as before: a grammar that fails to build is not retried at every prompt
        session.warm_up()

    app.after_render += start


def first_answer_needs(prompt: PromptSession[str], session: Session) -> list[Callable[[], Any]]:
    """The steps that build what the first plain statement needs, in the order its line needs them."""

    def key_table() -> None:
        # prompt-toolkit merges its ~600 key bindings into one table at the first key press; any
        # lookup builds it. The registry is the key processor's own (no public name): without it,
        # the first key builds the table, as before.
        bindings = getattr(prompt.app.key_processor, "_bindings", None)
        if bindings is not None:
            bindings.get_bindings_for_keys(("x",))

    def rule_set() -> None:
        session.runner.rules  # noqa: B018  (its modules are imported on first use)

    def typed_line() -> None:  # what colouring a typed line and answering it look up first
        tokens(words.vocabulary(session.runner.rules).patterns)
        session.runner.rules.fight_rules()

    return [key_table, lambda: session.runner, rule_set, typed_line]


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
