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

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, LimitError, SheetError
from crux_cli.core.record import Record

if TYPE_CHECKING:
    from collections.abc import Iterator

    from crux_cli.odds.result import AtLeast, Comparison, Odds
    from crux_cli.rulesets.crux.hero import Hero
    from crux_cli.running.runner import Answer, Runner, SheetUpdate

__all__ = ["CruxError", "LimitError", "OddsComparison", "OddsResult", "RollResult", "Session", "SheetError",
           "format_error", "odds", "roll", "rolls"]

COMMON = ("input", "kind", "rules", "seed", "comment", "index")  # the JSON fields every answer has


def frozen(value: Any) -> Any:
    """A JSON value made immutable: lists become tuples, objects read-only mappings."""
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    return value


class RollResult(Record):
    """One statement answered: the fields of its JSON object, and the rule engine's own result.

    The fields every answer has are attributes (`input`, `kind`, `rules`, `seed`, `comment`,
    `index`); the rest of the JSON object (`outcome`, `dice`, `total`, `damage`…, which depend
    on the statement) are attributes too, read-only, lists as tuples. `result` is the typed
    result of the rule set's engine.
    """

    input: str
    kind: str
    rules: str
    result: Any
    seed: int | None = None
    comment: str | None = None
    index: int | None = None
    sheet: SheetUpdate | None = None
    handler: str = ""

    @classmethod
    def of(cls, answer: Answer) -> RollResult:
        from crux_cli import rulesets

        kind = rulesets.handler(answer).to_json(answer.result)["kind"]
        return cls(answer.input, kind, answer.rules, answer.result, answer.seed, answer.comment, answer.index,
                   answer.sheet, answer.handler)

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
        return frozen(self.to_dict())

    def __getattr__(self, name: str) -> Any:  # only called for names that are not fields or methods
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

        return json.loads(self.to_json())

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


class OddsComparison(Record):
    """Exact odds of several statements side by side (`crux odds 'A; B; C'`): a sequence of `OddsResult`s,
    the first the one the others are compared with."""

    input: str
    rules: str
    comparison: Comparison

    @property
    def results(self) -> tuple[OddsResult, ...]:
        return tuple(OddsResult(text, self.rules, odds)
                     for text, odds in zip(self.comparison.inputs, self.comparison.odds, strict=True))

    def __len__(self) -> int:
        return len(self.comparison.odds)

    def __getitem__(self, index: int) -> OddsResult:
        return self.results[index]

    def __iter__(self) -> Iterator[OddsResult]:  # type: ignore[override]
        return iter(self.results)

    @property
    def mean_differences(self) -> tuple[Fraction | None, ...]:
        """Each statement's mean less the first's (None where either has no mean)."""
        first = self.comparison.odds[0].mean
        return tuple(None if o.mean is None or first is None else o.mean - first for o in self.comparison.odds)

    def to_dict(self) -> dict[str, Any]:
        import json

        return json.loads(self.to_json())

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
    """Several statements sharing one random source (a seed covers them all) and one sheet.

    With `sheet`, statements read the character sheet's ratings and write back what they
    change (Grit spent, HP, Wounds) under its lock, exactly as `crux --sheet FILE` does.
    Without one, a rule set that keeps a hero keeps it in memory for the session.
    """

    def __init__(self, *, rules: str | None = None, seed: int | None = None, sheet: str | None = None,
                 repeat: int = 1) -> None:
        from crux_cli.running.settings import Settings, make_runner

        self.runner: Runner = make_runner(Settings(seed=seed, rules=rules, sheet=sheet, repeat=repeat))
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
        return self.runner.current_hero()

    def rolls(self, text: str) -> tuple[RollResult | OddsResult | OddsComparison, ...]:
        """Every answer of one line: `;`-separated statements, `6x …` repeats, a `# comment`; a statement
        written `odds …` answers with its exact odds (an `OddsResult`), as at the prompt."""
        return tuple(self._odds_of(answer) if answer.odds else RollResult.of(answer)
                     for answer in self.runner.execute(text))

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

    def odds(self, text: str, *, at_least: int | None = None,
             cumulative: bool = False) -> OddsResult | OddsComparison:
        """Exact odds of one statement (nothing is rolled, no sheet is written); of several (`A; B; C`), an
        `OddsComparison` of them side by side.

        The result holds every probability as a Fraction and `to_json()` writes each one out, as
        `crux odds --json` does, so the odds limit counts that work too (`exact=True`).
        """
        answer = self.runner.odds(text, at_least=at_least, exact=True, cumulative=cumulative)
        if answer.result.kind == "comparison":
            return OddsComparison(answer.input, answer.rules, answer.result)
        return OddsResult(answer.input, answer.rules, answer.result)


def roll(text: str, *, rules: str | None = None, seed: int | None = None, sheet: str | None = None) -> RollResult:
    """Roll one statement, as `crux [--rules R] [--seed N] [--sheet FILE] TEXT` does."""
    return Session(rules=rules, seed=seed, sheet=sheet).roll(text)


def rolls(text: str, *, rules: str | None = None, seed: int | None = None, sheet: str | None = None,
          repeat: int = 1) -> tuple[RollResult | OddsResult | OddsComparison, ...]:
    """Every answer of one line, as `crux [--repeat N] … 'A; B'` prints them (`odds …` as an OddsResult)."""
    return Session(rules=rules, seed=seed, sheet=sheet, repeat=repeat).rolls(text)


def odds(text: str, *, rules: str | None = None, sheet: str | None = None, at_least: int | None = None,
         cumulative: bool = False) -> OddsResult | OddsComparison:
    """Exact odds of one statement, as `crux odds [--at-least K] [--cumulative] TEXT` computes them; of several
    (`A; B; C`), an `OddsComparison`."""
    return Session(rules=rules, sheet=sheet).odds(text, at_least=at_least, cumulative=cumulative)


def format_error(error: CruxError) -> str:
    """An error as crux prints it: the message, the input with a caret under the position, the hint."""
    from crux_cli.core.style import PLAIN
    from crux_cli.render.text import error_lines

    return "\n".join(error_lines(error, PLAIN))
