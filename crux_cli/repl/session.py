"""The state of an evening at the table: the runner, aliases, recent rolls, countdowns and the hero.

`Session.handle(line)` answers one line typed at the prompt and returns the lines
to print, errors included (rendered with the caret), so the loop in `app` only
reads and prints, and tests drive a session without any terminal. Statements are
answered by the same `Runner` (and `odds …` by the same `Runner.odds`) as the
one-shot command, and printed by the same renderers.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.style import PLAIN, Palette
from crux_cli.rulesets import DEFAULT

if TYPE_CHECKING:
    from crux_cli.repl.countdown import Countdown
    from crux_cli.repl.fight import Fight
    from crux_cli.rulesets.crux.hero import Hero
    from crux_cli.running.runner import Answer, Runner

RECENT = 100  # rolls kept for /history


class Session:
    def __init__(self, runner: Runner | Callable[[], Runner], palette: Palette = PLAIN, json: bool = False, *,
                 rules_name: str = DEFAULT, seed: int | None = None) -> None:
        """`runner` answers the statements; given as a function, it is built on first use.

        The REPL draws its first prompt with only `rules_name` and `seed` known, and
        builds the runner (the rule set's grammar and engine) right after: see `warm_up`.
        """
        self._runner = None if callable(runner) else runner
        self._make_runner = runner if callable(runner) else None
        self._before = (rules_name, seed)  # what the toolbar shows until the runner is built
        self.palette = palette
        self.json = json
        self.aliases: dict[str, str] = {}
        self.config_aliases: dict[str, str] = {}  # from the config file: not written to the aliases file
        self.failed: set[str] = set()  # lines refused this session: not offered back as suggestions
        self.paging: bool | str = True  # tall output through a pager: the config's `pager`, switched by /pager
        self.recent: deque[Answer] = deque(maxlen=RECENT)
        self.countdowns: list[Countdown] = []
        self.sheet_hero: Hero | None = None  # the loaded sheet as last read, for the toolbar
        self.sheet_mtime: int | None = None
        self.aliases_file: Path | None = None  # where /alias keeps them between sessions, when set
        self.fight: Fight | None = None  # an encounter in progress: its words take precedence (repl.fight)
        self.done = False
        if self._runner is not None:
            self.refresh_hero()

    @property
    def runner(self) -> Runner:
        if self._runner is None:
            assert self._make_runner is not None
            self._runner = self._make_runner()
            self.refresh_hero()
        return self._runner

    @property
    def rules_name(self) -> str:
        return self._runner.rules_name if self._runner is not None else self._before[0]

    @property
    def seed(self) -> int | None:
        return self._runner.seed if self._runner is not None else self._before[1]

    @property
    def hero(self) -> Hero | None:
        """The hero rolling now: the sheet's (as last read) or the one the runner holds."""
        if self._runner is None:
            return None
        return self.sheet_hero if self._runner.sheet is not None else self._runner.hero

    def handle(self, line: str) -> list[str]:
        """The lines to print for one line typed at the prompt; an error never ends the session."""
        if lines.is_blank(line):
            return []
        out: list[str] = []
        try:
            if line.lstrip().startswith("/"):
                from crux_cli.repl.commands import run_command

                out = run_command(self, line)
            else:
                self.answer(line, out)
        except CruxError as error:
            out += self.error(error)
            self.failed.add(line.strip())
        self.refresh_hero()
        return out

    def answer(self, line: str, out: list[str]) -> None:
        """Answer each statement of `line` into `out`, so the statements before a bad one still print."""
        from crux_cli.repl.fight import Fight

        text, comment = lines.split_comment(line)
        for part in lines.split_statements(text):
            statement = self.expand_statement(part)
            if Fight.claims(statement, self.fight is not None):
                self.fight = self.fight or Fight(self)
                out += self.fight.handle(statement)
                continue
            body = lines.odds_body(statement)
            if body is not None:
                from crux_cli.running.output import odds_lines

                out += odds_lines(self.runner.odds(body.strip()), self.palette, self.json)
                continue
            answers = self.runner.answers(statement, comment)
            self.recent.extend(answers)
            out += [self.render(answer) for answer in answers]

    def claims(self, line: str) -> bool:
        """Is `line` a fight word now, rather than a statement of the rule set?"""
        from crux_cli.repl.fight import Fight

        return Fight.claims(lines.last_part(lines.code(line)).strip(), self.fight is not None)

    def error(self, error: CruxError) -> list[str]:
        from crux_cli.render.text import error_lines

        return error_lines(error, self.palette)

    def render(self, answer: Answer) -> str:
        if self.json:
            from crux_cli.render.jsonl import line

            return line(answer)
        from crux_cli.render.text import answer_line

        return answer_line(answer, self.palette)

    def warm_up(self) -> None:
        """Build the runner and each statement's grammar now, so the first roll is as quick as any other."""
        from crux_cli.running.read import parse_statement

        for word in sorted(self.runner.rules.keywords):
            with contextlib.suppress(CruxError):  # a word alone is often incomplete; its grammar is built anyway
                parse_statement(word, self.runner.rules)

    # -- aliases ------------------------------------------------------------------------------------

    def expand(self, line: str) -> str:
        """Replace an alias at the start of each statement: `sneak grit` → `DEX +1b grit`."""
        text, comment = lines.split_comment(line)
        parts = [self.expand_statement(part) for part in lines.split_statements(text)]
        return "; ".join(parts) + (f" # {comment}" if comment else "")

    def keep_aliases(self) -> str | None:
        """Save the aliases for the next session; a warning when they cannot be written (they still work now)."""
        if self.aliases_file is None:
            return None
        from crux_cli.repl.aliases import save_aliases

        try:
            save_aliases(self.aliases_file, {name: body for name, body in self.aliases.items()
                                             if self.config_aliases.get(name) != body})
        except OSError as error:
            return f"the aliases are not kept for next time: {self.aliases_file}: {error.strerror}"
        return None

    def expand_statement(self, text: str) -> str:
        odds = lines.odds_body(text)
        if odds is not None:
            return f"{lines.ODDS} {self.expand_statement(odds.lstrip())}"
        head, _, rest = text.partition(" ")
        body = self.aliases.get(head.lower())
        return text if body is None else f"{body} {rest}".strip()

    # -- the sheet ----------------------------------------------------------------------------------

    def load_sheet(self, path: str) -> Hero:
        """Roll as the hero on the sheet at `path` from now on, in the rule set the sheet names.

        As with `--sheet`, each statement reads the sheet and writes back what it changed.
        """
        from crux_cli.state.store import load_hero

        hero = load_hero(path)
        if hero.rules != self.runner.rules_name:
            self.runner.use_rules(hero.rules)
        self.runner.sheet = path
        self.sheet_mtime = None
        self.refresh_hero()
        return hero

    def refresh_hero(self) -> None:
        """Re-read the sheet for the toolbar when it changed on disk (a roll, or `crux sheet …` elsewhere)."""
        if self.runner.sheet is None:
            return
        mtime = _mtime(self.runner.sheet)
        if mtime is None or mtime == self.sheet_mtime:
            return
        from crux_cli.state.store import load_hero

        with contextlib.suppress(CruxError):  # a sheet broken meanwhile is reported by the next roll
            self.sheet_hero = load_hero(self.runner.sheet)
            self.sheet_mtime = mtime


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
