"""The plain TOML of a sheet, read without importing tomllib (PERFORMANCE.md; tests/bench/bench_startup.py).

Importing tomllib costs a one-shot roll on a sheet about 6 ms of CPU (it compiles its regular
expressions and imports datetime), a tenth of the command. A sheet as `crux sheet new` writes it,
and as people edit it, uses a small part of TOML: comments, `[table]` headers (and a random table's
`[[rows]]`, state/tables.py), bare keys, and
values that are basic strings without escapes, decimal integers, booleans, and one-line arrays
and inline tables of those. `loads` reads exactly that part and gives what `tomllib.loads` gives
for it; anything else (another form, a line it does not know, a key given twice, an error of
any kind) gives None, and tomllib reads the text, and words the error, as before.
tests/test_plain_toml.py holds it to tomllib's answer on sheets and on mutations of them.
"""

from __future__ import annotations

import re
from typing import Any

from crux_cli.core.errors import SheetError
from crux_cli.core.grammar import Pattern

BLANK = " \t"  # TOML's whitespace
BARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"  # the characters of a bare key
INTEGER = "+-0123456789"
LONGEST_INTEGER = 18  # digits: far from int()'s limit on digits, and within 64 bits
UNKNOWN: Any = object()  # a value outside the part read here


def loads(text: str) -> dict[str, Any] | None:
    """What tomllib.loads(text) gives, if `text` is the plain TOML read here; else None."""
    if "\r" in text:
        return None
    root: dict[str, Any] = {}
    table = root
    arrays: set[str] = set()  # the names of `[[name]]` headers: another one adds a table to the array
    for line in text.split("\n"):
        rest = line.lstrip(BLANK)
        if not rest:
            continue
        if rest[0] == "#":
            if not comment(rest):
                return None
            continue
        if rest.startswith("[["):  # a random table's `[[rows]]`: an array of tables, each header one more
            added = array_table(rest, root, arrays)
            if added is None:
                return None
            table = added
            continue
        if rest[0] == "[":
            close = rest.find("]")
            name = rest[1:close].strip(BLANK)
            if close < 0 or not bare(name) or name in root or not ends(rest, close + 1):
                return None
            table = root[name] = {}
            continue
        equals = rest.find("=")
        key = rest[:equals].rstrip(BLANK)
        if equals < 0 or not bare(key) or key in table:
            return None
        value, at = read_value(rest, skip(rest, equals + 1), True)
        if value is UNKNOWN or not ends(rest, at):
            return None
        table[key] = value
    return root


def array_table(header: str, root: dict[str, Any], arrays: set[str]) -> dict[str, Any] | None:
    """The new table a `[[name]]` header adds to its array (None: a header not read here)."""
    close = header.find("]]")
    name = header[2:close].strip(BLANK)
    if close < 0 or not bare(name) or (name in root and name not in arrays) or not ends(header, close + 2):
        return None
    arrays.add(name)
    table: dict[str, Any] = {}
    root.setdefault(name, []).append(table)
    return table


def bare(key: str) -> bool:
    return bool(key) and not key.strip(BARE)


def comment(text: str) -> bool:
    """Is `text` (from its `#`) a comment tomllib takes? Any character but a control one (a tab is
    allowed); a character str.isprintable refuses is left to tomllib."""
    return text.replace("\t", " ").isprintable()


def ends(line: str, at: int) -> bool:
    """Does `line` end at `at`, but for blanks and a comment?"""
    at = skip(line, at)
    return at == len(line) or (line[at] == "#" and comment(line[at:]))


def skip(line: str, at: int) -> int:
    while at < len(line) and line[at] in BLANK:
        at += 1
    return at


