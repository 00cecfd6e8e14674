"""The ways of running without a prompt: one statement line, a batch from a stream, odds.

Each returns the exit status (0 all answered, 2 any refused) rather than exiting, so the
faces decide how to leave and tests can call them in-process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.lines import is_blank

if TYPE_CHECKING:
    from crux_cli.running.output import Output
    from crux_cli.running.settings import Settings


def run_one(settings: Settings, text: str, output: Output) -> int:
    from crux_cli.running.settings import make_runner

    try:
        output.answers(make_runner(settings).execute(with_aliases(settings, text)))
    except CruxError as error:
        output.error(error)
    return 2 if output.failures else 0


def run_batch(settings: Settings, stream: Any, output: Output) -> int:
    """One statement per line; a bad line is reported with its number and the batch goes on."""
    from crux_cli.running.settings import make_runner

    if stream is None or getattr(stream, "closed", False):
        output.error(CruxError("standard input is closed: there are no statements to read",
                               hint="give a statement as an argument, or pipe statements in: crux - < rolls.txt"))
        return 2
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="replace")  # junk bytes become visible characters, not a crash
    try:
        runner = make_runner(settings)
    except CruxError as error:
        output.error(error)
        return 2
    for number, raw in enumerate(stream, 1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark some editors write first
        if is_blank(line):
            continue
        try:
            output.answers(runner.execute(with_aliases(settings, line)), line=number)
        except CruxError as error:
            output.error(error, f"line {number}: ")
    return 2 if output.failures else 0


def run_odds(settings: Settings, text: str, output: Output, at_least: int | None = None) -> int:
    from crux_cli.running.settings import make_runner

    try:
        answer = make_runner(settings).odds(with_aliases(settings, text), at_least=at_least)
    except CruxError as error:
        output.error(error)
        return 2
    output.odds(answer)
    return 0


def with_aliases(settings: Settings, text: str) -> str:
    """The line with the config file's aliases spelled out (`smite goblin` → `atk 2d8+3 heavy goblin`)."""
    aliases = settings.aliases
    if not aliases:
        return text
    from crux_cli.running.config import expand_aliases

    return expand_aliases(text, aliases)
