"""Random table files: found by name, read and checked, handed on as an immutable `dice.tables.Table`.

`table loot` looks for `loot.toml` in `./tables/`, then in the campaign folder's `tables/` (the folder of
the loaded character sheet), then in `$XDG_DATA_HOME/crux/tables/` (`~/.local/share/crux/tables/`).
A table that rolls on another (`table = "gems"`) finds it in its own folder first, then the same way.

    die = "1d6"                 # optional; without it, one die over the rows' weights
    [[rows]]
    roll = "1-3"                # a total or a range of the die's totals
    text = "{2d6} copper pieces"
    [[rows]]
    weight = 2                  # or a weight, in a table without a die (never both kinds)
    table = "gems"              # roll on tables/gems.toml too

A file that cannot be used (malformed TOML, an unknown key, a gap or an overlap in the ranges, a total the
die can never show, an unknown nested table, a cycle) is refused with its path, line and reason.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_SIDES
from crux_cli.dice import grammar, syntax
from crux_cli.dice.tables import MAX_DEPTH, TABLE_NAME, Inline, Row, Table, TableStatement
from crux_cli.state.files import user_folder
from crux_cli.state.plain_toml import loads as plain_loads

FOLDER = "tables"
SUFFIX = ".toml"
MAX_FILE = 256 * 1024  # bytes of one table file
MAX_ROWS = 1_000
MAX_WEIGHT = MAX_SIDES  # of one row, and of them all: the weights make one die
MAX_INLINE = 1_000  # inline rolls in one file
MAX_TABLES = 64  # files one statement may read, nested tables included
ROW_KEYS = {"roll", "weight", "text", "table"}
TOP_KEYS = {"die", "rows", "title"}
RANGE = re.compile(r"\s*(-?[0-9]{1,9})\s*(?:(?:-|–|\.\.)\s*(-?[0-9]{1,9})\s*)?$")


def search_path(sheet: str | None = None, environ: Any = os.environ) -> list[Path]:
    """Where tables are looked for, in order: ./tables, the campaign (the sheet's folder), the user's data."""
    folders = [Path.cwd() / FOLDER]
    if sheet:
        folders.append(Path(sheet).expanduser().resolve().parent / FOLDER)
    folders.append(Path(user_folder("DATA", environ)) / FOLDER)
    unique: list[Path] = []
    for folder in folders:
        if folder not in unique:
            unique.append(folder)
    return unique


def table_names(sheet: str | None = None) -> list[str]:
    """Every table name found on the search path (for Tab and for hints), sorted."""
    names: set[str] = set()
    for folder in search_path(sheet):
        try:
            names |= {p.stem for p in folder.glob(f"*{SUFFIX}") if TABLE_NAME.fullmatch(p.stem)}
        except OSError:
            continue
    return sorted(names)


def find(name: str, folders: list[Path]) -> Path | None:
    for folder in folders:
        path = folder / f"{name}{SUFFIX}"
        if path.is_file():
            return path
    return None


def read_statement(text: str, sheet: str | None = None) -> Any:
    """`table NAME` read: the statement, its table and the tables it rolls on read from their files."""
    match = re.fullmatch(r"\s*table(?:\s+(\S*))?\s*", text, re.IGNORECASE)
    start = len(text) - len(text.lstrip())
    if match is None:
        rest = text.lstrip()[len("table"):]
        position = len(text) - len(rest) + len(rest) - len(rest.lstrip())
        extra = rest.split()[1] if len(rest.split()) > 1 else rest.strip()
        raise CruxError(f"a table statement does not take '{extra}' here", text=text,
                        position=text.find(extra, position + 1) if extra else position, hint="try: table loot")
    name = match.group(1) or ""
    folders = search_path(sheet)
    if not name:
        known = table_names(sheet)
        raise CruxError("which table? 'table' takes a table's name", text=text, position=len(text.rstrip()),
                        hint=("tables here: " + ", ".join(known[:12])) if known else
                        f"write one as tables/loot.toml (man crux-notation: RANDOM TABLES); looked in {folders[0]}")
    position = match.start(1)
    if not TABLE_NAME.fullmatch(name):
        raise CruxError(f"'{name}' is not a table name", text=text, position=position,
                        hint="a table's name is its file's name without .toml: letters, digits, - and _")
    path = find(name, folders)
    if path is None:
        known = table_names(sheet)
        import difflib

        close = difflib.get_close_matches(name, known, n=1)
        raise CruxError(f"there is no table '{name}'", text=text, position=position,
                        hint=f"did you mean '{close[0]}'?" if close else
                        "looked for " + ", ".join(str(f / f"{name}{SUFFIX}") for f in folders))
    loaded: dict[Path, Table] = {}
    table = load(path, name, folders, (), loaded)
    return TableStatement(table, pos=start)


def load(path: Path, name: str, folders: list[Path], chain: tuple[Path, ...], loaded: dict[Path, Table]) -> Table:
    """One table file and the tables it names (each read once; a cycle or too many files refused)."""
    path = inside_its_folder(path)
    if path in loaded:
        return loaded[path]
    if len(loaded) >= MAX_TABLES:
        raise LimitError(f"{path}: rolling it reads more than {MAX_TABLES} table files (the limit)")
    raw = read_text(path)
    data = parse_toml(raw, path)
    lines = row_lines(raw)
    table = check(data, path, name, lines, raw)
    nested: dict[str, Table] = {}
    for index, row in enumerate(table.rows):
        if row.table is None or row.table in nested:
            continue
        where = f"{path}: line {lines[index] if index < len(lines) else 1}"
        target = find(row.table, [path.parent, *folders]) if TABLE_NAME.fullmatch(row.table) else None
        if target is None:
            raise CruxError(f"{where}: row {index + 1} rolls on the table '{row.table}', which is not there",
                            hint=f"write {path.parent / (row.table + SUFFIX)}, or name a table that exists")
        if target.resolve() in (*chain, path):
            raise CruxError(f"{where}: row {index + 1} rolls on '{row.table}', which leads back here "
                            "(a cycle never ends)", hint="a table may not roll on itself, directly or through others")
        if len(chain) + 1 >= MAX_DEPTH:
            raise LimitError(f"{where}: tables nest more than {MAX_DEPTH} deep (the limit)")
        nested[row.table] = load(target, row.table, folders, (*chain, path), loaded)
    table = table.replace(nested=tuple(sorted(nested.items())))
    loaded[path] = table
    return table


def inside_its_folder(path: Path) -> Path:
    """The real file of a table found as `path`: a symbolic link may lead to another file of its tables folder,
    never out of it (to any file the user may read, whose text a refusal would show)."""
    real, folder = path.resolve(), path.parent.resolve()
    if real != path and not real.is_relative_to(folder):
        raise CruxError(f"{path}: a symbolic link out of its tables folder: crux reads no table there",
                        hint=f"copy the table into {path.parent}, or link to one inside it")
    return real


def read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            raise LimitError(f"{path}: a table file of {size:,} bytes is more than {MAX_FILE:,} (the limit)")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise CruxError(f"{path}: line {line}: the file is not UTF-8 text", hint="save it as UTF-8") from None
    except OSError as error:
        raise CruxError(f"{path}: cannot read it: {error.strerror}") from None


def parse_toml(raw: str, path: Path) -> dict[str, Any]:
    """The table's TOML: its plain part read without tomllib (state/plain_toml.py), anything else by tomllib."""
    plain = plain_loads(raw)
    if plain is not None:
        return plain
    import tomllib  # a plain table never imports it (PERFORMANCE.md)

    try:
        return tomllib.loads(raw)
    except RecursionError:  # tens of thousands of brackets: tomllib reads nesting by recursion
        raise CruxError(f"{path}: the table is not one crux reads: it is nested too deeply",
                        hint="a table has an optional die = \"1d6\" and [[rows]] with roll or weight, and text "
                             "or table") from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column \d+\)", message)
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "malformed TOML"
        line = f"line {found.group(1)}: " if found else ""
        raise CruxError(f"{path}: {line}the table is not valid TOML: {reason}",
                        hint="a table has an optional die = \"1d6\" and [[rows]] with roll or weight, and text "
                             "or table") from None


