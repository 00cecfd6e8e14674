"""Click types for crux's option values: what `--help`, click's completion and the static scripts agree on.

Each type accepts the value as typed and leaves the checking to the code that uses it, so
a wrong value is refused in crux's words (the caret, the hint, the list of names) rather
than click's. What the types add is what a value may be: a file, or one of a set of words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from crux_cli import rulesets
from crux_cli.core.errors import CruxError

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


STATEMENT_COMMAND = "_statement"  # the hidden command a statement goes to (crux_cli.cli), and the scripts' fallback
COMPLETION_SHELLS = ("bash", "zsh", "fish")  # `crux --completion SHELL`


class WordType(click.ParamType[str]):  # click 8.4 on (pyproject.toml): ParamType takes its value type
    """A value that is one of a set of words (read when completing, never at start-up)."""

    def __init__(self, name: str, words: Callable[[], tuple[str, ...]]) -> None:
        self.name = name
        self._words = words

    def words(self) -> tuple[str, ...]:
        return self._words()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        return str(value)  # as typed: a command line and the environment give text

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(word) for word in self.words() if word.lower().startswith(incomplete.lower())]


def built_in_rule_sets() -> tuple[str, ...]:
    return (*rulesets.BUILT_IN, "list")


def every_rule_set() -> tuple[str, ...]:
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


class Seed(click.ParamType[int]):
    """`--seed N`: a whole number, refused in the words the library uses (`core.rng.bad_seed`)."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if text[1:].isdecimal() if text[:1] in "+-" else text.isdecimal():  # not int(): it takes '1_000' too
            try:
                return int(text)
            except ValueError:  # more digits than Python converts
                pass
        from crux_cli.core.rng import bad_seed

        error = bad_seed(repr(value))
        raise CruxUsage(error.message, error.hint, ctx=ctx, param=param)


class CruxUsage(click.BadParameter):
    """A value click's parser refused, with crux's own message and hint."""

    def __init__(self, message: str, hint: str | None, *, ctx: click.Context | None = None,
                 param: click.Parameter | None = None) -> None:
        super().__init__(message, ctx=ctx, param=param)
        self.hint = hint


def usage_error(error: click.UsageError, argv: list[str], group: click.Group) -> CruxError:
    """A usage error click found (an unknown option, a missing or bad value), as crux says its own errors:
    the command line with a caret under the word at fault, and a hint. `group` is crux's command group."""
    where = error.ctx.command_path if error.ctx is not None else "crux"
    where = "crux" if where.endswith(" _statement") else where  # a statement's options are crux's own
    hint: str | None = f"{where} --help lists the options"
    position: int | None = None
    if isinstance(error, click.NoSuchOption):
        message = f"no such option: {error.option_name}"
        if error.possibilities:
            hint = "did you mean " + " or ".join(sorted(error.possibilities)) + "?"
        position = option_at(argv, [error.option_name])
    elif isinstance(error, click.BadOptionUsage):
        message = f"{error.option_name} needs a value"
        hint = needs_a_value_hint(error, group, hint)
        position = option_at(argv, [error.option_name])
    elif isinstance(error, click.MissingParameter) and isinstance(error.param, click.Argument):
        message = f"{where} needs a {error.param.name or 'value'}"
        hint = f"for example: {where} 'DEX +2b'" if error.param.name == "statement" else hint
    elif isinstance(error, click.BadParameter) and error.param is not None:
        names = list(error.param.opts)
        message, hint = bad_value(error, error.param, names, hint)
        position = option_at(argv, names, value=True)
    else:
        message = error.format_message().rstrip(".")
        message = message[:1].lower() + message[1:]
        if message.startswith("no such command"):
            hint = f"{where} --help lists its commands"
    text = " ".join(argv)
    return CruxError(message, text=text if position is not None else None, position=position, hint=hint)


def option_at(argv: list[str], names: list[str], value: bool = False) -> int | None:
    """Where in the command line (its words joined by spaces) the option of one of `names` is, or its value."""
    starts = []
    offset = 0
    for word in argv:
        starts.append(offset)
        offset += len(word) + 1
    for index, word in enumerate(argv):
        for name in names:
            if word == name:
                return starts[index + 1] if value and index + 1 < len(argv) else starts[index]
            if name.startswith("--") and word.startswith(name + "="):
                return starts[index] + (len(name) + 1 if value else 0)
    return None


def needs_a_value_hint(error: click.BadOptionUsage, group: click.Group, hint: str | None) -> str | None:
    """How to write the option that was given no value (its metavar), before `hint`."""
    if error.ctx is not None:
        params = error.ctx.command.params
    else:  # click's parser raises it before there is a context: the group's options, then the commands'
        params = [*group.params, *(p for c in group.commands.values() for p in c.params)]
    option = next((p for p in params if error.option_name in p.opts), None)
    if option is not None and option.metavar:
        return f"write it as {error.option_name} {option.metavar}; {hint}"
    return hint


def bad_value(error: click.BadParameter, param: click.Parameter, names: list[str],
              hint: str | None) -> tuple[str, str | None]:
    """The message and hint for a value click's parser (or a crux type) refused."""
    shown = max(names, key=len) if names else param.name or "the value"
    if isinstance(error, CruxUsage):
        return f"{shown}: {error.message}", error.hint
    if isinstance(param.type, click.IntRange) and param.type.min is not None:
        low, high = param.type.min, param.type.max
        return f"{shown} takes a whole number from {low}" + (f" to {high:,}" if high is not None else " up"), hint
    return f"{shown}: {error.message[:1].lower()}{error.message[1:].rstrip('.')}", hint
