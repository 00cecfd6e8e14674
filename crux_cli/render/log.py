"""The journal read back for people: one line per entry (time, who, statement, answer), for `crux log` and `/log`.

Entries are `core.journal_entry.JournalEntry` values, so this module needs nothing from the state layer.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.columns import ljust, width
from crux_cli.core.style import PLAIN, Palette

if TYPE_CHECKING:
    from crux_cli.core.journal_entry import JournalEntry


def local_time(stamp: str) -> str:
    """'2026-11-23T17:02:03.123Z' as local 'YYYY-MM-DD HH:MM:SS' (the stamp itself when it does not read)."""
    fields: time.struct_time | tuple[int, int, int, int, int, int, int, int, int] | None = stamp_fields(stamp)
    try:
        if fields is None:  # not as crux writes it: strptime decides (its first use costs a log's first page 9 ms)
            fields = time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")
        seconds = time.mktime(fields) - time.timezone
    except ValueError:
        return stamp
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def stamp_fields(stamp: str) -> tuple[int, int, int, int, int, int, int, int, int] | None:
    """The fields `time.strptime` reads of a stamp as crux writes it ('YYYY-MM-DDTHH:MM:SS…'), for `time.mktime`
    (which reads neither the weekday nor the day of the year); None for any other shape, or a day past the 28th
    (strptime checks the month's length), left to strptime (tests/test_log_lines.py holds the two equal)."""
    if len(stamp) < 19 or stamp[4] != "-" or stamp[7] != "-" or stamp[10] != "T" or stamp[13] != ":" \
            or stamp[16] != ":":
        return None
    parts = stamp[:4], stamp[5:7], stamp[8:10], stamp[11:13], stamp[14:16], stamp[17:19]
    if not all(part.isascii() and part.isdigit() for part in parts):
        return None
    year, month, day, hour, minute, second = map(int, parts)
    if not (1971 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= 28 and hour <= 23 and minute <= 59
            and second <= 59):
        return None
    return year, month, day, hour, minute, second, 0, 1, -1


def log_lines(entries: Iterable[JournalEntry], palette: Palette = PLAIN) -> list[str]:
    """`iter_log_lines`, as a list (`/log` in the session)."""
    return list(iter_log_lines(entries, palette))


SINGLES_AT_ONCE = 1000  # one-entry sessions under one header at most: a log streams, holding no more than these
HEAD_ENTRIES = 64  # a session's first entries, read before its lines go out: its `who` column fits their names


def iter_log_lines(entries: Iterable[JournalEntry], palette: Palette = PLAIN) -> Iterator[str]:
    """A header line for each session, then its entries, as they come (`crux log` prints as it reads).
    Consecutive sessions of one entry each (one-shot commands: each `crux d6` is a session of its own) share one
    header, naming the first and the last: `-- 4 sessions of one entry each (1dba6170 … 342a10e3)`, so the log
    is not half headers (up to SINGLES_AT_ONCE of them a header). A longer session's first HEAD_ENTRIES set the
    width of its `who` column; the rest stream at that width (a wider name is whole, pushing its line right)."""
    singles: list[JournalEntry] = []  # one-entry sessions, shown when their run of them ends
    pending: list[JournalEntry] = []  # the session being read, until its `who` column is known
    streaming: tuple[str, int] | None = None  # (session, columns) of a session whose lines go out as they come
    for entry in entries:
        if streaming is not None and entry.session == streaming[0]:
            yield entry_line(entry, palette, streaming[1])
            continue
        streaming = None
        if pending and entry.session != pending[0].session:
            yield from ended(pending, singles, palette)
            pending = []
        pending.append(entry)
        if len(pending) >= HEAD_ENTRIES:
            yield from session_block(singles, pending, palette)
            singles, streaming, pending = [], (entry.session, who_columns(pending)), []
    yield from ended(pending, singles, palette)
    yield from singles_block(singles, palette)


def ended(pending: list[JournalEntry], singles: list[JournalEntry], palette: Palette) -> Iterator[str]:
    """A session read whole: one entry joins `singles` (shown when they are many), more are shown now."""
    if len(pending) == 1:
        singles.append(pending[0])
        if len(singles) >= SINGLES_AT_ONCE:
            yield from singles_block(singles, palette)
            singles.clear()
    elif pending:
        yield from session_block(singles, pending, palette)
        singles.clear()


def session_block(singles: list[JournalEntry], session: list[JournalEntry], palette: Palette) -> Iterator[str]:
    """The one-entry sessions before it, then a session's header and the entries read of it."""
    yield from singles_block(singles, palette)
    yield palette.dim(f"-- session {session[0].session}")
    columns = who_columns(session)
    for entry in session:
        yield entry_line(entry, palette, columns)


def singles_block(singles: list[JournalEntry], palette: Palette) -> Iterator[str]:
    """Sessions of one entry each: one header for all (for one, its own), then their lines."""
    if len(singles) > 1:
        first, last = singles[0].session, singles[-1].session
        yield palette.dim(f"-- {len(singles)} sessions of one entry each ({first} … {last})")
    elif singles:
        yield palette.dim(f"-- session {singles[0].session}")
    columns = who_columns(singles)
    for entry in singles:
        yield entry_line(entry, palette, columns)


WHO_COLUMNS = 10, 24  # the `who` column: at least this wide, and padded to at most this (a longer name is whole)


def who_columns(entries: list[JournalEntry]) -> int:
    """How wide the `who` column of a header's entries is: its widest name, between the two WHO_COLUMNS (a
    name wider still is shown whole, its line pushed right, rather than cut)."""
    widest = max((width(entry.who or "") for entry in entries), default=0)
    return max(WHO_COLUMNS[0], min(widest, WHO_COLUMNS[1]))


def entry_line(entry: JournalEntry, palette: Palette = PLAIN, columns: int = WHO_COLUMNS[0]) -> str:
    """One entry: its time, who (whole, padded to `columns`), the statement and its answers' gist."""
    kind = entry.kind
    who = entry.who or ""
    head = f"{local_time(str(entry.time))}  {ljust(who, columns)} "
    statement = entry.statement or ""
    if kind in ("undo", "redo"):
        body = f"{kind} of `{statement}` ({entry.undoes})"
    else:
        answers = [answer_summary(answer) for answer in entry.answers or ()]
        body = statement + (": " + " · ".join(a for a in answers if a) if any(answers) else "")
    changes = "; ".join(change_summary(change) for change in entry.sheets or ())
    return palette.dim(head) + body + (palette.dim(f"  [{changes}]") if changes else "")


def answer_summary(answer: Mapping[str, Any]) -> str:
    """The gist of one answer's JSON: its outcome and total or damage, whatever the rule set names them."""
    if answer.get("kind") == "attack" and "damage" in answer:
        return f"{answer.get('outcome', '')} {answer['damage']} damage".strip()
    if answer.get("dice") == [] and answer.get("kept", 0) is None:  # nothing rolled (`init ambush`): no outcome
        given = [f"{answer[key]} {key}" for key in ("total", "actions") if key in answer]
        return ", ".join([*given, "no roll"])
    parts = [str(answer[key]) for key in ("outcome", "total", "actions") if key in answer]
    if "amount" in answer:
        parts.append(f"{answer['amount']} {answer.get('kind', '')}".strip())
    return " ".join(parts) or str(answer.get("kind", ""))


LABELS = {"hp": "HP", "grit": "Grit", "wounds": "Wounds", "dying": "Dying", "dead": "Dead", "hit_dice": "Hit Dice",
          "conditions": "conditions"}


def change_summary(change: Mapping[str, Any]) -> str:
    """'Ann: HP 12 → 7, Dying no → yes': a sheet change as the answers word it."""
    before, after = change.get("before", {}), change.get("after", {})
    moves = ", ".join(f"{LABELS.get(name, name)} {show(before.get(name))} → {show(after.get(name))}"
                      for name in after)
    return f"{change.get('who', '')}: {moves}"


def show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
