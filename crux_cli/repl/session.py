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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.style import PLAIN, Palette
from crux_cli.repl import undoing
from crux_cli.repl.fighting import Fighting
from crux_cli.repl.tracking import Steps
from crux_cli.rulesets import DEFAULT

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightValue, SheetHero
    from crux_cli.repl.countdown import Countdown
    from crux_cli.repl.serving import Sharing
    from crux_cli.running.runner import Answer, Runner
    from crux_cli.state.autosave import Autosave
    from crux_cli.state.journal import Journal

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
        self.refusals = 0  # errors shown so far (a pasted block names the line of each)
        self.paging: bool | str = True  # tall output through a pager: the config's `pager`, switched by /pager
        self.recent: deque[Answer] = deque(maxlen=RECENT)
        self.countdowns: list[Countdown] = []
        self.sheet_hero: SheetHero | None = None  # the loaded sheet as last read, for the toolbar
        self.sheet_mtime: int | None = None
        self.aliases_file: Path | None = None  # where /alias keeps them between sessions, when set
        self.fighting = Fighting(self)  # the fight in progress (the rule set's `fights`): its words come first
        self.done = False
        self.journal: Journal | None = None  # where rolls and changes are kept (a real session sets it)
        self.autosave: Autosave | None = None  # where the running fight is saved after every word
        self.steps = Steps()  # what `undo` and `redo` take back and make again
        self.pending: Callable[[str], list[str]] | None = None  # a question waiting for its answer
        self._rendered: list[Answer] | None = None  # the answers shown by the statement being tracked
        self._rolled_by: list[str] | None = None  # who rolled them, when a fight said so
        self.speaker: str | None = None  # who says the statements now, when not the GM: a shared table's player
        self.sharing: Sharing | None = None  # the table this session is served at (crux serve, /serve)
        if self._runner is not None:
            self.refresh_hero()

    @property
    def runner(self) -> Runner:
        if self._runner is None:
            assert self._make_runner is not None
            self._runner = self.hooked(self._make_runner())
            self.refresh_hero()
        elif self._runner.on_write is None and self.journal is not None:
            self.hooked(self._runner)
        return self._runner

    def hooked(self, runner: Runner) -> Runner:
        """The runner, announcing each sheet write to the journal (so a statement cut short is settled)."""
        if self.journal is not None:
            self.journal.watch(runner)
            keys = getattr(self.journal, "keys", None)  # a journal kept in the store (not a test's list of entries)
            if keys is not None:
                keys(runner)  # the dice's commitment, kept before the first roll (crux-verify(7))
                runner.keep_faces = self.journal.mode == "on"
        return runner

    @property
    def fight(self) -> FightValue | None:
        """The fight in progress, as a value (None when there is none)."""
        return self.fighting.state

    @fight.setter
    def fight(self, fight: FightValue | None) -> None:
        self.fighting.state = fight

    @property
    def rules_name(self) -> str:
        return self._runner.rules_name if self._runner is not None else self._before[0]

    @property
    def seed(self) -> int | None:
        return self._runner.seed if self._runner is not None else self._before[1]

    @property
    def hero(self) -> SheetHero | None:
        """The hero rolling now: the sheet's (as last read) or the one the runner holds."""
        if self._runner is None:
            return None
        return self.sheet_hero if self._runner.sheet is not None else self._runner.hero

    def handle(self, line: str) -> list[str]:
        """The lines to print for one line typed at the prompt; an error never ends the session."""
        if self.pending is not None:
            answer, self.pending = self.pending, None
            return answer(line)
        if "\n" in line or "\r" in line:  # a bracketed paste of several lines: each one, as batch mode does
            return self.pasted(line)
        if lines.is_blank(line):
            return []
        out: list[str] = []
        try:
            if line.lstrip().startswith("/"):
                from crux_cli.repl.commands import changes_state, run_command

                if changes_state(line):
                    with self.tracked(line.strip(), out):
                        out += run_command(self, line)
                else:
                    out = run_command(self, line)
            else:
                self.answer(line, out)
        except CruxError as error:
            out += self.error(error)
            self.failed.add(line.strip())
            self.refusals += 1
        except KeyboardInterrupt:  # Ctrl-C while a statement works: that statement stops, the session stays
            out.append("cancelled")
        except Exception as error:  # a bug in crux must not end an evening's session: say it and go on
            if os.environ.get("CRUX_DEBUG"):
                raise
            out.append(self.palette.paint(f"crux: internal error: {type(error).__name__}: {error}", "error"))
            out.append("  this is a bug in crux; the session goes on (CRUX_DEBUG=1 shows the traceback)")
        self.refresh_hero()
        return out

    def pasted(self, block: str) -> list[str]:
        """Each line of a pasted block in turn; a refused one is named by its place in the block."""
        out: list[str] = []
        parts = block.splitlines()
        for number, part in enumerate(parts, 1):
            before = self.refusals
            said = self.handle(part)
            if self.refusals != before and len(parts) > 1:
                said = [self.palette.dim(f"pasted line {number} of {len(parts)}: {part.strip()}"), *said]
            out += said
        return out

    def answer(self, line: str, out: list[str]) -> None:
        """Answer each statement of `line` into `out`, so the statements before a bad one still print."""

        parts, comment = self.runner.split(line)  # refused as the one-shot refuses: too many, or not UTF-8
        for part in parts:
            statement = self.expand_statement(part)
            body = lines.odds_body(statement)
            if body is not None:
                out += self.odds(lines.odds_asked(body))
                continue
            head, _, rest = statement.partition(" ")
            if head.lower() in ("undo", "redo") and not rest.strip():
                out += self.undo(redo=head.lower() == "redo")
                continue
            asked = self.fighting.guard(statement)
            if asked is not None:
                out += asked
                continue
            if self.fighting.claims(statement):
                out += self.fighting.word(statement)
                continue
            with self.tracked(statement, out):
                try:
                    for answer in self.runner.each_answer(statement, comment):
                        out.append(self.render(answer))
                except CruxError as error:
                    raise self.in_fight(error, statement) from None

    def odds(self, asked: lines.OddsAsked) -> list[str]:
        """`odds [--cumulative] [--at-least K] STATEMENT`: the fight's odds of that roll, else the plain odds."""
        from crux_cli.running.output import odds_lines

        fought = self.fighting.odds(asked, exact=self.json)
        if fought is not None:
            return fought
        answer = self.runner.odds(asked.statement, asked.at_least, exact=self.json, cumulative=asked.cumulative)
        return odds_lines(answer, self.palette, self.json)

    def in_fight(self, error: CruxError, statement: str) -> CruxError:
        """An unknown first word during a fight: the hint counts the fight's words (`next`, `status`…) too."""
        word = statement.split()[0] if statement.split() else ""
        if self.fight is None or not word or not error.message.startswith(f"'{word}' is not a statement"):
            return error
        import difflib

        fight_words = [*self.fighting.words(), "undo", "redo"]
        known = sorted({*fight_words, *self.runner.rules.keywords}, key=str.lower)
        close = difflib.get_close_matches(word.lower(), known, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else "in a fight: " + ", ".join(fight_words)
        return CruxError(f"'{word}' is not a fight word, nor a statement of the {self.rules_name} rules",
                         text=error.text, position=error.position, hint=hint)

    # -- the journal, undo and the fight's safety ------------------------------------------------------

    @contextlib.contextmanager
    def tracked(self, statement: str, out: list[str], undoable: bool = True) -> Iterator[None]:
        """Note what `statement` changes: journal it, make it one undo step, autosave the fight.

        Done even when the statement fails half-way or Ctrl-C stops it, since what it
        already wrote to a sheet stays written. `undoable` false: journaled, but no undo step.
        """
        from crux_cli.repl import tracking

        before = tracking.take(self)
        self._rendered, self._rolled_by, self.fighting.met = [], [], {}
        if self.journal is not None:
            self.journal.begin_word(statement)
        try:
            yield
        finally:
            rendered, self._rendered = self._rendered, None
            rolled_by, self._rolled_by = self._rolled_by, None
            met, self.fighting.met = self.fighting.met or {}, None
            if met:  # a sheet the statement brought into play and changed: undone with the rest
                before = before.replace(sheets={**met, **before.sheets})
            self.recent.extend(rendered)
            after = tracking.take(self)
            entry, sheets, changed = tracking.entry_for(self, statement, before, after, rendered, rolled_by)
            noted = changed or entry.answers  # `status` and errors: not kept
            # the entry and the fight's new state: one transaction (an error in it is a warning, below)
            with self.journal_transaction():
                entry_id = self.journal.append(entry).id if self.journal is not None and noted else None
                if before.fight != after.fight or before.party != after.party:
                    out += self.fighting.keep()
            if self.journal is not None:
                self.journal.end_word()
            if changed and undoable:
                self.steps = self.steps.pushed(tracking.Step(statement, before, after, tuple(sheets), entry_id))
            out += self.journal.take_warnings() if self.journal is not None else []

    @contextlib.contextmanager
    def said_by(self, who: str | None) -> Iterator[None]:
        """The statements handled within are `who`'s (a shared table's player): their journal entries name them."""
        if who is None:
            yield
            return
        saved, self.speaker = self.speaker, who
        try:
            yield
        finally:
            self.speaker = saved

    def journal_transaction(self) -> contextlib.AbstractContextManager[Any]:
        """One transaction of the store for what a statement keeps; a store that fails is said, not raised."""
        if self.journal is None:
            return contextlib.nullcontext()
        return self.journal.together_or_warn()

    def undo(self, redo: bool = False) -> list[str]:
        """Take back the last change (or make again the last one taken back): sheets and fight together
        (repl/undoing.py)."""
        return undoing.undo(self, redo)

    def answered(self, line: str, run: Callable[[], list[str]]) -> list[str]:
        """The lines of `run()`, its error shown in their place: for answers to a question."""
        try:
            return run()
        except CruxError as error:
            return self.error(error)

    def claims(self, line: str) -> bool:
        """Is `line` a fight word now, rather than a statement of the rule set?"""
        statement = lines.last_part(lines.code(line)).strip()
        body = lines.odds_body(statement)
        if body is not None and self.fight is not None:  # `odds atk ogre`: the fight's odds read its line
            try:
                statement = lines.odds_asked(body).statement
            except CruxError:
                return False
        word = statement.split(" ", 1)[0].lower()
        if word in ("undo", "redo"):
            return True  # the session's own words, read before the rule set's
        fights = self.runner.rules.fight_rules()
        return fights is not None and fights.claims(statement, self.fight)

    # -- the fight: `fighting` holds it and runs its words; these are the session's words for it ----------

    def fight_word(self, statement: str) -> list[str]:
        return self.fighting.word(statement)

    def resume_offer(self) -> list[str]:
        return self.fighting.resume_offer()

    def fight_words(self, fighting: bool | None = None) -> tuple[str, ...]:
        return self.fighting.words(fighting)

    def fight_marks(self) -> dict[str, str]:
        return self.fighting.marks() if self._runner is not None else {}

    def error(self, error: CruxError) -> list[str]:
        from crux_cli.render.text import error_lines

        if error.hint and "--sheet" in error.hint:  # the command line's option: here a sheet is /load-ed
            error.hint = (error.hint.replace("--sheet FILE or CRUX_SHEET=FILE", "/load FILE")
                          .replace("--sheet", "/load FILE"))
        return error_lines(error, self.palette)

    def render(self, answer: Answer, who: str | None = None) -> str:
        """`answer` as it is shown; `who` rolled it (a fight says who), for the journal."""
        if self._rendered is not None:  # a statement being tracked: its answers go to the journal and /history
            self._rendered.append(answer)
        if self._rolled_by is not None and who is not None:
            self._rolled_by.append(who)
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
        if odds is not None:  # the statement after `odds` and its options, as typed
            try:
                asked = lines.odds_asked(odds)
            except CruxError:  # refused when answered
                return f"{lines.ODDS} {self.expand_statement(odds.lstrip())}"
            end = asked.start + len(asked.statement)
            return f"{lines.ODDS} {odds[:asked.start].lstrip()}{self.expand_statement(asked.statement)}{odds[end:]}"
        head, _, rest = text.partition(" ")
        body = self.aliases.get(head.lower())
        return text if body is None else f"{body} {rest}".strip()

    # -- the sheet ----------------------------------------------------------------------------------

    def load_sheet(self, path: str) -> SheetHero:
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
