"""`crux sheet undo` reads the newest 16 entries of a sheet first (then 64, 256), and its newest 1,000 only when
those do not decide what it takes back (state/sheet_undo.py `settled_within`, issue 38): whatever the history of
changes, undos and redos, what the few decide is what the thousand decide."""

from __future__ import annotations

import random

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.state.sheet_undo import settled_within, stacks

SHEET = "/campaign/wren.toml"


def history(draw: random.Random, length: int) -> list[JournalEntry]:
    """Changes of the sheet (and of another), undos and redos of them, and one that takes back a change never
    written, in a random order of the kinds a player makes."""
    entries: list[JournalEntry] = []
    made: list[str] = []
    for number in range(length):
        kind = draw.choice(("change", "change", "undo", "redo", "other", "stray"))
        path = "/campaign/bram.toml" if kind == "other" else SHEET
        change = ({"path": path, "who": "Wren", "before": {"hp": 5}, "after": {"hp": 4}},)
        if kind in ("change", "other") or not made:
            made.append(f"s-{number}")
            entries.append(JournalEntry(kind="change", id=f"s-{number}", statement="damage 1", sheets=change))
        else:
            target = f"s-{10_000 + number}" if kind == "stray" else draw.choice(made[-6:])
            entries.append(JournalEntry(kind="redo" if kind == "redo" else "undo", id=f"s-{number}", undoes=target,
                                        statement="damage 1", sheets=change))
    return entries


def test_the_newest_few_decide_what_the_thousand_decide() -> None:
    draw = random.Random(38)
    decided = 0
    for _ in range(400):
        entries = history(draw, draw.randint(1, 60))
        for redo in (False, True):
            done, undone = stacks(entries, SHEET)
            whole = (undone if redo else done)[-1:]
            for few in (1, 4, 16, 30, 64):
                newest = entries[-few:]
                if settled_within(newest, SHEET, redo):
                    decided += 1
                    some_done, some_undone = stacks(newest, SHEET)
                    assert (some_undone if redo else some_done)[-1:] == whole
    assert decided > 500  # the few decide it most of the time
