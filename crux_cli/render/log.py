"""The journal read back for people: one line per entry (time, who, statement, answer), for `crux log` and `/log`.

Entries are `core.journal_entry.JournalEntry` values, so this module needs nothing from the state layer.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.style import PLAIN, Palette

if TYPE_CHECKING:
    from crux_cli.core.journal_entry import JournalEntry


def local_time(stamp: str) -> str:
    """'2026-11-23T17:02:03.123Z' as local 'YYYY-MM-DD HH:MM:SS' (the stamp itself when it does not read)."""
    try:
        seconds = time.mktime(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    except ValueError:
        return stamp
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def log_lines(entries: Iterable[JournalEntry], palette: Palette = PLAIN) -> list[str]:
    """`iter_log_lines`, as a list (`/log` in the session)."""
    return list(iter_log_lines(entries, palette))


SINGLES_AT_ONCE = 1000  # one-entry sessions under one header at most: a log streams, holding no more than these


def iter_log_lines(entries: Iterable[JournalEntry], palette: Palette = PLAIN) -> Iterator[str]:
    """A header line for each session, then its entries, as they come (`crux log` prints as it reads).
    Consecutive sessions of one entry each (one-shot commands: each `crux d6` is a session of its own) share one
    header, naming the first and the last: `-- 4 sessions of one entry each (1dba6170 … 342a10e3)`, so the log
    is not half headers (up to SINGLES_AT_ONCE of them a header)."""
    singles: list[JournalEntry] = []  # one-entry sessions, shown when their run of them ends
    current: JournalEntry | None = None  # the first entry of the session being read, until a second one comes
    streaming = False  # the session being read has shown its header: its entries go out as they come
    for entry in entries:
        if current is not None and entry.session == current.session:
            if not streaming:
                yield from singles_block(singles, palette)
                singles = []
                yield palette.dim(f"-- session {current.session}")
                yield entry_line(current, palette)
                streaming = True
            yield entry_line(entry, palette)
            continue
        if current is not None and not streaming:
            singles.append(current)
            if len(singles) >= SINGLES_AT_ONCE:
                yield from singles_block(singles, palette)
                singles = []
        current, streaming = entry, False
    if current is not None and not streaming:
        singles.append(current)
    yield from singles_block(singles, palette)


def singles_block(singles: list[JournalEntry], palette: Palette) -> Iterator[str]:
    """Sessions of one entry each: one header for all (for one, its own), then their lines."""
    if len(singles) > 1:
        first, last = singles[0].session, singles[-1].session
        yield palette.dim(f"-- {len(singles)} sessions of one entry each ({first} … {last})")
    elif singles:
        yield palette.dim(f"-- session {singles[0].session}")
    for entry in singles:
        yield entry_line(entry, palette)


def entry_line(entry: JournalEntry, palette: Palette = PLAIN) -> str:
    kind = entry.kind
    who = entry.who or ""
    head = f"{local_time(str(entry.time))}  {who:10.10} "
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
