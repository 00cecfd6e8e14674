"""crux as a Python library: roll statements, get exact odds, keep a seed and a sheet across statements.

    >>> import crux_cli
    >>> r = crux_cli.roll("DEX +2b", seed=3)
    >>> r.outcome, r.dice
    ('success', (2, 5, 5))

The results are the ones the `crux` command prints: the same `Runner` answers, and `str()`
and `.to_json()` use the same renderers as its text and `--json` output. Nothing here
imports click or prompt-toolkit, and nothing reads the user's config file or environment
(CRUX_RULES, CRUX_SHEET): a script says what it wants. `man crux-python` documents it all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from crux_cli.api_fields import AnswerFields
from crux_cli.api_hero import new_hero, read_sheet, write_sheet
from crux_cli.core.errors import CruxError, LimitError, SheetError
from crux_cli.core.record import Record

if TYPE_CHECKING:
    from collections.abc import Iterator

    from crux_cli.api_hero import Hero  # a crux sheet's hero, its fields typed, naming no rule set's class
    from crux_cli.core.ruleset import SheetHero  # any rule set's hero: what a hero= argument takes
    from crux_cli.probability.dist import Dist
    from crux_cli.probability.result import AtLeast, Comparison, Odds
    from crux_cli.running.runner import Answer, Runner, SheetUpdate

__all__ = ["CruxError", "Hero", "LimitError", "OddsComparison", "OddsResult", "RollResult", "Session", "SheetError",
           "compare", "format_error", "new_hero", "odds", "read_sheet", "roll", "rolls", "write_sheet"]

def frozen(value: Any) -> Any:
    """A JSON value made immutable: lists become tuples, objects read-only mappings."""
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    return value


class RollResult(Record, AnswerFields):
    """One statement answered: the fields of its JSON object, and the rule engine's own result.

    The fields every answer has are attributes (`input`, `kind`, `rules`, `seed`, `comment`,
    `index`); the rest of the JSON object (`outcome`, `dice`, `total`, `damage`…, which depend
    on the statement) are attributes too, read-only, lists as tuples, each typed (`AnswerFields`: a
    type checker sees `total` as an int, and a misspelt field as an error). `result` is the
    result of the rule set's engine, its type the rule set's own.
    """

    input: str
    rules: str
    result: object
    seed: int | None = None
    comment: str | None = None
    index: int | None = None
    sheet: SheetUpdate | None = None
    handler: str = ""

    # Nothing is built into JSON until a field of it is read, and then once: a field read after that is
    # an attribute of the instance (tests/bench/bench_api.py: a call, and a field read again).

    @classmethod
    def of(cls, answer: Answer) -> RollResult:
        return cls(answer.input, answer.rules, answer.result, answer.seed, answer.comment, answer.index,
                   answer.sheet, answer.handler)

    @property
    def kind(self) -> str:
        """What the answer is (`test`, `attack`, `dice`…), as its JSON object's `kind`."""
        kind: str = self.fields["kind"]
        return kind

    def answer(self) -> Answer:
        from crux_cli.running.runner import Answer

        return Answer(self.input, self.rules, self.result, self.seed, self.comment, self.sheet, self.handler,
                      self.index)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `crux --json` prints for this answer, as a new dict."""
        from crux_cli.render.jsonl import record

        return record(self.answer())

    def to_json(self) -> str:
        """The line `crux --json` prints for this answer."""
        from crux_cli.render.jsonl import line

        return line(self.answer())

    @property
    def fields(self) -> Mapping[str, Any]:
        """Every field of the JSON object, read-only."""
        known = self.__dict__.get("_json")
        if known is None:
            known = frozen(self.to_dict())
            into = self.__dict__  # set once, past the immutable __setattr__: a cache, not a field
            into["_json"] = known
            cls = type(self)
            into.update((name, value) for name, value in known.items()
                        if name not in into and not hasattr(cls, name))  # a method or property keeps its name
        return known  # type: ignore[no-any-return]

    def __getstate__(self) -> dict[str, Any]:
        """Its fields only: what was read of its JSON is made again when read again (pickle, copy)."""
        return {name: self.__dict__[name] for name in self._fields}

    if not TYPE_CHECKING:  # a type checker sees the typed fields of AnswerFields, and a misspelt one as an error
        def __getattr__(self, name: str) -> Any:  # only called for names not fields, methods or read before
            if name.startswith("_"):
                raise AttributeError(name)
            fields = self.fields
            if name in fields:
                return fields[name]
            raise AttributeError(f"a {self.kind} answer has no field {name!r}; it has: {', '.join(fields)}")

    def __str__(self) -> str:
        """The line `crux` prints for this answer, without colour."""
        from crux_cli.core.style import PLAIN
        from crux_cli.render.text import answer_line

        return answer_line(self.answer(), PLAIN)

    def __repr__(self) -> str:
        return f"<RollResult {self}>"


class OddsResult(Record):
    """Exact odds of one statement: probabilities are `Fraction`s, in reading order."""

    input: str
    rules: str
    odds: Odds  # the typed odds the rule set computed
    comment: str | None = None  # the line's `# comment`, for `odds …` answered by rolls()

    @property
    def kind(self) -> str:
        return self.odds.kind

    @property
    def outcomes(self) -> Mapping[str, Fraction]:
        """Outcome name -> probability (`success`, `partial`, `failure`; `hit`, `crit`, `miss`…)."""
        return MappingProxyType(dict(self.odds.outcomes))

    @property
    def tables(self) -> Mapping[str, Mapping[str, Fraction]]:
        """The side tables by their JSON name (`kept`, `grit_gained`…): row -> probability."""
        return MappingProxyType({t.key: MappingProxyType(dict(t.rows)) for t in self.odds.tables})

    @property
    def distribution(self) -> Mapping[int, Fraction] | None:
        """Damage or total -> probability, ascending; None when the statement counts neither."""
        dist = self.odds.distribution
        return None if dist is None else MappingProxyType(dict(dist))

    @property
    def mean(self) -> Fraction | None:
        return self.odds.mean

    @property
    def leftover(self) -> Fraction:
        """Probability an explosion cap left uncounted (0 when the odds are complete)."""
        return self.odds.leftover

    @property
    def at_least(self) -> AtLeast | None:
        """P(damage or total >= k), when asked for with `at_least=k`: `.k` and `.p`."""
        return self.odds.at_least

    def probability(self, outcome: str) -> Fraction:
        """The probability of one outcome by name; KeyError names the outcomes there are."""
        outcomes = self.outcomes
        if outcome not in outcomes:
            raise KeyError(f"{self.kind} odds have no outcome {outcome!r}; they have: {', '.join(outcomes)}")
        return outcomes[outcome]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `crux --json odds` prints (probabilities as {"p": "19/27", "approx": 0.7037})."""
        import json

        return cast("dict[str, Any]", json.loads(self.to_json()))  # to_json writes one object

    def to_json(self) -> str:
        """The line `crux --json odds` prints."""
        from crux_cli.core.style import PLAIN
        from crux_cli.running.output import odds_lines

        return odds_lines(self.answer(), PLAIN, as_json=True)[0]

    def answer(self) -> Answer:
        from crux_cli.running.runner import Answer

        return Answer(self.input, self.rules, self.odds, comment=self.comment, odds=True)

    def __str__(self) -> str:
        """The table `crux odds` prints, without colour."""
        from crux_cli.core.style import PLAIN
        from crux_cli.running.output import odds_lines

        return "\n".join(odds_lines(self.answer(), PLAIN, as_json=False))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name} {p}" for name, p in self.odds.outcomes) or f"mean {self.mean}"
        return f"<OddsResult {self.input}: {shown}>"

    def __eq__(self, other: object) -> bool:
        """Equal when the odds are: the same kind, outcomes, tables and distribution, however the statements
        were written (`odds("d6+d6") == odds("2d6")`)."""
        if not isinstance(other, OddsResult):
            return NotImplemented
        return self.odds == other.odds

    def __hash__(self) -> int:
        return hash(self.odds)

    def __add__(self, other: OddsResult | int) -> OddsResult:
        """The odds of the sum of two independent totals (or damages), or of one shifted by a number.

        Only odds with a distribution add up (dice, attacks' damage); the sum has that distribution alone,
        since outcomes such as `hit` or `success` do not add. Its `input` says what was added.
        """
        from crux_cli.probability.result import dice_odds

        mine = self._dist("+")
        if isinstance(other, OddsResult):
            total = mine + other._dist("+")
            label = "damage" if self.odds.label == other.odds.label == "damage" else "total"
            text = f"{self.input} + {other.input}"
        elif isinstance(other, int) and not isinstance(other, bool):
            sign = "+" if other >= 0 else "-"
            total, label, text = mine + other, self.odds.label, f"{self.input} {sign} {abs(other)}"
        else:
            return NotImplemented
        return OddsResult(text, self.rules, dice_odds(total, label=label))

    def __radd__(self, other: int) -> OddsResult:
        if other == 0 and not isinstance(other, bool):  # sum(results) starts from 0
            return self
        return self + other

    def _dist(self, operation: str) -> Dist:
        from crux_cli.probability.dist import Dist
        from crux_cli.probability.result import distribution_of

        if self.odds.distribution is None:
            raise TypeError(f"{self.kind} odds have no total or damage to {operation}: only odds with a "
                            "distribution (dice, attacks) combine")
        rows = distribution_of(self.odds.distribution)  # its denominator keeps the leftover, if any
        return Dist(rows.values, rows.weights, rows.denominator)


