"""The state of an evening at the table: the runner, aliases, recent rolls, countdowns and the sheet.

`Session.handle(line)` answers one line typed at the prompt and returns the lines
to print, errors included (rendered with the caret), so the loop in `app` only
reads and prints, and tests drive a session without any terminal.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from crux_cli.errors import CruxError
from crux_cli.render.style import PLAIN, Palette
from crux_cli.rules import DEFAULT

if TYPE_CHECKING:  # the runner, and the engine behind it, are imported on first use: see `warm_up`
    from crux_cli.repl.countdown import Countdown
    from crux_cli.runner import Answer, Runner
    from crux_cli.state.hero import Hero

RECENT = 100  # rolls kept for /history


class Session:
    def __init__(self, runner: Runner | None = None, palette: Palette = PLAIN, json: bool = False, *,
                 rules: str = DEFAULT, seed: int | None = None) -> None:
        """`runner` answers the statements; without one, a runner for `rules` and `seed` is built on first use.

        The prompt needs only the rule set's name, so the REPL draws it before the
        rule set's grammar and engine are imported; `warm_up` builds them right after.
        """
        self._runner = runner
        if runner is None:
            from crux_cli.runner import check_rules

            check_rules(rules)  # a wrong name is refused before the prompt appears
        self._first = (runner.rules_name, runner.seed) if runner is not None else (rules, seed)
        self.palette = palette
        self.json = json
        self.aliases: dict[str, str] = {}
        self.recent: deque[Answer] = deque(maxlen=RECENT)
        self.countdowns: list[Countdown] = []
        self.sheet: Path | None = None
        self.sheet_mtime: int | None = None
        self.done = False

    @property
    def runner(self) -> Runner:
        if self._runner is None:
            from crux_cli.runner import Runner

            self._runner = Runner(rules=self._first[0], seed=self._first[1])
        return self._runner

    @property
    def rules_name(self) -> str:
        return self._runner.rules_name if self._runner is not None else self._first[0]

    @property
    def seed(self) -> int | None:
        return self._runner.seed if self._runner is not None else self._first[1]

    @property
    def hero(self) -> Hero | None:
        return self._runner.hero if self._runner is not None else None

    def warm_up(self) -> None:
        """Build the runner and each statement's grammar, so the first roll is as quick as any other."""
        from crux_cli.notation.parse import parse_statement

        rules = self.runner.rules
        for word in sorted(rules.KEYWORDS):
            with contextlib.suppress(CruxError):  # a word alone is often incomplete; its grammar is built anyway
                parse_statement(word, rules)

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
        from crux_cli.runner import split_comment, split_statements

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

