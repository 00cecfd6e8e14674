"""The fight a session holds: one value, handed to the active rule set's fights with each fight word.

`Fighting` keeps the fight (`core.ruleset.FightValue`, or None), asks the rule set's
`FightRules` which lines are fight words and runs them, and lends the fight what a
rule set may not reach itself (`core.ruleset.FightHost`): runners, rendering, files.
It names no word of any rule set: the words, the questions before a fight is replaced
and the line that resumes a fight all come from the rule set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.repl import resuming

if TYPE_CHECKING:
    from crux_cli.core.lines import OddsAsked
    from crux_cli.core.ruleset import FightLine, FightRules, FightValue, SheetHero
    from crux_cli.core.style import Palette
    from crux_cli.repl.session import Session
    from crux_cli.running.runner import Answer, Runner


class Fighting:
    """The session's fight and its words (the session's `FightHost`)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.state: FightValue | None = None  # the fight in progress: its words come first
        self.saved_to: set[str] = set()  # fight files this session wrote or loaded: replaced without asking
        self.began_in = ""  # the rule set the fight in progress began in
        self.last_read: tuple[str, FightValue | None, FightLine] | None = None  # (line, fight, its reading)
        # heroes held by name, kept across fights (`party`): None until first asked (read from the store then)
        self.held: Mapping[str, SheetHero] | None = None
        self.held_saved: str | None = None  # the party as the store last had it (written only when it changes)
        # during a tracked statement: sheets not in play when it began that it changed, with what they kept before
        self.met: dict[str, dict[str, Any]] | None = None

    # -- the rule set's fights ------------------------------------------------------------------------

    def rules(self) -> FightRules | None:
        """The active rule set's fights, or None when it has none."""
        return self.session.runner.rules.fight_rules()

    def claims(self, statement: str) -> bool:
        """Is `statement` a fight word now? Refused in plain words in a rule set without fights."""
        rules = self.rules()
        if rules is not None:
            return rules.claims(statement, self.state)
        keeper = self.rules_with_fights(statement)
        if keeper is not None:
            raise CruxError(f"the {self.session.rules_name} rules have no fights", text=statement, position=0,
                            hint=f"fights follow the {keeper} rules: /rules {keeper}")
        return False

    def rules_with_fights(self, statement: str) -> str | None:
        """The rule set whose fight word `statement` is, in a rule set without fights: the one the running
        fight began in (`atk` after /rules stepdice is the stepdice statement, though), else any that
        starts a fight with it."""
        from crux_cli import rulesets

        word = statement.split()[0].lower() if statement.split() else ""
        if self.state is not None:
            if not self.began_in or word in self.session.runner.rules.keywords:
                return None
            began = rulesets.load(self.began_in).fight_rules()
            return self.began_in if began is not None and began.claims(statement, self.state) else None
        for name in rulesets.BUILT_IN:
            fights = rulesets.load(name).fight_rules()
            if fights is not None and word in fights.words(False):
                return name
        return None

    def words(self, fighting: bool | None = None) -> tuple[str, ...]:
        """Fight words of the active rule set (completion, colours, alias names): all when `fighting`."""
        rules = self.rules()
        now = self.state is not None if fighting is None else fighting
        return rules.words(now) if rules is not None else ()

    def marks(self) -> dict[str, str]:
        """Styles for the lexer: fight words as keywords, each word of a combatant's name as a name."""
        marks = {word: "class:keyword" for word in self.words()}
        if self.state is not None:
            marks.update({part.lower(): "class:name" for name in self.state.names() for part in name.split()})
        return marks

    def complete(self, text: str) -> tuple[str, tuple[tuple[str, str], ...], bool] | None:
        rules = self.rules()
        if self.state is None or rules is None:
            return None
        return rules.complete(text, self.state, self)

    def toolbar(self) -> list[tuple[int, str, str]]:
        rules = self.rules()
        if self.state is None or rules is None:
            return []
        return rules.toolbar(self.state, self)

    def odds(self, asked: OddsAsked, exact: bool) -> list[str] | None:
        """`odds …` in a fight: the fight's odds of that roll (None: not a roll of the fight, plain odds), with
        `--at-least K` and `--cumulative` as `crux odds` gives them."""
        rules = self.rules()
        if self.state is None or rules is None:
            return None
        fights_odds = getattr(rules, "odds", None)  # a rule set's fights written before `odds` have none: plain odds
        found = fights_odds(asked.statement, self.state, self, exact) if fights_odds is not None else None
        if found is None:
            return None
        from crux_cli.running.output import odds_lines

        answer, said = found
        if asked.at_least is not None or asked.cumulative:
            from crux_cli.probability.result import as_asked

            try:
                answer = answer.replace(result=as_asked(answer.result, asked.at_least, asked.cumulative, exact))
            except CruxError as error:
                raise error.at(asked.statement) from None
        if self.session.json:  # one JSON record a line: the statement the odds are of is its `input`
            return odds_lines(answer, self.session.palette, True)
        return [*said, *odds_lines(answer, self.session.palette, False)]

    def help(self) -> list[str]:
        rules = self.rules()
        if rules is None:
            return [f"the {self.session.rules_name} rules have no fights: /rules lists the rule sets"]
        return list(rules.help())

    # -- running a word -------------------------------------------------------------------------------

    def word(self, statement: str, undoable: bool = True) -> list[str]:
        """Run one fight word (tracked, like any statement); a file it saves or loads is this session's now.

        `undoable` false: journaled, but not a step `undo` takes back (resuming a fight left by a crash).
        """
        rules = self.rules()
        if rules is None:
            raise CruxError(f"the {self.session.rules_name} rules have no fights", text=statement, position=0)
        session = self.session
        out: list[str] = []
        # its sheet writes are announced to the journal as they happen (Session.tracked): a kill mid-word
        # is settled at the next start, the ledger kept as it was before the word
        read = self.read(rules, statement)
        _ = self.party  # read before the word, so a change it makes to the party (a sheet given) is undone too
        # a word that only looks (`status`) may refresh the ledger from the sheets: no step undo takes back
        with session.tracked(statement, out, undoable=undoable and not getattr(read, "looks", False)):
            self.state, said = rules.run(read, self.state, self)
            self.began_in = session.runner.rules_name if self.state is not None else ""
            self.hold(self.state)
            out += said
        if read.file:
            self.saved_to.add(os.path.realpath(os.path.expanduser(read.file)))
        return out

    def read(self, rules: FightRules, statement: str) -> FightLine:
        """The rule set's reading of a fight line, once: the guard's reading is the runner's, while the fight
        it was read against is still the one held."""
        last = self.last_read
        if last is None or last[0] != statement or last[1] is not self.state:
            last = self.last_read = (statement, self.state, rules.read(statement, self.state))
        return last[2]

    def guard(self, statement: str) -> list[str] | None:
        """Ask before a fight word replaces a running fight or writes over a file (None: nothing to ask)."""
        rules = self.rules()
        if rules is None:
            return None
        read = self.read(rules, statement)
        if read.saves:
            return self.guard_save(read.file, read.line, read.forced, read.question)
        if read.question:
            if read.file and not self.is_fight_file(read.file):  # `load wren.toml`: a sheet, refused unasked
                return self.word(statement)
            return self.ask(read.question, read.line)
        return None

    def is_fight_file(self, path: str) -> bool:
        """Does `path` hold a fight (so loading it would replace the one running)?"""
        try:
            self.load_fight(os.path.expanduser(path))
        except (CruxError, OSError):
            return False
        return True

    def guard_save(self, path: str, statement: str, forced: bool, question: str) -> list[str]:
        """A save never writes over what is not a fight file, nor over an older save without asking."""
        real = os.path.realpath(os.path.expanduser(path))
        if os.path.lexists(real) and real not in self.saved_to:
            try:
                self.load_fight(real)
            except CruxError as error:
                raise CruxError(f"{path} is not a crux encounter: crux will not write over it",
                                hint=f"save to another file name ({error.message})") from None
            if not forced:
                return self.ask(question, statement)
        return self.word(statement)

    def ask(self, question: str, statement: str) -> list[str]:
        """Put a y/N question; `y` or `yes` then runs `statement` as a fight word, anything else leaves it."""

        def answer(line: str) -> list[str]:
            reply = line.strip().lower()
            if reply in ("y", "yes"):
                return self.session.answered(line, lambda: self.word(statement))
            if reply in ("", "n", "no"):
                return ["left as it was"]
            # a statement typed instead of an answer: a no, and the statement is answered, not swallowed
            return ["left as it was (the question wanted y or n)", *self.session.handle(line)]

        self.session.pending = answer
        return [question]

    # -- the party: heroes held by name, across fights -------------------------------------------------

    @property
    def party(self) -> Mapping[str, SheetHero]:
        """The heroes held by name (no sheet), kept across `fight`, `fight new` and `end`, and in the store
        (so a resume, `load` and a later session find them): their values as the last word left them."""
        if self.held is None:
            self.held = MappingProxyType(self.stored_party())
        return self.held

    def hold(self, fight: FightValue | None) -> None:
        """After a fight word: the fight's held heroes (`heroes`, where a rule set's fight has them) join the
        party as they stand now."""
        heroes: Mapping[str, SheetHero] = getattr(fight, "heroes", None) or {}
        if heroes and any(self.party.get(name) != hero for name, hero in heroes.items()):
            self.held = MappingProxyType({**self.party, **heroes})

    def party_rules(self) -> str:
        return self.began_in or self.session.rules_name

    def stored_party(self) -> dict[str, SheetHero]:
        """The party the store keeps for the active rule set ({} without a store, or when it does not read)."""
        autosave = self.session.autosave
        sheet = self.session.runner.rules.sheet if autosave is not None else None
        if autosave is None or sheet is None or sheet.file is None:
            return {}
        import json

        text = autosave.party(self.party_rules())
        if text is None:
            return {}
        self.held_saved = text
        file = sheet.file()
        try:
            heroes = [file.load(data) for data in json.loads(text)]
        except (CruxError, ValueError, TypeError, KeyError, AttributeError):
            return {}  # a party that does not read is left for a newer crux: this session starts without it
        return {hero.name: hero for hero in heroes}

    def keep_party(self) -> None:
        """Keep the party in the store when it changed (inside the word's transaction, beside the fight)."""
        autosave = self.session.autosave
        sheet = self.session.runner.rules.sheet if autosave is not None else None
        if self.held is None or autosave is None or sheet is None or sheet.file is None:
            return
        import json

        file = sheet.file()
        text = json.dumps([file.dump(hero) for hero in self.held.values()], separators=(",", ":"))
        if text != self.held_saved:
            autosave.keep_party(self.party_rules(), text)
            self.held_saved = text

    # -- the autosave ---------------------------------------------------------------------------------

    def keep(self) -> list[str]:
        """Keep the fight in the state store after a change to it (it goes when the fight is over); called
        inside the statement's transaction, with its journal entry."""
        autosave = self.session.autosave
        if autosave is None:
            return []
        try:
            if self.state is None:
                autosave.clear()
            else:
                autosave.save(self.state, self.fights_to_file(self.began_in))
            self.keep_party()
        except (OSError, CruxError) as error:
            reason = error.strerror if isinstance(error, OSError) else error.message
            return [f"the fight is not autosaved: {autosave.path}: {reason}"]
        return []

    def resume_offer(self) -> list[str]:
        """At start: the newest fight left by a session that ended or was killed is offered for resuming
        (repl/resuming.py).

        Resuming is not a step `undo` takes back: undone, the fight would leave the session and its
        autosave file with it.
        """
        return resuming.offer(self)

    # -- what the fight's words ask of the session (core.ruleset.FightHost) ----------------------------

    @property
    def palette(self) -> Palette:
        return self.session.palette

    @property
    def runner(self) -> Runner:
        return self.session.runner

    def fight_runner(self, sheet: str | None = None, hero: SheetHero | None = None) -> Runner:
        from crux_cli.running.runner import Runner

        runner = self.session.runner
        return self.session.hooked(Runner(rules=runner.rules_name, source=runner.source, seed=runner.seed,
                                          sheet=sheet, hero=hero))

    def render(self, answer: Answer, who: str | None = None) -> str:
        return self.session.render(answer, who)

    def read_hero(self, path: str) -> SheetHero:
        from crux_cli.state.store import load_hero

        hero = load_hero(path)
        self.met_sheet(os.path.realpath(path), hero)  # a sheet joining the fight: its first roll undone with the word
        return hero

    def keep_on_sheet(self, path: str, hero: SheetHero) -> SheetHero:
        """`hero`'s kept values on the sheet at `path`: a new sheet of `hero` where there is no file (never over
        one), else that sheet's own hero with them, written under its lock; the party lets them go (a sheet keeps
        them now). What the sheet held before is the word's to undo (`met_sheet`)."""
        from crux_cli.state.store import create_sheet, file_for, sheet_transaction

        shown = os.path.expanduser(path)
        if not os.path.lexists(shown):
            made = create_sheet(shown, file_for(hero.rules).template(hero))
        else:
            with sheet_transaction(shown) as sheet:
                self.met_sheet(os.path.realpath(shown), sheet.hero)
                file = file_for(sheet.hero.rules)
                made = file.with_kept(sheet.hero, file.kept(hero))
                sheet.save(made)
        self.held = MappingProxyType({name: kept for name, kept in self.party.items() if name != hero.name})
        return made

    def met_sheet(self, path: str, hero: SheetHero) -> None:
        """A sheet not in play when the word began, about to change: what it kept before, for the word's step (an
        undo puts it back as it does the sheets in play)."""
        if self.met is not None and path not in self.met:
            from crux_cli.state.sheet_undo import sheet_values

            self.met[path] = sheet_values(hero)

    def save_fight(self, path: str, fight: FightValue) -> None:
        """Write the fight to a file, as the fights of the rule set it began in write it."""
        from crux_cli.state.encounter import save_fight

        save_fight(path, fight, self.fights_to_file(self.began_in))

    def load_fight(self, path: str) -> FightValue:
        """The fight in a file, as the active rule set's fights read it."""
        from crux_cli.state.encounter import load_fight

        return load_fight(path, self.fights_to_file())

    def fights_to_file(self, began_in: str = "") -> FightRules:
        """The fights that write and read a fight's file: those of the rule set it began in, else the active one's."""
        from crux_cli import rulesets

        name = began_in or self.session.rules_name
        rules = rulesets.load(name).fight_rules()
        if rules is None:
            raise CruxError(f"the {name} rules have no fights to save or load")
        return rules