class OddsComparison(Record):
    """Exact odds of several statements side by side (`crux odds 'A; B; C'`): a sequence of `OddsResult`s,
    the first the one the others are compared with."""

    input: str
    rules: str
    comparison: Comparison

    @property
    def kind(self) -> str:
        """`comparison`, as its JSON object's `kind`: every answer rolls() gives has one."""
        return self.comparison.kind

    @property
    def results(self) -> tuple[OddsResult, ...]:
        return tuple(OddsResult(text, self.rules, odds)
                     for text, odds in zip(self.comparison.inputs, self.comparison.odds, strict=True))

    def __len__(self) -> int:
        return len(self.comparison.odds)

    def __getitem__(self, index: int) -> OddsResult:
        return self.results[index]

    def __iter__(self) -> Iterator[OddsResult]:
        return iter(self.results)

    @property
    def mean_differences(self) -> tuple[Fraction | None, ...]:
        """Each statement's mean less the first's (None where either has no mean)."""
        first = self.comparison.odds[0].mean
        return tuple(None if o.mean is None or first is None else o.mean - first for o in self.comparison.odds)

    def to_dict(self) -> dict[str, Any]:
        import json

        return cast("dict[str, Any]", json.loads(self.to_json()))  # to_json writes one object

    def to_json(self) -> str:
        """The line `crux --json odds 'A; B'` prints."""
        from crux_cli.core.style import PLAIN
        from crux_cli.running.output import odds_lines

        return odds_lines(self.answer(), PLAIN, as_json=True)[0]

    def answer(self) -> Answer:
        from crux_cli.running.runner import Answer

        return Answer(self.input, self.rules, self.comparison, odds=True)

    def __str__(self) -> str:
        from crux_cli.core.style import PLAIN
        from crux_cli.running.output import odds_lines

        return "\n".join(odds_lines(self.answer(), PLAIN, as_json=False))

    def __repr__(self) -> str:
        return f"<OddsComparison {self.input}>"


