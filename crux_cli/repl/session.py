"""The state of an evening at the table: the runner, aliases, recent rolls, countdowns and the sheet.

`Session.handle(line)` answers one line typed at the prompt and returns the lines
to print, errors included (rendered with the caret), so the loop in `app` only
reads and prints, and tests drive a session without any terminal.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from crux_cli.errors import CruxError
from crux_cli.render.style import PLAIN, Palette
from crux_cli.repl.countdown import Countdown
from crux_cli.runner import Answer, Runner, split_comment, split_statements
from crux_cli.state.hero import Hero

RECENT = 100  # rolls kept for /history


class Session:
    def __init__(self, runner: Runner, palette: Palette = PLAIN, json: bool = False) -> None:
        self.runner = runner
        self.palette = palette
        self.json = json
        self.aliases: dict[str, str] = {}
        self.recent: deque[Answer] = deque(maxlen=RECENT)
        self.countdowns: list[Countdown] = []
        self.sheet: Path | None = None
        self.sheet_mtime: int | None = None
        self.done = False

    def handle(self, line: str) -> list[str]:
        """The lines to print for one line typed at the prompt; an error never ends the session."""
        from crux_cli.repl.commands import run_command

        if not line.strip() or line.lstrip().startswith("#"):
            return []
        try:
            if line.lstrip().startswith("/"):
                return run_command(self, line)
            self.refresh_hero()
            answers = self.runner.execute(self.expand(line))
        except CruxError as error:
            return self.error(error)
        self.recent.extend(answers)
        return [self.render(answer) for answer in answers]

    def error(self, error: CruxError) -> list[str]:
        from crux_cli.render.text import error_lines

        return error_lines(error, self.palette)

    def render(self, answer: Answer) -> str:
        if self.json:
            from crux_cli.render.jsonl import line

            return line(answer)
        from crux_cli.render.text import answer_line

        return answer_line(answer, self.palette)

    # -- aliases ------------------------------------------------------------------------------------

    def expand(self, line: str) -> str:
        """Replace an alias at the start of each statement: `sneak grit` → `DEX +1b grit`."""
        text, comment = split_comment(line)
        parts = [self.expand_statement(part) for part in split_statements(text)]
        return "; ".join(parts) + (f" # {comment}" if comment else "")

    def expand_statement(self, text: str) -> str:
        head, _, rest = text.partition(" ")
        if head.lower() == "odds":
            return f"odds {self.expand_statement(rest.lstrip())}"
        body = self.aliases.get(head.lower())
        return text if body is None else f"{body} {rest}".strip()

    # -- the sheet ----------------------------------------------------------------------------------

    def load_sheet(self, path: Path) -> None:
        """Roll as the hero on the sheet at `path`, in the rule set the sheet names."""
        hero = read_hero(path)
        if hero.rules != self.runner.rules_name:
            self.runner.use_rules(hero.rules)
        self.runner.hero = hero
        self.sheet = path
        self.sheet_mtime = _mtime(path)

    def refresh_hero(self) -> None:
        """Re-read the sheet when it changed on disk (another `crux sheet …` took damage, spent Grit)."""
        if self.sheet is None:
            return
        mtime = _mtime(self.sheet)
        if mtime is not None and mtime != self.sheet_mtime:
            self.runner.hero = read_hero(self.sheet)
            self.sheet_mtime = mtime


def read_hero(path: Path) -> Hero:
    try:
        from crux_cli.state.store import load_hero
    except ImportError:  # the sheets layer has not landed in this build
        raise CruxError("this build of crux cannot read character sheets yet") from None
    return load_hero(path)


def _mtime(path: Path) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
