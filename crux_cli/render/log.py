"""The journal read back for people: one line per entry (time, who, statement, answer), for `crux log` and `/log`.

Entries are `core.journal_entry.JournalEntry` values, so this module needs nothing from the state layer.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.columns import ljust, width
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
    """A header line for each session, then its entries. Consecutive sessions of one entry each (one-shot
    commands: each `crux d6` is a session of its own) share one header, naming the first and the last:
    `-- 4 sessions of one entry each (1dba6170 … 342a10e3)`, so the log is not half headers."""
    listed = list(entries)
    runs: list[list[JournalEntry]] = []
    for entry in listed:
        if runs and runs[-1][0].session == entry.session:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    lines: list[str] = []
    at = 0
    while at < len(runs):
        single = at
        while single < len(runs) and len(runs[single]) == 1:
            single += 1
        if single - at > 1:  # a run of one-entry sessions: one header
            first, last = runs[at][0].session, runs[single - 1][0].session
            lines.append(palette.dim(f"-- {single - at} sessions of one entry each ({first} … {last})"))
            block = [run[0] for run in runs[at:single]]
            at = single
        else:
            lines.append(palette.dim(f"-- session {runs[at][0].session}"))
            block = runs[at]
            at += 1
        columns = who_columns(block)
        lines += [entry_line(entry, palette, columns) for entry in block]
    return lines


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