class Session:
    """Several statements sharing one random source (a seed covers them all) and one sheet, or one hero.

    With `sheet`, statements read the character sheet's ratings and write back what they
    change (Grit spent, HP, Wounds) under its lock, and journal each change, exactly as
    `crux --sheet FILE` does: `crux sheet undo FILE` takes the last one back. With `hero`
    (from `new_hero` or `read_sheet`), the hero is held in memory and changes there; without
    either, a rule set that keeps a hero keeps a default one in memory for the session.
    """

    def __init__(self, *, rules: str | None = None, seed: int | None = None,
                 sheet: str | os.PathLike[str] | None = None, hero: SheetHero | None = None,
                 repeat: int = 1) -> None:
        from crux_cli.running.settings import Settings, make_runner

        seed = checked_seed(seed)
        if rules is not None and not isinstance(rules, str):
            raise CruxError(f"rules must be a rule set's name (a string) or None, not {rules!r}",
                            hint="rules=\"stepdice\"; crux --rules list names them")
        if sheet is not None and not isinstance(sheet, str | os.PathLike):
            raise CruxError(f"sheet must be a path (a string or a Path) or None, not {sheet!r}",
                            hint="sheet=\"wren.toml\"")
        if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
            raise CruxError(f"repeat must be a whole number from 1 up, not {repeat!r}", hint="repeat=6 answers "
                            "each statement six times")
        if sheet is not None and hero is not None:
            raise CruxError("a session plays from a sheet or from a hero held in memory, not both",
                            hint="write the hero to a sheet first: crux_cli.write_sheet(path, hero)")
        if hero is not None:
            if not isinstance(hero, hero_type(getattr(hero, "rules", None))):
                raise CruxError(f"hero must be a Hero (from new_hero or read_sheet), not {type(hero).__name__}")
            rules = rules or hero.rules
        path = None if sheet is None else os.fspath(sheet)
        self.runner: Runner = make_runner(Settings(seed=seed, rules=rules, sheet=path, repeat=repeat))
        if hero is not None:
            self.runner.hero = hero
        if path is not None:  # what changes a sheet is journaled, as on the command line, so it can be undone
            from crux_cli.state.journal import Journal

            journal = self.runner.journal = Journal.open()
            journal.watch(self.runner)  # each sheet write announced, so a kill mid-way is settled
        self.runner.exact_odds = True  # `odds …` in rolls() gives an OddsResult, whose to_json() is exact

    @property
    def rules(self) -> str:
        return self.runner.rules_name

    @property
    def seed(self) -> int | None:
        return self.runner.seed

    @property
    def hero(self) -> Hero | None:
        """The hero as the sheet has it now, or as held in memory (None without either)."""
        return cast("Hero | None", self.runner.current_hero())

    def rolls(self, text: str) -> tuple[RollResult | OddsResult | OddsComparison, ...]:
        """Every answer of one line: `;`-separated statements, `6x …` repeats, a `# comment`; a statement
        written `odds …` answers with its exact odds (an `OddsResult`), as at the prompt."""
        try:
            return tuple(self._odds_of(answer) if answer.odds else RollResult.of(answer)
                         for answer in self.runner.execute(checked_text(text)))
        finally:
            self._warn_about_the_journal()

    @staticmethod
    def _odds_of(answer: Answer) -> OddsResult | OddsComparison:
        if answer.result.kind == "comparison":
            return OddsComparison(answer.input, answer.rules, answer.result)
        return OddsResult(answer.input, answer.rules, answer.result, answer.comment)

    def roll(self, text: str) -> RollResult:
        """The answer to one statement; a line that gives several answers is refused (use `rolls`)."""
        answers = self.rolls(text)
        if len(answers) != 1:
            raise CruxError(f"this line gives {len(answers)} answers, and roll() returns one", text=text,
                            position=0, hint="use rolls() for several statements or repeats")
        answer = answers[0]
        if not isinstance(answer, RollResult):
            raise CruxError("'odds …' answers with exact odds, and roll() returns a roll", text=text, position=0,
                            hint="use odds() for the odds of one statement, or rolls() for a line")
        return answer

    def odds(self, text: str, *, at_least: int | None = None, cumulative: bool = False) -> OddsResult:
        """Exact odds of one statement (nothing is rolled, no sheet is written); several (`A; B; C`) are
        `compare`'s, so a typed caller always knows what it gets.

        The result holds every probability as a Fraction and `to_json()` writes each one out, as
        `crux odds --json` does, so the odds limit counts that work too (`exact=True`).
        """
        if at_least is not None and (isinstance(at_least, bool) or not isinstance(at_least, int)):
            raise CruxError(f"at_least must be a whole number or None, not {at_least!r}", hint="at_least=10")
        answer = self.runner.odds(checked_text(text), at_least=at_least, exact=True, cumulative=bool(cumulative))
        if answer.result.kind == "comparison":
            raise CruxError("odds() answers one statement; these are several", text=text,
                            position=max(0, text.find(";")), hint="compare() puts several side by side")
        return OddsResult(answer.input, answer.rules, answer.result)

    def compare(self, text: str, *, cumulative: bool = False) -> OddsComparison:
        """The exact odds of several statements (`A; B; C`) side by side, as `crux odds 'A; B; C'` shows them."""
        answer = self.runner.odds(checked_text(text), exact=True, cumulative=bool(cumulative))
        if answer.result.kind != "comparison":
            raise CruxError("compare() puts several statements side by side: separate them with ';'", text=text,
                            position=len(text), hint="odds() answers one statement")
        return OddsComparison(answer.input, answer.rules, answer.result)

    def _warn_about_the_journal(self) -> None:
        """A journal that cannot be written is a warning (the answers stand), as on the command line."""
        journal = self.runner.journal
        if journal is not None:
            import warnings

            for message in journal.take_warnings():
                warnings.warn(f"crux: {message}", RuntimeWarning, stacklevel=3)