def read_value(line: str, at: int, nested: bool) -> tuple[Any, int]:
    """(the value starting at `at`, where it ends); UNKNOWN when it is not one read here. `nested`:
    an array or an inline table may be read (scalars only, one level deep)."""
    if at >= len(line):
        return UNKNOWN, at
    first = line[at]
    if first == '"':
        close = line.find('"', at + 1)
        content = line[at + 1:close]
        if close < 0 or "\\" in content or not content.replace("\t", " ").isprintable():
            return UNKNOWN, at
        return content, close + 1
    if first in INTEGER:
        end = at
        while end < len(line) and line[end] in INTEGER:
            end += 1
        word = line[at:end]
        digits = word[1:] if word[0] in "+-" else word
        if not digits.isdecimal() or len(digits) > LONGEST_INTEGER or (digits[0] == "0" and len(digits) > 1):
            return UNKNOWN, at
        return int(word), end
    if line.startswith("true", at):
        return True, at + 4
    if line.startswith("false", at):
        return False, at + 5
    if first == "[" and nested:
        return read_array(line, at)
    if first == "{" and nested:
        return read_inline_table(line, at)
    return UNKNOWN, at


def read_array(line: str, at: int) -> tuple[Any, int]:
    """`[a, b, c]` (a comma after the last is allowed), on one line."""
    items: list[Any] = []
    at = skip(line, at + 1)
    while at < len(line) and line[at] != "]":
        item, at = read_value(line, at, False)
        if item is UNKNOWN:
            return UNKNOWN, at
        items.append(item)
        at = skip(line, at)
        if at < len(line) and line[at] == ",":
            at = skip(line, at + 1)
        elif at >= len(line) or line[at] != "]":
            return UNKNOWN, at
    if at >= len(line):
        return UNKNOWN, at
    return items, at + 1


def read_inline_table(line: str, at: int) -> tuple[Any, int]:
    """`{ key = value, … }` (no comma after the last: TOML refuses one), on one line."""
    table: dict[str, Any] = {}
    at = skip(line, at + 1)
    if line.startswith("}", at):
        return table, at + 1
    while True:
        equals = line.find("=", at)
        key = line[at:equals].rstrip(BLANK)
        if equals < 0 or not bare(key) or key in table:
            return UNKNOWN, at
        value, at = read_value(line, skip(line, equals + 1), False)
        if value is UNKNOWN:
            return UNKNOWN, at
        table[key] = value
        at = skip(line, at)
        if line.startswith("}", at):
            return table, at + 1
        if not line.startswith(",", at):
            return UNKNOWN, at
        at = skip(line, at + 1)


# -- what tomllib reads, its errors worded with the sheet's file and line ----------------------------------

SYNTAX_POSITION = Pattern(r"\s*\(at line (\d+), column (\d+)\)\s*$")  # compiled at its first error


def read_toml(text: str, path: str) -> dict[str, Any]:
    """The sheet's TOML as tomllib reads it, or a `SheetError` naming the file, line and reason."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = SYNTAX_POSITION.search(message)
        line = int(where.group(1)) if where else None
        reason = SYNTAX_POSITION.sub("", message)
        raise SheetError(f"not valid TOML: {reason[:1].lower()}{reason[1:]}", path=path, line=line,
                         hint="check the quotes, brackets and `key = value` form on that line") from None
    except ValueError:  # Python refuses to convert an integer of thousands of digits
        raise SheetError("a number too long to be on a sheet", path=path, line=line_of_long_number(text),
                         hint="numbers on a sheet have a few digits") from None
    except RecursionError:
        raise SheetError("arrays or tables nested too deeply to be a sheet", path=path,
                         line=line_of_deep_nesting(text), hint="a sheet nests a table in a table at most") from None


def line_of_long_number(text: str) -> int | None:
    match = re.search(r"\d{100}", text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def line_of_deep_nesting(text: str) -> int | None:
    """The first line opening many arrays or tables (nesting spread over many lines has no one line)."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.count("[") + line.count("{") >= 32:
            return number
    return None


def top_key_line(text: str, key: str) -> int | None:
    """The line where the TOML `text` gives `key` before its first table."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("["):
            return None
        if "=" in line and line.split("=", 1)[0].strip().strip("\"'") == key:
            return number
    return None