def row_lines(raw: str) -> list[int]:
    """The line where each [[rows]] starts, in order."""
    return [number for number, line in enumerate(raw.splitlines(), 1) if re.match(r"\s*\[\[\s*rows\s*\]\]", line)]


def key_line(raw: str, key: str) -> int:
    for number, line in enumerate(raw.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return number
    return 1


def check(data: dict[str, Any], path: Path, name: str, lines: list[int], raw: str) -> Table:
    """The table the file describes, or an error naming the file, the line and the reason."""

    def fail(line: int, reason: str, hint: str | None = None) -> CruxError:
        return CruxError(f"{path}: line {line}: {reason}", hint=hint)

    rows_data, die_text = check_top(data, lines, raw, fail)
    rows: list[Row] = []
    inline: list[tuple[Inline, ...]] = []
    spans: list[tuple[int, int] | None] = []
    weights: list[int] = []
    for index, row in enumerate(rows_data):
        line = lines[index] if index < len(lines) else 1
        text, nested, span, weight = check_row(row, index, line, fail)
        spans.append(span)
        weights.append(weight)
        rows.append(Row(0, 0, text, nested, line))
        if text.count("{") + sum(len(rolls) for rolls in inline) > MAX_INLINE:
            raise fail(line, f"the rows hold more than {MAX_INLINE:,} inline rolls (the limit)")
        inline.append(inline_rolls(text, lambda reason, line=line, n=index + 1: fail(line, f"row {n}: {reason}")))
    if None in spans and any(span is not None for span in spans):
        first_weighted = spans.index(None)
        raise fail(rows[first_weighted].line, f"row {first_weighted + 1} has a weight where the others have a roll",
                   "give every row a roll range, or every row a weight")
    if None in spans:
        rows = weighted_rows(rows, weights, die_text, raw, fail)
        die = die_of(f"1d{sum(weights)}", key_line(raw, "die"), fail)
        return Table(name, str(path), die, tuple(rows), tuple(inline))
    ranges = [s for s in spans if s is not None]
    die = die_of(die_text if die_text is not None else f"1d{max(high for _, high in ranges)}",
                 key_line(raw, "die"), fail)
    for i, (low, high) in enumerate(ranges):
        rows[i] = rows[i].replace(low=low, high=high)
    check_cover(rows, die, fail, die_text is None)
    return Table(name, str(path), die, tuple(rows), tuple(inline))


Fail = Callable[..., CruxError]  # (line, reason, hint=None): an error naming the file and the line


def check_top(data: dict[str, Any], lines: list[int], raw: str, fail: Fail) -> tuple[list[Any], str | None]:
    """The file's rows and its die (None when it gives none), once its top-level keys are right."""
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown and "rows" not in data:  # not a table (another program's file): nothing of it is shown
        raise fail(1, "not a table file: it has no [[rows]] and keys a table does not have",
                   "a table has an optional die = \"1d6\" and [[rows]] with roll or weight, and text or table")
    if unknown:
        raise fail(key_line(raw, unknown[0]), f"a table has no key '{unknown[0]}'",
                   "its keys are die, title and [[rows]]")
    rows_data = data.get("rows")
    if not isinstance(rows_data, list) or not rows_data:
        raise fail(1, "the table has no [[rows]]", "add rows: [[rows]] with roll = \"1-3\" and text = \"...\"")
    if len(rows_data) > MAX_ROWS:
        raise fail(lines[MAX_ROWS] if len(lines) > MAX_ROWS else 1,
                   f"{len(rows_data):,} rows is more than {MAX_ROWS:,} (the limit)")
    die_text = data.get("die")
    if die_text is not None and not isinstance(die_text, str):
        raise fail(key_line(raw, "die"), "die must be a dice expression in quotes, such as die = \"1d6\"")
    return rows_data, die_text


def check_row(row: Any, index: int, line: int, fail: Fail) -> tuple[str, str | None, tuple[int, int] | None, int]:
    """A row's text, the table it names, and its roll range (None) or its weight (0 with a range)."""
    if not isinstance(row, dict):
        raise fail(line, f"row {index + 1} is not a table of keys")
    extra = sorted(set(row) - ROW_KEYS)
    if extra:
        raise fail(line, f"row {index + 1} has no key '{extra[0]}'", "a row has roll or weight, and text or table")
    text, nested = row.get("text", ""), row.get("table")
    if not isinstance(text, str) or (nested is not None and not isinstance(nested, str)):
        raise fail(line, f"row {index + 1}: text and table are written in quotes")
    if not text and nested is None:
        raise fail(line, f"row {index + 1} has neither text nor table", "give it text = \"...\" or table = \"...\"")
    if nested is not None and not TABLE_NAME.fullmatch(nested):
        raise fail(line, f"row {index + 1}: '{nested}' is not a table name",
                   "a table's name is its file's name without .toml: letters, digits, - and _")
    if "roll" in row and "weight" in row:
        raise fail(line, f"row {index + 1} has both roll and weight", "give each row one of them")
    if "roll" in row:
        return text, nested, span_of(row["roll"], lambda reason: fail(line, f"row {index + 1}: {reason}")), 0
    weight = row.get("weight", 1)
    if not isinstance(weight, int) or isinstance(weight, bool) or not 1 <= weight <= MAX_WEIGHT:
        raise fail(line, f"row {index + 1}: a weight is a whole number from 1 to {MAX_WEIGHT:,}")
    return text, nested, None, weight


def weighted_rows(rows: list[Row], weights: list[int], die_text: str | None, raw: str, fail: Fail) -> list[Row]:
    """The rows of a table of weights, each given its span of one die rolled over the weights' total."""
    if die_text is not None:
        raise fail(key_line(raw, "die"), "a table of weights rolls one die over the weights: it takes no die",
                   "remove die, or give each row a roll range instead of a weight")
    total = sum(weights)
    if total > MAX_WEIGHT:
        raise fail(rows[0].line, f"the weights add up to {total:,}, more than {MAX_WEIGHT:,} (the limit)")
    low = 1
    for i, weight in enumerate(weights):
        rows[i] = rows[i].replace(low=low, high=low + weight - 1)
        low += weight
    return rows


def span_of(value: Any, fail: Any) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    match = RANGE.match(value) if isinstance(value, str) else None
    if match is None:
        raise fail(f"roll must be a total or a range such as \"1-3\", not {value!r}")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if high < low:
        raise fail(f"the range {value!r} runs backwards", )
    return low, high


def die_of(text: str, line: int, fail: Any) -> syntax.Roll:
    try:
        statement = grammar.parse(text)
    except CruxError as error:
        raise fail(line, f"die: {error.message}", "a die is a dice expression such as \"1d6\" or \"2d6\"") from None
    if not isinstance(statement, syntax.Roll) or statement.repeat != 1 or statement.reads_sheet:
        raise fail(line, f"die: '{text}' is not one dice expression", "a die such as \"1d6\", \"2d6\" or \"1d100\"")
    return statement


PLAIN_DIE = (10, 1000)  # at most so many dice of so many sides: their totals are told without the odds


def die_totals(die: syntax.Roll, rows: list[Row], fail: Any) -> tuple[int, ...]:
    """Every total the die can show, in order: NdS's are N to N×S (a table's usual 1d6 or 2d6, told without
    importing the odds); any other die's, from its odds."""
    dice = die.expr
    if type(dice) is syntax.Dice and 1 <= dice.count <= PLAIN_DIE[0] and 1 <= dice.sides <= PLAIN_DIE[1]:
        return tuple(range(dice.count, dice.count * dice.sides + 1))
    from crux_cli.dice.probability import statement_odds  # a plain die's table never loads the odds
    from crux_cli.probability.result import distribution_of

    try:
        found = statement_odds(die)
    except CruxError as error:
        raise fail(rows[0].line, f"die '{die}': {error.message}") from None
    return distribution_of(found.distribution).values if found.distribution is not None else ()


def check_cover(rows: list[Row], die: syntax.Roll, fail: Any, default_die: bool) -> None:
    """Every total the die can show is in exactly one row, and no row is out of its reach."""
    totals = die_totals(die, rows, fail)
    low, high = totals[0], totals[-1]
    ordered = sorted(rows, key=lambda r: (r.low, r.high))
    for before, after in itertools.pairwise(ordered):
        if after.low <= before.high:
            raise fail(max(before.line, after.line), f"the rows {before.span} and {after.span} overlap",
                       "each total of the die belongs to one row")
    for row in ordered:
        if row.high < low or row.low > high:
            raise fail(row.line, f"the row {row.span} can never be rolled: {die} gives {low}–{high}",
                       "give the table a die that reaches it (die = \"...\")" if default_die else None)
    covered = {t for row in rows for t in range(max(row.low, low), min(row.high, high) + 1)}
    missing = [t for t in totals if t not in covered]
    if missing:
        gap = missing[0]
        nearest = min(ordered, key=lambda r: min(abs(r.low - gap), abs(r.high - gap)))
        raise fail(nearest.line, f"no row covers {gap}, which {die} can roll (a gap in the table)",
                   "every total of the die needs a row")


def inline_rolls(text: str, fail: Any) -> tuple[Inline, ...]:
    """`{2d6} goblins`: each braced dice expression of a row's text (braces inside it may nest: `{{1d6, 1d8}kh1}`)."""
    found: list[Inline] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                body = text[start + 1:i]
                try:
                    statement = grammar.parse(body)
                except CruxError as error:
                    raise fail(f"the inline roll {{{body}}} is refused: {error.message}") from None
                if isinstance(statement, syntax.Countdown) or statement.reads_sheet:
                    raise fail(f"the inline roll {{{body}}} is not a plain dice expression")
                found.append(Inline(start, i + 1, statement))
    if depth:
        raise fail(f"a '{{' in the text is never closed: {text!r}")
    return tuple(found)