def checked_text(text: object) -> str:
    """A statement as the library takes one: a string; bytes, a list or None refused in plain words."""
    if isinstance(text, str):
        return text
    hint = "decode it first: text.decode()" if isinstance(text, bytes | bytearray) else "roll(\"DEX +2b\")"
    raise CruxError(f"a statement is a string, not {type(text).__name__}: {text!r:.60}", hint=hint)


def checked_seed(seed: object) -> int | None:
    """A seed as `--seed` takes one: a whole number, or None for fresh dice; anything else is refused."""
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    from crux_cli.core.rng import bad_seed

    raise bad_seed(repr(seed))


def roll(text: str, *, rules: str | None = None, seed: int | None = None, sheet: str | os.PathLike[str] | None = None,
         hero: SheetHero | None = None) -> RollResult:
    """Roll one statement, as `crux [--rules R] [--seed N] [--sheet FILE] TEXT` does."""
    if rules is None and sheet is None and hero is None:
        return _plain_session(seed).roll(text)
    return Session(rules=rules, seed=seed, sheet=sheet, hero=hero).roll(text)


# `roll(text)` with no rules, sheet or hero is the library's hot call: each thread keeps one session for it
# (a runner with no hero and no sheet keeps nothing from one statement to the next but the statements it
# has read), given the call's seed and a new Random(seed), or, unseeded, its own Random seeded once from
# the system's entropy, as the random module's functions share one. tests/bench/bench_api.py defends it.
_PLAIN: dict[int, tuple[Session, Any]] = {}


