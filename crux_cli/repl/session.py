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
from typing import TYPE_CHECKING, Any

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.style import PLAIN, Palette
from crux_cli.rulesets import DEFAULT

if TYPE_CHECKING:
    from types import ModuleType

    from crux_cli.repl.countdown import Countdown
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
        self.fight: Any = None  # an encounter in progress (the rule set's `fights` module): its words come first
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
        if "\n" in line or "\r" in line:  # a bracketed paste of several lines: each one, as batch mode does
            return [said for part in line.splitlines() for said in self.handle(part)]
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

        text, comment = lines.split_comment(line)
        for part in lines.split_statements(text):
            statement = self.expand_statement(part)
            if self.fight_claims(statement):
                self.fight, said = self.fights().run(statement, self.fight, self)  # type: ignore[union-attr]
                out += said
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
        statement = lines.last_part(lines.code(line)).strip()
        fights = self.fights()
        return fights is not None and fights.claims(statement, self.fight)

    # -- fights: the rule set's `fights` module runs them; the session lends it what it needs (FightHost) ----

    def fights(self) -> ModuleType | None:
        """The active rule set's fight words, or None when it has no fights."""
        name = self.runner.rules.fights
        if not name:
            return None
        import importlib

        return importlib.import_module(name)

    def fight_claims(self, statement: str) -> bool:
        """Is `statement` a fight word? Refused in plain words in a rule set without fights."""
        fights = self.fights()
        if fights is not None:
            return bool(fights.claims(statement, self.fight))
        word = statement.split()[0].lower() if statement.split() else ""
        stranger = word not in self.runner.rules.keywords  # `atk` is also a stepdice statement
        if word == "fight" or (self.fight is not None and stranger and self.fight.claims(statement)):
            raise CruxError(f"the {self.rules_name} rules have no fights", text=statement, position=0,
                            hint="fights follow the crux rules: /rules crux")
        return False

    def fight_words(self, fighting: bool | None = None) -> tuple[str, ...]:
        """Fight words of the active rule set (for completion, colours and alias names): all of them when
        `fighting`, else those that fit now."""
        fights = self.fights()
        now = self.fight is not None if fighting is None else fighting
        return tuple(fights.words(now)) if fights is not None else ()

    def fight_marks(self) -> dict[str, str]:
        """Styles for the lexer: fight words as keywords, each word of a combatant's name as a name."""
        if self._runner is None:
            return {}
        marks = {word: "class:keyword" for word in self.fight_words()}
        if self.fight is not None:
            marks.update({part.lower(): "class:name" for name in self.fight.names() for part in name.split()})
        return marks

    def fight_runner(self, sheet: str | None = None, hero: Any = None) -> Runner:
        from crux_cli.running.runner import Runner

        return Runner(rules=self.rules_name, source=self.runner.source, seed=self.runner.seed, sheet=sheet,
                      hero=hero)

    def read_hero(self, path: str) -> Hero:
        from crux_cli.state.store import load_hero

        return load_hero(path)

    def save_encounter(self, path: str, encounter: Any, sheets: dict[str, str]) -> None:
        from crux_cli.state.encounter import save_encounter

        save_encounter(path, encounter, sheets)

    def load_encounter(self, path: str) -> tuple[Any, dict[str, str]]:
        from crux_cli.state.encounter import load_encounter

        return load_encounter(path)

    def end_fight(self) -> None:
        self.fight = None

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

    def keep_alias(self, name: str, body: str | None) -> str | None:
        """Keep a new alias (or forget one, body None) for the next session; a warning when that fails.

        The kept file may hold aliases another session made meanwhile: they join this session too.
        """
        if self.aliases_file is None:
            return None
        from crux_cli.repl.aliases import update_aliases

        try:
            kept = None if body is not None and self.config_aliases.get(name) == body else body  # the config has it
            self.aliases = {**update_aliases(self.aliases_file, {name: kept}), **self.aliases}
        except OSError as error:
            return f"the aliases are not kept for next time: {self.aliases_file}: {error.strerror}"
        except CruxError as error:
            return f"the aliases are not kept for next time: {error.message}"
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
