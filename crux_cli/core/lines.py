"""How a line of input divides (crux-notation(7) DESCRIPTION, Words and spaces), for every reader of it:
the runner, the REPL session, its lexer and its suggester all split here, so they cannot disagree about a `;` or a `#`.

`DEX +1b; odds atk d8 # goblin` is two statements, `DEX +1b` and `odds atk d8`, and a comment
`goblin`; the second asks for exact odds of `atk d8`. `odds` takes the rest of the line, so
`odds DEX +2b; DEX +1b grit` compares the odds of two statements side by side.
"""

from __future__ import annotations

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


def undecodable(text: str) -> int | None:
    """Where `text` holds a byte that is not UTF-8, or None. Python reads the command line and the
    environment with surrogate escapes (the byte 0xE9 becomes U+DCE9), which nothing can write back
    out as text: not the journal, not the terminal's UTF-8."""
    if text.isascii():  # nearly always: one C-level check
        return None
    return next((at for at, ch in enumerate(text) if "\ud800" <= ch <= "\udfff"), None)

