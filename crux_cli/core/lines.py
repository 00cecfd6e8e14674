"""How a line of input divides (crux-notation(7) DESCRIPTION, Words and spaces), for every reader of it:
the runner, the REPL session, its lexer and its suggester all split here, so they cannot disagree about a `;` or a `#`.

`DEX +1b; odds atk d8 # goblin` is two statements, `DEX +1b` and `odds atk d8`, and a comment
`goblin`; the second asks for exact odds of `atk d8`. `odds` takes the rest of the line, so
`odds DEX +2b; DEX +1b grit` compares the odds of two statements side by side.
"""

# No `from __future__ import annotations` here: with it, typing.NamedTuple (`OddsAsked`) turned each field's
# string annotation into a ForwardRef and compiled it, on every one-shot path: the first compile() of a process
# also builds the ast module's types, 18 M instructions, a tenth of a roll (tests/bench/bench_startup.py).
import re
from typing import NamedTuple

from crux_cli.core.errors import CruxError

SEPARATOR = ";"
COMMENT = "#"
ODDS = "odds"


def code(line: str) -> str:
    """The line before its comment, as typed."""
    return line.partition(COMMENT)[0]


def has_comment(line: str) -> bool:
    return COMMENT in line


def is_blank(line: str) -> bool:
    """Nothing to answer: an empty line, or only a comment."""
    return not code(line).strip()


def split_comment(line: str) -> tuple[str, str | None]:
    """`atk d8 # goblin` → ('atk d8', 'goblin')."""
    text, marked, comment = line.partition(COMMENT)
    return text.strip(), (comment.strip() or None) if marked else None


def split_statements(text: str) -> list[str]:
    """Several statements on one line are separated by `;` (blank ones are dropped).

    `odds` takes the rest of the line: `DEX; odds DEX +2b; DEX +1b grit` is a roll of `DEX`, then the odds of
    `DEX +2b` and `DEX +1b grit` side by side (a comparison), as `crux odds 'DEX +2b; DEX +1b grit'` shows.
    """
    parts = [part.strip() for part in text.split(SEPARATOR) if part.strip()] or [text]
    if len(parts) > 1 and ODDS in text.lower():
        for index, part in enumerate(parts[:-1]):
            if odds_body(part) is not None:
                return [*parts[:index], f"{SEPARATOR} ".join(parts[index:])]
    return parts


def spans(text: str) -> list[tuple[int, str]]:
    """Each `;`-separated part of `text`, stripped, with the index in `text` where it starts."""
    out = []
    offset = 0
    for part in text.split(SEPARATOR):
        out.append((offset + len(part) - len(part.lstrip()), part.strip()))
        offset += len(part) + len(SEPARATOR)
    return out


def last_part(text: str) -> str:
    """The part after the last `;`, as typed: the statement a cursor at the end of `text` is in."""
    return text.rpartition(SEPARATOR)[2]


def odds_body(statement: str) -> str | None:
    """What follows a leading `odds` word, as typed (None when the statement does not start with it)."""
    text = statement.lstrip()
    head, rest = text[:len(ODDS)], text[len(ODDS):]
    if head.lower() != ODDS or (rest and not rest[0].isspace()):
        return None
    return rest


QUOTES = "'\""
WORDS = re.compile(r"\S+")


class OddsAsked(NamedTuple):
    """What `odds …` asks for, wherever a line is read: the statement (its quotes taken off), and the options
    `crux odds` takes, `--at-least K` and `--cumulative`. `start` is where the statement begins in the body."""

    statement: str
    at_least: int | None = None
    cumulative: bool = False
    start: int = 0


def odds_asked(body: str) -> OddsAsked:
    """`odds`'s body read as the command line reads `crux odds`'s arguments.

    `--cumulative` and `--at-least K` (or `--at-least=K`) come before the statement, or after it; the
    statement may be quoted whole, as it is on a command line (`odds --cumulative '1d20+5 vs 15; d20 vs 15'`):
    the quotes are the shell's, not the statement's. A name quoted inside the statement keeps its quotes.
    """
    text = body.rstrip()
    words = [(found.start(), found.group()) for found in WORDS.finditer(text)]
    asked: dict[str, int | bool] = {}
    first, last = 0, len(words)
    while first < last and (taken := _option(words, first, body, asked)):
        first += taken
    while last - first > 1 and (taken := _trailing(words, first, last, body, asked)):
        last -= taken
    start = words[first][0] if first < last else len(text)
    statement = text[start:words[last - 1][0] + len(words[last - 1][1])] if first < last else ""
    if len(statement) >= 2 and statement[0] in QUOTES and statement[-1] == statement[0] \
            and statement[0] not in statement[1:-1]:
        statement, start = statement[1:-1], start + 1
    at_least = asked.get("at_least")
    return OddsAsked(statement.strip(), None if at_least is None else int(at_least), bool(asked.get("cumulative")),
                     start + len(statement) - len(statement.lstrip()))


def _option(words: list[tuple[int, str]], at: int, body: str, asked: dict[str, int | bool]) -> int:
    """How many words the option at `words[at]` takes (0: it is none), noted in `asked`; one odds does not
    take is refused, naming those it does."""
    where, word = words[at]
    name, equals, value = word.partition("=")
    if not word.startswith("--"):
        return 0
    if name == "--cumulative" and not equals:
        asked["cumulative"] = True
        return 1
    if name != "--at-least":
        raise CruxError(f"odds does not take {word}", text=body, position=where,
                        hint="odds takes --cumulative and --at-least K, before or after the statement")
    taken = 1
    if not equals:  # the value is the next word
        value, taken = (words[at + 1][1], 2) if at + 1 < len(words) else ("", 1)
    if not value.lstrip("-").isdigit() or not value.isascii():
        raise CruxError("--at-least needs a whole number: --at-least 10", text=body, position=where,
                        hint="odds --at-least 10 'atk 2d8+3'")
    asked["at_least"] = int(value)
    return taken


def _trailing(words: list[tuple[int, str]], first: int, last: int, body: str, asked: dict[str, int | bool]) -> int:
    """How many of the words before `words[last]` are an option written after the statement (0: none)."""
    if last - first >= 3 and words[last - 2][1] == "--at-least":
        return _option(words[:last], last - 2, body, asked)
    return _option(words[:last], last - 1, body, asked)


def undecodable(text: str) -> int | None:
    """Where `text` holds a byte that is not UTF-8, or None. Python reads the command line and the
    environment with surrogate escapes (the byte 0xE9 becomes U+DCE9), which nothing can write back
    out as text: not the journal, not the terminal's UTF-8."""
    if text.isascii():  # nearly always: one C-level check
        return None
    return next((at for at, ch in enumerate(text) if "\ud800" <= ch <= "\udfff"), None)

