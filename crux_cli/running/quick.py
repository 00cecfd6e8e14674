"""The common one-shot command lines, answered without loading click (tests/bench/bench_startup.py).

click is the command's framework (help, completion, subcommands, every option and error), and
importing it is the largest part of a one-shot roll. The forms people type most are read here
instead: a few options before the statement, then the statement's words,

    crux [--json] [--no-journal] [--seed N] [--rules NAME] [--sheet FILE] STATEMENT...
    crux [same options] odds STATEMENT...
    crux [same options] -                      (a batch: __main__ `quick_batch`)

and answered by the very calls the click command makes (the config file, `Settings`, `run_one`,
`run_odds`), so the output and the exit status are the same. Anything else returns None and
goes to click, which decides it as before: any other option or an option after the statement,
a first word starting with `-` but for arithmetic (`-1d6`, `-7/2`, `--2`: no `h` or `V`), a later
one starting with `--` or holding an `h` (a typo of an option, `--`, `-h`; `DEX +2b -1B` is read
here, as click reads it), a subcommand or `help`, `--rules list`, an option given twice, a value
starting with `-`, a seed click's type would refuse,
CRUX_RULES or CRUX_SHEET set, a shell's completion request, and Windows (where click expands
wildcards in the arguments).
tests/test_cli.py runs each form both ways and compares.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

from crux_cli.core.errors import CruxError
from crux_cli.core.lines import undecodable
from crux_cli.core.style import PLAIN
from crux_cli.running.modes import run_odds, run_one
from crux_cli.running.output import Output
from crux_cli.running.settings import Settings
from crux_cli.running.streams import guard_streams, internal_error, os_error, output_failed

FLAGS = {"--json": "json", "--no-journal": "no_journal"}
VALUES = {"--seed": "seed", "--rules": "rules", "--sheet": "sheet"}
# The command's words that are not statements: its subcommands (crux_cli.cli; a test keeps the two
# lists equal), its hidden statement command, `help` (refused in words of its own) and `-` (batch).
COMMANDS = frozenset({"repl", "odds", "sheet", "log", "serve", "join", "_statement"})
NOT_STATEMENTS = COMMANDS | {"help", "-"}
COMPLETE = "_CRUX_COMPLETE"  # set, click answers a shell's completion request


def read(words: list[str]) -> tuple[dict[str, Any], bool, str] | None:
    """(the options, is it `odds`, the statement's text) of a command line read here, else None."""
    if not words or clicks_own():
        return None
    read = leading_options(words, 0, FLAGS, VALUES)
    if read is None:
        return None
    options, at = read
    statement = words[at:]
    odds = statement[:1] == ["odds"]
    if odds:
        if "seed" in options:  # click's odds command takes no --seed of its own: let it say what it says
            return None
        statement = statement[1:]
    if not statement or statement[0] in NOT_STATEMENTS or (statement[0][:1] == "-" and not number_first(
            statement[0])) or any(
            word[:1] == "-" and not as_typed(word) for word in statement[1:]):
        return None
    usable = usable_options(options)
    return None if usable is None else (usable, odds, " ".join(statement))


def clicks_own() -> bool:
    """Is every command line click's to read: on Windows (click expands wildcards in the arguments), with
    CRUX_RULES or CRUX_SHEET set (click reads them as options), or for a shell's completion request?"""
    return os.name == "nt" or any(name in os.environ for name in ("CRUX_RULES", "CRUX_SHEET", COMPLETE))


def usable_options(options: dict[str, Any]) -> dict[str, Any] | None:
    """`options` as answered here, the seed made a number; None where click is to decide (`--rules list`, a seed
    click's type would refuse)."""
    if options.get("rules") == "list":
        return None
    if "seed" in options:
        seed = seed_value(options["seed"])
        if seed is None:
            return None
        options["seed"] = seed
    return options


def read_batch(words: list[str]) -> dict[str, Any] | None:
    """The options of `crux [OPTIONS] -`, a batch of statements from stdin (the forms above, then `-`); None where
    click is to decide."""
    if words[-1:] != ["-"] or clicks_own():
        return None
    read = leading_options(words[:-1], 0, FLAGS, VALUES)
    if read is None or read[1] != len(words) - 1:
        return None
    return usable_options(read[0])


def leading_options(words: list[str], at: int, flags: dict[str, str],
                    values: dict[str, str]) -> tuple[dict[str, Any], int] | None:
    """The options of `words` from `at` up to the first word that is none (the statement's), and where they
    end; None where click is to decide: an option unknown here or given twice, a value missing or starting
    with `-`. `flags` and `values` map each option to its parameter's name."""
    options: dict[str, Any] = {}
    while at < len(words) and words[at][:1] == "-" and not number_first(words[at]):
        word = words[at]
        if word in flags and flags[word] not in options:
            options[flags[word]] = True
            at += 1
        elif word in values and values[word] not in options and at + 1 < len(words) \
                and words[at + 1][:1] != "-":
            options[values[word]] = words[at + 1]
            at += 2
        else:
            return None
    return options, at


def as_typed(word: str) -> bool:
    """Does click hand `word`, after the statement's first word, to the statement as it is? `-1B`, `-2`, `-`:
    a word of one dash is a run of short options to click, and the only short option is -h (help); every
    other letter is unknown, and click keeps the word whole (`ignore_unknown_options`). `--…` is an option,
    or the end of them."""
    return word[1:2] != "-" and "h" not in word


def number_first(word: str) -> bool:
    """Does click hand `word`, as the command line's first word, to the statement whole? `-1d6`, `-7/2`, `--2`:
    a word of one dash is a run of short options, of which the group knows -h and -V; unknown letters are
    kept as one word (`ignore_unknown_options`), so a digit first and neither letter is arithmetic. A word of
    two dashes and a digit is no long option crux has, kept whole too."""
    if word[1:2].isdecimal():
        return "h" not in word and "V" not in word
    return word[1:2] == "-" and word[2:3].isdecimal()


def seed_value(value: str) -> int | None:
    """The seed click's `Seed` type makes of `value` (None where it would refuse it)."""
    text = value.strip()
    if text[1:].isdecimal() if text[:1] in "+-" else text.isdecimal():
        try:
            return int(text)
        except ValueError:
            return None
    return None


def read_config() -> Any:
    """The user's config file; one that cannot be used is reported (path, line, reason) and left aside."""
    from crux_cli.running.config import load_config  # kept off the shells' Tab (PERFORMANCE.md)

    config = load_config()
    if config.problem:
        sys.stderr.write(f"crux: warning: the config file is not used: {config.problem}\n"
                         "  crux runs with the defaults until it is fixed\n")
    return config


def refuse(error: CruxError, words: list[str]) -> int:
    """An error outside any statement, on stderr; with --json, as a JSON object on stdout too (as a batch does)."""
    from crux_cli.render.text import error_lines

    sys.stderr.write("\n".join(error_lines(error, PLAIN)) + "\n")
    if "--json" in words[: words.index("--") if "--" in words else len(words)]:  # a script reads stdout
        from crux_cli.render.jsonl import dumps

        sys.stdout.write(dumps({"input": error.text if error.text is not None else " ".join(words), "error": {
            "message": error.message, "position": error.position, "hint": error.hint}}) + "\n")
    return 2


ENVIRONMENT = ("CRUX_SHEET", "CRUX_RULES", "CRUX_SESSION", "CRUX_CONFIG")  # what crux reads as text or names


def check_text(argv: list[str]) -> None:
    """Refuse, before anything is read or written, an argument or a variable of crux's holding a byte that
    is not UTF-8: a statement or comment in Latin-1 would reach the journal, which is UTF-8 text, after
    the sheet was written; a sheet's name would, on every roll."""
    named: list[tuple[str, str | None]] = [(argument, None) for argument in argv]
    named += [(os.environ[name], name) for name in ENVIRONMENT if name in os.environ]
    for text, variable in named:
        at = undecodable(text)
        if at is not None:
            byte = ord(text[at]) - 0xDC00 if "\udc80" <= text[at] <= "\udcff" else None
            what = f"the byte {byte:#04x}" if byte is not None else "a character"
            raise CruxError(f"{variable or 'this argument'} holds {what}, which is not UTF-8 text",
                            text=f"{variable}={text}" if variable else text,
                            position=at + (len(variable) + 1 if variable else 0),
                            hint="crux reads its input as UTF-8: type it again in a UTF-8 terminal, "
                                 "or give the file a UTF-8 name")


def answer(words: list[str], ready: Any = None) -> int | None:
    """The exit status of the command line `words`, answered here; None: click's to answer. `ready` is called
    once what answering needs is imported (the program hands Ctrl-C back to Python there)."""
    read_here = read(words)
    if read_here is None:
        return None
    options, odds, text = read_here
    guard_streams()
    if ready is not None:
        ready()

    def roll() -> int:
        settings = Settings.from_config(read_config())
        settings.update(options)
        if odds:
            return run_odds(settings, text, Output(settings), None, False)
        return run_one(settings, text, Output(settings))

    return answered(words, roll)


def answered(words: list[str], work: Callable[[], int]) -> int:
    """The exit status of `work`, a command line `words` answered on a quick path (this module's, running.log_view's),
    as crux_cli.cli.main gives it: the words checked as text first, every refusal said as click's path says it,
    never a traceback."""
    try:
        check_text(words)
        return work()
    except CruxError as error:
        return refuse(error, words)
    except (EOFError, KeyboardInterrupt):  # click closes the terminal's ^C echo with a blank line
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write("\n")
        return 130
    except BrokenPipeError:  # the reader went away (crux … | head): stop quietly, status 1, as click does
        return output_failed(None)
    except OSError as error:  # the output cannot be written, or another file: said as what it is
        return os_error(error)
    except Exception as error:
        return internal_error(error)
