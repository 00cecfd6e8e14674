"""Click types for crux's option values: what `--help`, click's completion and the static scripts agree on.

Each type accepts the value as typed and leaves the checking to the code that uses it, so
a wrong value is refused in crux's words (the caret, the hint, the list of names) rather
than click's. What the types add is what a value may be: a file, or one of a set of words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


class WordType(click.ParamType):
    """A value that is one of a set of words (read when completing, never at start-up)."""

    def __init__(self, name: str, words: Callable[[], tuple[str, ...]]) -> None:
        self.name = name
        self._words = words

    def words(self) -> tuple[str, ...]:
        return self._words()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return value

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(word) for word in self.words() if word.lower().startswith(incomplete.lower())]


def built_in_rule_sets() -> tuple[str, ...]:
    from crux_cli import rulesets

    return (*rulesets.BUILT_IN, "list")


def every_rule_set() -> tuple[str, ...]:
    from crux_cli import rulesets

    return (*rulesets.names(), "list")


class RuleSetName(WordType):
    """`--rules NAME`: a built-in rule set, one a plug-in package declares, or `list`.

    An unknown name is refused by `crux_cli.rulesets.check`, which lists the names.
    """

    def __init__(self) -> None:
        super().__init__("rules", every_rule_set)

    def built_in_words(self) -> tuple[str, ...]:
        """What a completion script written before any plug-in was installed can offer."""
        return built_in_rule_sets()


class SheetFile(click.Path):
    """`--sheet FILE`: a file, never a folder; the store says what is wrong with one (no such sheet, …)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return value