def _plain_session(seed: int | None) -> Session:
    import threading

    thread = threading.get_ident()
    kept = _PLAIN.get(thread)
    if kept is None:
        from crux_cli.core.rng import seeded

        if not _PLAIN:
            _forget_plain_sessions_in_a_child()
        kept = _PLAIN[thread] = (Session(), seeded(None))
    session, entropy = kept
    runner = session.runner
    if seed is None:
        runner.seed, runner.source = None, entropy
    else:
        from crux_cli.core.rng import seeded

        runner.seed, runner.source = checked_seed(seed), seeded(seed)
    return session


_watching_forks = False


def _forget_plain_sessions_in_a_child() -> None:
    """A forked child must not draw the parent's dice: its sessions are made afresh."""
    global _watching_forks
    if not _watching_forks and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_PLAIN.clear)
        _watching_forks = True


def rolls(text: str, *, rules: str | None = None, seed: int | None = None, sheet: str | os.PathLike[str] | None = None,
          hero: SheetHero | None = None, repeat: int = 1) -> tuple[RollResult | OddsResult | OddsComparison, ...]:
    """Every answer of one line, as `crux [--repeat N] … 'A; B'` prints them (`odds …` as an OddsResult)."""
    return Session(rules=rules, seed=seed, sheet=sheet, hero=hero, repeat=repeat).rolls(text)


def odds(text: str, *, rules: str | None = None, sheet: str | os.PathLike[str] | None = None,
         hero: SheetHero | None = None, at_least: int | None = None, cumulative: bool = False) -> OddsResult:
    """Exact odds of one statement, as `crux odds [--at-least K] [--cumulative] TEXT` computes them."""
    return Session(rules=rules, sheet=sheet, hero=hero).odds(text, at_least=at_least, cumulative=cumulative)


def compare(text: str, *, rules: str | None = None, sheet: str | os.PathLike[str] | None = None,
            hero: SheetHero | None = None, cumulative: bool = False) -> OddsComparison:
    """The exact odds of several statements side by side, as `crux odds 'A; B; C'` shows them."""
    return Session(rules=rules, sheet=sheet, hero=hero).compare(text, cumulative=cumulative)


def __getattr__(name: str) -> Any:
    if name == "Hero":  # the hero's type, imported only when asked for: a roll without a hero never needs it
        return hero_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def hero_type(rules: object = None) -> type:
    """The hero type of the sheet file of the rule set `rules` (the default rule set's, when it keeps none)."""
    from crux_cli.state.store import file_for

    return file_for(rules).hero


def format_error(error: CruxError) -> str:
    """An error as crux prints it: the message, the input with a caret under the position, the hint."""
    from crux_cli.core.style import PLAIN
    from crux_cli.render.text import error_lines

    return "\n".join(error_lines(error, PLAIN))
