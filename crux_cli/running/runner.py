"""Running statements: parse, compile and roll each one in the active rule set.

The CLI's one-shot and batch modes and the REPL all answer through `Runner`,
so a statement means the same everywhere. The runner owns the random source,
so a seed covers a whole run, statement after statement. With a sheet, each
roll reads the hero, rolls and writes back what changed under the sheet's lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from crux_cli import rulesets
from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_REPEAT, MAX_STATEMENTS, counting
from crux_cli.core.lines import COMMENT, SEPARATOR, odds_asked, odds_body, split_comment, split_statements, undecodable
from crux_cli.core.memo import KEEPING, Met
from crux_cli.core.record import Record, field
from crux_cli.core.rng import DiceStream, Draws, RandomSource, Roller, drawn_along, seeded
from crux_cli.core.ruleset import Context
from crux_cli.core.ruleset import SheetUpdate as SheetUpdate  # its home; still given here (running.replay, api)
from crux_cli.running import read as reading
from crux_cli.running.read import read
from crux_cli.state import store_module

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet, SheetHero


MAX_KNOWN = 1024  # statements a runner remembers having read (a batch repeats a few dozen)


class Answer(Record):
    """One statement answered: what was typed, in which rules, and what came of it."""

    input: str
    rules: str
    result: Any
    seed: int | None = None
    comment: str | None = None
    sheet: SheetUpdate | None = None
    handler: str = ""  # 'dice' when generic dice answered rather than the rule set itself
    index: int | None = None  # 1, 2, … when the statement was repeated (`6x 4d6kh3`, --repeat)
    drawn: tuple[int, ...] | None = field(default=None, compare=False)  # sides, count, faces… rolled (core.rng)
    # the faces of an answer the journal keeps as its JSON (it needs more than its faces to be given back): the
    # record a verifier re-derives from the seed (crux-verify(7))
    dice: tuple[int, ...] | None = field(default=None, compare=False)
    odds: bool = False  # `odds STATEMENT`: `result` is the exact `Odds` of `input`, nothing was rolled


def line_statements(text: str) -> list[str]:
    """The `;`-separated statements of a line (its comment split off), refused before any is rolled when
    there are more than MAX_STATEMENTS: limits hold per line, not only per statement."""
    if text.count(SEPARATOR) > COUNTED_SEPARATORS:  # megabytes of `d6;`: no string made for each part
        import re

        found: list[str] = []
        start, statement = 0, re.compile(rf"[^{SEPARATOR}\s]").search  # a statement's first letter
        while len(found) <= MAX_STATEMENTS and (letter := statement(text, start)):
            end = text.find(SEPARATOR, letter.start())
            found.append(text[letter.start():end if end >= 0 else len(text)].strip())
            if end < 0:
                break
            start = end + 1
        if len(found) > MAX_STATEMENTS:
            raise too_many_statements(None)
        return found or [text]  # as split_statements has them
    parts = split_statements(text)
    if len(parts) > MAX_STATEMENTS:
        raise too_many_statements(len(parts))
    return parts


class Runner:
    def __init__(self, rules: str = rulesets.DEFAULT, seed: int | None = None,
                 source: RandomSource | None = None, hero: SheetHero | None = None,
                 sheet: str | None = None, repeat: int = 1) -> None:
        self.rules_name = rulesets.check(rules)
        # loaded when a statement first needs it: `crux 4d6kh3` is generic dice and never does
        self.loaded: RuleSet | None = None if rules in rulesets.BUILT_IN else rulesets.load(rules)
        self.seed = seed
        self._source = source  # made at the first roll (`source`): odds never draw from it
        self.hero = hero
        self.sheet = sheet  # a sheet file: each statement reads and writes it under its lock
        self.repeat = repeat  # --repeat N: each statement answered N times
        self.journal: Any = None  # given, each answer is written to it (state.journal) before it is shown
        self.keyed: Callable[[DiceStream], None] | None = None  # told each new generator (the journal's `keyed`)
        self.salted: Callable[[bytes, str], None] | None = None  # told each salt (the journal's `salted`)
        self.keep_faces = False  # each answer keeps the faces rolled (`drawn`): the journal keeps a roll by them
        # given, called under a sheet's lock before each write (path, values before, values after, statement,
        # who): the journal announces the write, so a kill between the write and its entry is settled
        self.on_write: Callable[[str, dict[str, Any], dict[str, Any], str, str | None], None] | None = None
        # statements read, by text (`read`): the rule set loaded then, what answers it, its tree, how often it is rolled
        self.known: dict[str, tuple[RuleSet | None, RuleSet, Any, int]] = {}
        self.met = Met(MAX_KNOWN)  # statements read once, not kept (`read`): the next reading of one keeps it
        # crux's own rules answer each statement rolled once with this one roller, set anew (`roller`), and the same
        # context for the same text while no hero is held (`roll`): PERFORMANCE.md, "A statement's roller and context"
        self.shared: Roller | None = None
        self.contexts: dict[str, Context] = {}
        self.exact_odds = False  # `odds …` in a line counts every value as an exact fraction (JSON output)
        self.last_update: SheetUpdate | None = None  # the last statement's on a sheet (immutable: shared when equal)
        self.locked_sheet: Any = None  # a sheet's transaction let go once its answer is journaled (`answered`)

    @property
    def source(self) -> RandomSource:
        """The random source every roll of this runner draws from (seeded with `seed`, or fresh entropy)."""
        if self._source is None:
            self._source = seeded(self.seed)
            if self.keyed is not None and isinstance(self._source, DiceStream):  # its commitment, before its roll
                self.keyed(self._source)
        return self._source

    @source.setter
    def source(self, source: RandomSource) -> None:
        self._source = source
        if self.keyed is not None and isinstance(source, DiceStream):  # `/seed N`: a new generator from here on
            self.keyed(source)

    def commitment(self) -> str:
        """SHA-256 of the secret seed the dice are drawn from, in hex: shown before the rolls (crux-verify(7))."""
        return str(getattr(self.source, "commitment", ""))

    def add_salt(self, salt: bytes, who: str) -> str:
        """Mix a player's salt (≤ 64 bytes) into the dice from the next statement on, kept in the session's record
        (a shared table's player, as they join); gives back the commitment to show, which does not change."""
        if isinstance(self.source, DiceStream):
            self.source.salt(salt)
            if self.salted is not None:
                self.salted(salt, who)
        return self.commitment()

    @property
    def rules(self) -> RuleSet:
        """The active rule set."""
        if self.loaded is None:
            self.loaded = rulesets.load(self.rules_name)
        return self.loaded

    def use_rules(self, name: str) -> None:
        self.rules_name = rulesets.check(name)
        self.loaded = rulesets.load(name)

    def read(self, text: str) -> tuple[RuleSet, Any]:
        """What answers `text` (the rule set, or generic dice) and its syntax tree.

        A dictionary of this runner's statements stands in front of `read`'s shared cache: one lookup,
        checked against the rule set loaded when it was read (a change of rules reads afresh).
        """
        known = self.known.get(text)
        if known is not None and known[0] is self.loaded:
            return known[1], known[2]
        if text[:1] in TABLE_INITIALS and reading.first_word(text) == reading.TABLE and reading.TABLE not in \
                self.rules.keywords:
            return self.read_table(text)  # read from its file every time: a GM edits tables during a game
        if not self.met.again(text):  # read once: not kept, so a batch of different lines keeps no tree alive
            KEEPING.on = False  # nor anything worked out onto its tree (core.memo `Keeping`)
            try:  # the shared cache still asked: the REPL's colours read the statement as it was typed
                return read(text, self.loaded or (lambda: self.rules), keep=False)
            finally:
                KEEPING.on = True
        handler, statement = read(text, self.loaded or (lambda: self.rules))  # the rule set, once it is loaded
        if reading.CACHE_SIZE <= 0:  # caching turned off (the tests compare output with and without it)
            return handler, statement
        if len(self.known) >= MAX_KNOWN:
            self.known.clear()
        self.known[text] = (self.loaded, handler, statement, repeats(statement))
        return handler, statement

    def read_table(self, text: str) -> tuple[RuleSet, Any]:
        """`table NAME` (in every rule set): the table and the tables it rolls on, read from their files,
        the campaign folder being the loaded sheet's."""
        return reading.read_table(text, self.sheet)

    def is_active(self, handler: RuleSet) -> bool:
        """Is `handler` the active rule set (not generic dice)? Never loads it."""
        return handler is self.loaded

    def execute(self, line: str) -> list[Answer]:
        """Answer every statement of one line (`;`-separated, with an optional `# comment`)."""
        return list(self.each(line))

    def each(self, line: str) -> Iterator[Answer]:
        """The answers of one line, each as soon as it is done: what changed a sheet is shown before an error."""
        if line.isascii() and COMMENT not in line:  # the usual line: `checked_text` and `split_comment`, inline
            text, comment = line.strip(), None
        else:
            text, comment = split_comment(checked_text(line))
        if SEPARATOR not in text:  # one statement, the usual line: its answers, with no generator around them
            return self.each_answer(text, comment)
        return self.each_part(text, comment)

    def each_part(self, text: str, comment: str | None) -> Iterator[Answer]:
        for part in self.statements(text):
            yield from self.each_answer(part, comment)

    @staticmethod
    def split(line: str) -> tuple[list[str], str | None]:
        """A line's statements and its comment, refused as `each` refuses them (bytes that are not UTF-8,
        too many statements) before any is answered."""
        text, comment = split_comment(checked_text(line))
        return Runner.statements(text), comment

    statements = staticmethod(line_statements)  # module-level: `Runner` stays a size one can read

    def answer(self, text: str, comment: str | None = None) -> Answer:
        return self.answers(text, comment)[0]

    def answer_statement(self, statement: Any, text: str) -> Answer:
        """A statement of the active rule set built already (a fight makes its rolls as values), answered as
        `answer(text)` answers it: rolled, its sheet written, journaled as `text`."""
        rules = self.rules
        return self.answered(rules, statement, self.roller(rules, statement), text, None, None)

    def answers(self, text: str, comment: str | None = None) -> list[Answer]:
        return list(self.each_answer(text, comment))

    def each_answer(self, text: str, comment: str | None = None) -> Iterator[Answer]:
        """One statement's answers: one, or one per repetition (`6x EXPR` times --repeat).

        All the repetitions share one roller, so the dice limit covers them together: a repeated
        statement is still one statement, and `--repeat 1000 1000d6` is refused rather than
        printing a million dice.
        """
        if text[:1] in ODDS_INITIALS and (body := odds_body(text)) is not None:  # `odds STATEMENT`, as at the prompt
            asked = odds_asked(body)  # `crux odds`'s options, and its argument quoted as a shell quotes it
            return iter((self.odds(asked.statement, asked.at_least, self.exact_odds,
                                   asked.cumulative).replace(comment=comment),))
        known = self.known.get(text)  # `read`'s own lookup, spelled out: a batch reads every line
        once = False  # read once: answered keeping nothing on its tree, which dies with its line
        if known is not None and known[0] is self.loaded:
            _, handler, statement, times = known
        else:
            handler, statement = self.read(text)
            times, once = repeats(statement), text not in self.known
        times *= self.repeat
        if times > MAX_REPEAT:
            raise LimitError(f"{times:,} repetitions is more than {MAX_REPEAT:,} (the limit)",
                             text=text, hint="repeat fewer times")
        if times == 1:  # the usual statement: its one answer, with no generator around it, on the shared roller
            roller = self.roller(handler, statement, True)
            return iter((answered_once(self, handler, statement, roller, text, comment) if once else
                         self.answered(handler, statement, roller, text, comment, None),))
        return self.repetitions(handler, statement, text, comment, times)

    def roller(self, handler: RuleSet | None = None, statement: Any = None, shared: bool = False) -> Roller:
        """A statement's roller; a journaled runner keeps the faces, which give the answer back, when what else the
        answer needs is known: no hero is loaded; generic dice read no sheet value (`d20` beside a sheet); or the
        answer carries its sheet's hero (`SheetUpdate`), which the journal keeps beside the faces.

        `shared`: the statement is rolled once, done before another begins, so in crux's own rules (whose engines
        keep no roller) it takes the runner's one roller, set as a new one would be (PERFORMANCE.md)."""
        roller = self.shared
        if not shared or roller is None or roller.source is not self._source or \
                (handler is self.loaded and self.rules_name not in rulesets.BUILT_IN):  # a package's may keep it
            roller = Roller(self.source)
            if shared and (handler is not self.loaded or self.rules_name in rulesets.BUILT_IN):
                self.shared = roller
        else:  # as `Roller(source)` makes it
            roller.rolled, roller.drawn, roller.apart = 0, None, False
            if roller.stream is not None:
                roller.stream.fresh = True
        if not self.keep_faces:
            return roller
        roller.drawn = []  # every roll keeps its faces, which a verifier re-derives from the seed (crux-verify(7))
        # the faces alone give the answer back with no hero, for generic dice that read no sheet value, or for the
        # active rule set keeping state on the sheet; else the answer's JSON is kept, its faces beside it (`apart`)
        if self.sheet is None:
            roller.apart = self.hero is not None
        elif handler is None:
            roller.apart = True
        elif handler is self.loaded:  # a batch on a sheet: every line of its rule set
            roller.apart = handler.sheet is None
        else:
            roller.apart = bool(getattr(statement, "reads_sheet", True))
        return roller

    def known_again(self, text: str) -> tuple[RuleSet | None, RuleSet, Any, int] | None:
        """`known`'s entry for `text` when it may be drawn again (`redrawn`): read in the rules loaded, rolled once."""
        known = self.known.get(text)
        return known if known is not None and known[0] is self.loaded and known[3] * self.repeat == 1 else None

    def repetitions(self, handler: RuleSet, statement: Any, text: str, comment: str | None,
                    times: int) -> Iterator[Answer]:
        roller = self.roller(handler, statement)
        for number in range(1, times + 1):
            if roller.stream is not None:
                roller.stream.begin()  # each repetition is a statement of its own: its own stream, its own entry
            yield self.answered(handler, statement, roller, text, comment, number)

    def answered(self, handler: RuleSet, statement: Any, roller: Roller, text: str, comment: str | None,
                 index: int | None) -> Answer:
        """One roll of the statement as an answer, journaled (when the runner keeps a journal)."""
        name = "" if handler is self.loaded else handler.name  # asked before the roll, which may load the rules
        drawn = roller.drawn
        if drawn:  # repetitions share a roller: each answer keeps its own faces
            roller.drawn = drawn = []
        try:
            result, sheet = self.roll(handler, statement, roller, text)
        except CruxError:
            if roller.stream is not None:
                roller.stream.rewind()  # no answer, no record: the next statement draws that stream afresh
            raise
        faces = None if drawn is None else tuple(drawn)
        try:
            apart = roller.apart  # `drawn`, then `dice`, given in order: a keyword would cost a dict an answer
            answer = Answer(text, self.rules_name, result, self.seed, comment, sheet, name, index,
                            None if apart else faces, faces if apart else None)
            if self.journal is not None:
                self.journal.answered(answer)
        finally:
            if self.locked_sheet is not None:  # journaled under the sheet's lock: journal order is write order
                held, self.locked_sheet = self.locked_sheet, None
                held.__exit__(None, None, None)
        return answer

    def roll(self, handler: RuleSet, statement: Any, roller: Roller,
             text: str) -> tuple[Any, SheetUpdate | None]:
        """One roll; a rule set that keeps state on the sheet reads and writes it under the lock."""
        if self.sheet is not None and handler is self.loaded and (keeping := handler.sheet) is not None:  # keeps state
            rolled: tuple[Any, SheetUpdate] = (ON_SHEET or on_sheet())(self, handler, keeping, statement, roller, text,
                                                                         self.sheet)
            return rolled
        if self.sheet is None:
            hero = self.hero
        elif not getattr(statement, "reads_sheet", True):  # dice naming no attribute (`d20+5` beside a sheet)
            hero = None  # read no hero: its context, kept by text, holds whatever the hero's Grit does meanwhile
        else:  # `current_hero`, spelled out: a dice line beside a batch's sheet gives the hero its run holds
            sheets = SHEETS or sheet_store()
            run = sheets.HELD_NAMES.get(self.sheet)
            hero = run.hero if run is not None else sheets.load_hero(self.sheet)
        ctx = self.contexts.get(text)  # the same for the same text and hero (a sheet's held one), on the shared roller
        if ctx is None or ctx.roller is not roller or ctx.hero is not hero:
            ctx = Context(roller, hero, text)
            if roller is self.shared and text in self.known:  # kept for a statement read again (`read`)
                if len(self.contexts) >= MAX_KNOWN:
                    self.contexts.clear()
                self.contexts[text] = ctx
        try:  # `run`, spelled out: a batch rolls thousands of statements a second
            result = handler.run(statement, ctx)
        except CruxError as error:
            raise error.at(text) from None
        if self.hero is not None and handler is self.loaded:  # a hero held in memory carries Grit and HP along
            self.hero = self.apply(result, self.hero)
        return result, None

    def apply(self, result: Any, hero: SheetHero) -> SheetHero:
        """The hero after `result`, in rule sets that keep state on the sheet (others leave it as it was)."""
        sheet = self.rules.sheet
        return sheet.apply(result, hero) if sheet is not None else hero

    @staticmethod
    def run(handler: RuleSet, statement: Any, ctx: Context) -> Any:
        try:
            return handler.run(statement, ctx)
        except CruxError as error:
            raise error.at(ctx.text) from None

    def current_hero(self) -> SheetHero | None:
        """The hero as the sheet has it now (read without the lock: nothing is written), else the one held."""
        if self.sheet is None:
            return self.hero
        hero: SheetHero = store_module().load_hero(self.sheet)
        return hero

    def odds(self, text: str, at_least: int | None = None, exact: bool = False, cumulative: bool = False) -> Answer:
        """Exact odds of one statement (its result is the rule set's `Odds`); nothing is rolled.

        `at_least` adds P(damage or total >= at_least) to any odds with a distribution.
        `exact` says every value will be shown as an exact fraction (JSON), which the odds
        limit counts: a long distribution can be quick to show rounded and slow to show exactly.
        `cumulative` asks for P(at least) and P(at most) beside each value. Several statements
        (`A; B; C`) give a `Comparison` of their odds.
        """
        if SEPARATOR in text and len(parts := split_statements(text)) > 1:
            return self.comparison(text, parts, at_least, exact, cumulative)
        passed: list[str] = []  # the dice limits of a roll the statement passes: the odds limit alone bounds it
        handler, statement = self.read_to_count(text, passed, exact)
        if handler.odds is None:
            raise CruxError(f"the {handler.name} rules offer no exact odds", text=text, position=0)
        try:
            odds = self.odds_of(handler.odds, statement, text, exact, passed)
            if at_least is not None or cumulative:
                from crux_cli.probability.result import as_asked

                odds = as_asked(odds, at_least, cumulative, exact)
        except CruxError as error:
            raise counted(error, passed).at(text) from None
        name = "" if self.is_active(handler) else handler.name
        return Answer(text, self.rules_name, odds, self.seed, handler=name, odds=True)

    def odds_statement(self, statement: Any, text: str, exact: bool = False) -> Answer:
        """The exact odds of a statement of the active rule set built already (a fight's roll), as `odds(text)`
        gives those of the statement `text`."""
        rules = self.rules
        if rules.odds is None:
            raise CruxError(f"the {rules.name} rules offer no exact odds", text=text, position=0)
        passed: list[str] = []
        try:
            odds = self.odds_of(rules.odds, statement, text, exact, passed)
        except CruxError as error:
            raise counted(error, passed).at(text) from None
        return Answer(text, self.rules_name, odds, self.seed, odds=True)

    def comparison(self, text: str, parts: list[str], at_least: int | None, exact: bool,
                   cumulative: bool) -> Answer:
        """The odds of each statement of `A; B; C`, side by side. Each is held to the odds limit, and all of
        them together to COMPARE_SECONDS of predicted work (the largest prediction each statement's checks
        made, in the odds limit's units): past it, the statements not yet worked out are refused, the same
        way on any machine at any load."""
        from crux_cli.probability import cost
        from crux_cli.probability.result import Comparison

        if len(parts) > MAX_COMPARED:
            raise LimitError(f"{len(parts)} statements to compare is more than {MAX_COMPARED} (the limit)",
                             text=text, position=0, hint="compare fewer statements at a time")
        answers = []
        with cost.tallied() as predicted:
            for part in parts:
                if sum(predicted) > COMPARE_SECONDS:
                    raise LimitError(f"these odds together pass the odds limit of a comparison "
                                     f"({COMPARE_SECONDS:g} s)", text=text, position=text.find(part),
                                     hint="compare fewer or smaller statements; each works on its own")
                predicted.append(0.0)
                answers.append(self.odds(part, at_least, exact, cumulative))
        compared = Comparison(tuple(parts), tuple(a.result for a in answers), tuple(a.handler for a in answers),
                              cumulative)
        return Answer(text, self.rules_name, compared, self.seed, odds=True)

    def read_to_count(self, text: str, passed: list[str], exact: bool = False) -> tuple[RuleSet, Any]:
        """`read` for the odds: a statement the roll's dice limits refuse (sides, dice) is read again without
        them, since odds count the dice rather than roll them, and are held to the odds limit instead
        (core/limits.py `counting`, noting the limits passed in `passed`). That reading is never cached,
        so a roll of the same text is refused. A grammar may hold what it reads past those limits to the odds
        limit there, where it can point at the word that passes it: `exact` (JSON) is set for it as `odds_of`
        sets it."""
        try:
            return self.read(text)
        except LimitError:
            if text[:1] in TABLE_INITIALS and reading.first_word(text) == reading.TABLE:
                raise
            from crux_cli.probability.cost import exact_rows

            token, exact_token = counting.set(passed), exact_rows.set(exact)
            try:
                return reading.read_uncached(text, lambda: self.rules)
            except CruxError as error:
                raise counted(error, passed) from None
            finally:
                exact_rows.reset(exact_token)
                counting.reset(token)

    def odds_of(self, odds: Callable[[Any, Context], Any], statement: Any, text: str, exact: bool,
                passed: list[str]) -> Any:
        """`odds` (a handler's) of the statement; with `exact`, the odds limit counts an exact fraction per value.
        The roll's dice limits do not apply (`counting`): the odds limit does.

        Only the exact case sets the flag: it is off unless set, so the text's odds (most of them) skip the
        import and the context variable.
        """
        ctx = Context(Roller(_SourceOf(self)), self.current_hero(), text)
        counting_token = counting.set(passed)
        try:
            if not exact:
                return odds(statement, ctx)
            from crux_cli.probability.cost import exact_rows

            token = exact_rows.set(True)
            try:
                return odds(statement, ctx)
            finally:
                exact_rows.reset(token)
        finally:
            counting.reset(counting_token)


TABLE_INITIALS = "tT"  # a statement starting otherwise is never `table …`
REPEATING: dict[type, bool] = {}  # by a tree's type: does it say how often it is rolled (`6x 4d6kh3`)?


def redrawn(runner: Runner, text: str, paths: Draws, kept: Callable[[str, tuple[int, ...]], bool] | None) -> \
        tuple[int, ...] | None:
    """The faces of `text`, a statement read again whose answer is its faces' alone, drawn along the draws it
    made before without its engine (PERFORMANCE.md, "A remembered line is drawn again"): `paths` gives, by
    the faces drawn so far (its `drawn` record), the dice it draws next, or () once it is done. A statement
    draws the same dice for the same faces, so the stream gives what rolling it would. `kept` journals the
    faces (False: not now). None when it draws a way not met yet, or is not kept: its stream is then rewound,
    and the statement, rolled, draws the same dice again."""
    known = runner.known_again(text)
    if known is None:
        return None
    roller = runner.roller(known[1], known[2], True)
    drawn, stream = roller.drawn, roller.stream
    if drawn is None or stream is None:  # faces not kept, or not crux's own stream (which can be rewound)
        return None
    faces = drawn_along(roller, drawn, stream, paths)
    if faces is not None and kept is not None and not kept(text, faces):
        stream.rewind()
        return None
    return faces


def answered_once(runner: Runner, handler: RuleSet, statement: Any, roller: Roller, text: str,
                  comment: str | None) -> Answer:
    """`Runner.answered`, keeping nothing worked out on the tree of a statement read once (core.memo `Keeping`):
    the tree dies with its line (PERFORMANCE.md, "A line met once is kept by nothing")."""
    KEEPING.on = False
    try:
        return runner.answered(handler, statement, roller, text, comment, None)
    finally:
        KEEPING.on = True


def repeats(statement: Any) -> int:
    """How often `statement` is rolled (1 when its type has no `repeat`): asked once a type, as a `getattr` with a
    default would pay for an AttributeError at every line of a type without one (a Crux statement)."""
    kind = type(statement)
    has = REPEATING.get(kind)
    if has is None:
        has = REPEATING[kind] = hasattr(statement, "repeat")
    if not has:
        return 1
    count: int = statement.repeat
    return count
MAX_COMPARED = 10  # statements one comparison shows side by side
COMPARE_SECONDS = 0.75  # predicted work (reference seconds, probability/cost.py) a comparison's odds may take together
ODDS_INITIALS = "oO"  # a statement starting otherwise is never `odds …` (told without a call: a batch asks each line)


class _SourceOf:
    """A runner's source, asked for at the first draw: the roller odds are given draws nothing, so
    `crux odds` never seeds a generator (nor imports random)."""

    __slots__ = ("runner",)

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def randint(self, low: int, high: int) -> int:
        return self.runner.source.randint(low, high)




SHEETS: Any = None  # state.store, once a statement on a sheet asked for it: a batch on a sheet asks at every line


def sheet_store() -> Any:
    """state.store (`store_module`), kept in SHEETS: a roll without a sheet never loads it."""
    global SHEETS
    SHEETS = store_module()
    return SHEETS


ON_SHEET: Any = None  # running.sheet_roll's `roll_on_sheet`, once a statement on a sheet asked for it


def on_sheet() -> Any:
    """running.sheet_roll `roll_on_sheet` (a roll on a sheet), imported at the first and kept in ON_SHEET."""
    global ON_SHEET
    from crux_cli.running.sheet_roll import roll_on_sheet

    ON_SHEET = roll_on_sheet
    return ON_SHEET


def counted(error: CruxError, passed: list[str]) -> CruxError:
    """A refusal of odds of a statement past the roll's dice limits (`passed`), whose hint says not that
    rolling it works."""
    from crux_cli.probability.cost import STILL_ROLLS

    if not passed or not isinstance(error, LimitError) or not (error.hint or "").endswith(STILL_ROLLS):
        return error
    assert error.hint is not None
    return error.with_hint(error.hint.removesuffix(STILL_ROLLS) + "; a roll of it passes the dice limits too")


COUNTED_SEPARATORS = 100_000  # past this many `;` on a line, the statements are not counted to say how many


def too_many_statements(count: int | None) -> LimitError:
    """The refusal of a line of `count` statements (None: more than were counted)."""
    said = f"{count:,} statements on one line is" if count is not None else "this line holds"
    return LimitError(f"{said} more than {MAX_STATEMENTS:,} statements (the limit)" if count is None else
                      f"{said} more than {MAX_STATEMENTS:,} (the limit)",
                      hint="put them on separate lines: crux - reads one statement per line")


def checked_text(line: str) -> str:
    """The line, unless it holds a byte that is not UTF-8 (a surrogate escape: a terminal or a script in
    Latin-1): then it is refused before anything is answered, for an answer that changed a sheet could
    not be journaled, nor its comment printed."""
    at = undecodable(line)
    if at is None:
        return line
    raise CruxError("this line holds a byte that is not UTF-8 text", text=line, position=at,
                    hint="crux reads its input as UTF-8: type it again in a UTF-8 terminal")

