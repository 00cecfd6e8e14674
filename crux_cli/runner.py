"""Running statements: parse, compile and roll each one in the active rule set.

The CLI's one-shot and batch modes and the REPL all answer through `Runner`,
so a statement means the same everywhere. The runner owns the random source,
so a seed covers a whole run, statement after statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from crux_cli import rules as rulesets
from crux_cli.context import Context
from crux_cli.engine.rng import RandomSource, Roller, seeded
from crux_cli.errors import CruxError, LimitError
from crux_cli.limits import MAX_REPEAT
from crux_cli.notation.parse import read

if TYPE_CHECKING:
    from crux_cli.state.hero import Hero


@dataclass(frozen=True)
class Answer:
    """One statement answered: what was typed, in which rules, and what came of it."""

    input: str
    rules: str
    result: Any
    seed: int | None = None
    comment: str | None = None
    handler: str = ""  # the module that answered when not the rule set itself (generic dice)
    index: int | None = None  # 1, 2, … when the statement was repeated (`6x 4d6kh3`, --repeat)


def split_comment(line: str) -> tuple[str, str | None]:
    """`atk d8 # goblin` → ('atk d8', 'goblin')."""
    text, hash_, comment = line.partition("#")
    return text.strip(), (comment.strip() or None) if hash_ else None


def split_statements(text: str) -> list[str]:
    """Several statements on one line are separated by `;`."""
    return [part.strip() for part in text.split(";") if part.strip()] or [text]


def check_rules(name: str) -> str:
    if name not in rulesets.RULESETS:
        raise CruxError(f"there is no rule set called '{name}'",
                        hint="the rule sets are: " + ", ".join(rulesets.names()) + " (crux --rules list)")
    return name


class Runner:
    def __init__(self, rules: str = rulesets.DEFAULT, seed: int | None = None,
                 source: RandomSource | None = None, hero: Hero | None = None, repeat: int = 1) -> None:
        self.rules_name = check_rules(rules)
        self.rules: ModuleType = rulesets.load(rules)
        self.seed = seed
        self.source = source if source is not None else seeded(seed)
        self.hero = hero
        self.repeat = repeat  # --repeat N: each statement answered N times

    def use_rules(self, name: str) -> None:
        self.rules_name = check_rules(name)
        self.rules = rulesets.load(name)

    def execute(self, line: str) -> list[Answer]:
        """Answer every statement of one line (`;`-separated, with an optional `# comment`)."""
        text, comment = split_comment(line)
        return [answer for part in split_statements(text) for answer in self.answers(part, comment)]

    def answer(self, text: str, comment: str | None = None) -> Answer:
        return self.answers(text, comment)[0]

    def answers(self, text: str, comment: str | None = None) -> list[Answer]:
        """One statement's answers: one, or one per repetition (`6x EXPR` times --repeat).

        All the repetitions share one roller, so the dice limit covers them together: a repeated
        statement is still one statement, and `--repeat 1000 1000d6` is refused rather than
        printing a million dice.
        """
        handler, statement = read(text, self.rules)
        inner = getattr(statement, "repeat", 1)
        if inner * self.repeat > MAX_REPEAT:
            raise LimitError(f"{inner * self.repeat:,} repetitions is more than {MAX_REPEAT:,} (the limit)",
                             text=text, hint="repeat fewer times")
        name = "" if handler is self.rules else handler.__name__
        indexed = inner * self.repeat > 1
        out = []
        roller = Roller(self.source)
        for outer in range(self.repeat):
            for count in range(inner):
                try:
                    result = handler.run(statement, Context(roller, self.hero, text))
                except CruxError as error:
                    raise error.at(text) from None
                index = outer * inner + count + 1 if indexed else None
                out.append(Answer(text, self.rules_name, result, self.seed, comment, name, index))
        return out

    def odds(self, text: str) -> Answer:
        """Exact odds of one statement (its result is the rule set's `Odds`); nothing is rolled."""
        handler, statement = read(text, self.rules)
        if not hasattr(handler, "odds"):
            raise CruxError(f"exact odds of {handler.NAME} statements are not available yet", text=text)
        try:
            odds = handler.odds(statement, Context(Roller(self.source), self.hero, text))
        except CruxError as error:
            raise error.at(text) from None
        return Answer(text, self.rules_name, odds, self.seed)
