"""Retention: the journal keeps the newest `journal-keep` rolls, at a constant cost (issue 37).

Only what `trim` may drop is counted (meta `rolls`): plain rolls, rolls made with a sheet (a row with a `who`), and
the rolls of a batch's run among the changes it held (dropped from the run's row, its changes kept: undo may need
them). A trim walks the rolls' index oldest first from where the last one stopped (meta `trimmed`), so no row is
looked at twice: a roll costs the same past the cap as before it (tests/test_retention.py counts the steps).
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from crux_cli.core.compact_json import compact as dumps

if TYPE_CHECKING:
    from crux_cli.state.db import Store


def trim(store: Store, keep: int) -> int:
    """Drop the oldest rolls while at least `keep` stay (a row of a batch's chunk goes whole, so up to one chunk
    more may stay); changes are never dropped here. How many rows went or lost their rolls.

    Only what may be dropped is counted (meta `rolls`): plain rolls, rolls made with a sheet (a `who`), and
    the rolls of a batch's run among the changes it held, which are dropped from the run's row while its
    changes stay (`roll_items`). The rows are walked oldest first from where the last trim stopped (meta
    `trimmed`, through the rolls' index): no row is looked at twice, so a roll costs the same past the cap
    as before it (tests/test_retention.py counts the steps)."""
    with store.transaction() as db:
        held = int(db.execute("SELECT value FROM meta WHERE key = 'rolls'").fetchone()[0])
        if held <= keep:
            return 0
        mark = db.execute("SELECT value FROM meta WHERE key = 'trimmed'").fetchone()
        after = int(mark[0]) if mark else 0
        dropped = 0
        while held > keep:
            rows = db.execute("SELECT seq, count, who, body FROM entries WHERE kind = 'roll' AND seq > ? "
                              "ORDER BY seq LIMIT 200", (after,)).fetchall()
            if not rows:
                break
            held, after, done, full = drop_oldest(db, rows, held, keep, after)
            dropped += done
            if full:
                break
        if dropped:  # the sums `crux log --stats` kept of the blocks and runs of rows changed here (state.history)
            db.execute("DELETE FROM meta WHERE key >= 'tally:' AND key < ?", (f"tally:{after + 1:012d}",))
            db.execute("DELETE FROM meta WHERE key >= 'outcome:' AND key < ?", (f"outcome:{after + 1:012d}",))
        top = db.execute("SELECT max(seq) FROM entries").fetchone()[0] or 0
        db.execute("INSERT OR REPLACE INTO meta VALUES ('trimmed', ?)", (str(min(after, top)),))
        db.execute("UPDATE meta SET value = ? WHERE key = 'rolls'", (str(held),))
    return dropped


def drop_oldest(db: sqlite3.Connection, rows: list[tuple[int, int, str | None, str]], held: int, keep: int,
                after: int) -> tuple[int, int, int, bool]:
    """Drop what may go of `rows` (oldest first) while `keep` rolls stay: the rolls held then, the last row
    passed, how many rows went or lost their rolls, and whether the cap was reached."""
    gone, stripped, full = [], [], False
    for seq, count, who, body in rows:
        rolls, kept = (count, None) if who is None else roll_items(count, body)
        if held - rolls < keep:
            full = True
            break
        if kept is None:
            gone.append((seq,))
        elif rolls:
            stripped.append((kept, seq))
        held -= rolls
        after = seq
    db.executemany("DELETE FROM entries WHERE seq = ?", gone)
    db.executemany("UPDATE entries SET body = ? WHERE seq = ?", stripped)
    return held, after, len(gone) + len(stripped), full


def roll_items(count: int, body: str) -> tuple[int, str | None]:
    """A row of rolls that says who (`Store.trim`): how many of its rolls may be dropped, and what stays of it
    (None: nothing, the row goes). A roll made with a sheet goes whole; the run of a batch that held changes
    among its rolls keeps its changes, each roll's item replaced by 0 so the changes keep their ids (a run's
    entries are numbered by their place); a row that changed a sheet stays as it is."""
    if '"items"' not in body:
        return (0, "") if '"sheets"' in body else (1, None)
    try:
        data = json.loads(body)
        items = data["items"]
    except (ValueError, TypeError, KeyError):
        return 0, ""
    if not isinstance(items, list):
        return 0, ""
    rolls = sum(1 for item in items if isinstance(item, list))
    if rolls == 0:
        return 0, ""
    data["items"] = [item if isinstance(item, dict) else 0 for item in items]
    return rolls, dumps(data, large=True)
