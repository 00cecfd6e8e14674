"""Reading the journal back: the entries a log asks for, through the store's indexes (PERFORMANCE.md, "The state
store's readers").

A row holds one entry, or a run of a batch's plain rolls (and the changes it held among them): `entries_of`
expands a row into its entries, only as many of its newest as a reader needs. `select_entries` serves
`crux log -n` and `/log`, `stream_entries` every reader of all history (`crux log`, `--since`, `--json`,
`--fight`, `--sheet`: printed as read), `kept_rolls` `crux log --stats` (no entry built per roll). The SQL is
the store's (state.db); a reader opens the store with state.recovery `open_store`, which settles what a kill cut
short first.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.journal_entry import FORMAT, JournalEntry
from crux_cli.state.db import WAIT

if TYPE_CHECKING:
    from crux_cli.state.db import Store

def entries_of(row: tuple[Any, ...], newest: int | None = None, changes: bool = False) -> list[JournalEntry]:
    """The journal entries of one row, oldest first (a run of plain rolls gives one per roll); with
    `newest`, only that many of its last ones (a log of the last 20 reads 20, not a chunk's 1,024); with
    `changes`, only the changes a run's row holds among its rolls (undo reads a sheet's, not the rolls)."""
    return list(each_entry_of(row, newest, changes))


def each_entry_of(row: tuple[Any, ...], newest: int | None = None, changes: bool = False) -> Iterator[JournalEntry]:
    """`entries_of` one entry at a time, as a log streams them: its first page builds the entries it shows, not
    a whole run's 1,024."""
    _, ident, stamp, session, kind, who, statement, _, count, body = shaped(row)
    data = body_of(body)
    if count == 1 and "items" not in data:
        yield JournalEntry.from_json({"v": FORMAT, "id": ident, "time": stamp, "session": session, "kind": kind,
                                      "who": who, "statement": statement, **readable(data)})
    elif isinstance(data.get("items", ()), list | tuple):
        yield from run_entries(ident, stamp, session, data, newest, changes)


def shaped(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row as crux writes it, whatever another tool left in it (as state.migrate reads an old line): text
    columns as text (a BLOB decoded, a number as its digits), `who` and `statement` text or None, `count` a
    whole number of at least one."""
    seq, ident, stamp, session, kind, who, statement, fight, count, body = row
    if (ident.__class__ is str and stamp.__class__ is str and session.__class__ is str and kind.__class__ is str
            and count.__class__ is int and count >= 1 and (who is None or who.__class__ is str)
            and (statement is None or statement.__class__ is str)):
        return row  # the usual row: nothing to do
    return (seq, text(ident), text(stamp), text(session), text(kind), None if who is None else text(who),
            None if statement is None else text(statement), fight,
            count if isinstance(count, int) and 1 <= count < 1 << 32 else 1, body)


def text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def body_of(body: Any) -> dict[str, Any]:
    """A row's body as JSON: {} when it is not an object (not JSON, nested past any reason, not text)."""
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    try:
        data = json.loads(body) if isinstance(body, str) else None
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def readable(data: dict[str, Any]) -> dict[str, Any]:
    """A body with its `answers` and `sheets` as crux writes them (a list; each change with a text path and its
    values as objects): a part of another shape is left out, never a crash of a reader (state.migrate
    `well_formed` reads an old line the same way)."""
    answers, sheets = data.get("answers", []), data.get("sheets", [])
    if isinstance(answers, list) and isinstance(sheets, list) and all(
            isinstance(c, dict) and (c.get("path") is None or isinstance(c.get("path"), str))
            and isinstance(c.get("before", {}), dict) and isinstance(c.get("after", {}), dict) for c in sheets):
        return data
    out = {key: value for key, value in data.items() if key not in ("answers", "sheets")}
    if isinstance(answers, list):
        out["answers"] = answers
    if isinstance(sheets, list):
        out["sheets"] = [c for c in sheets if isinstance(c, dict) and isinstance(c.get("path"), str)
                         and isinstance(c.get("before"), dict) and isinstance(c.get("after"), dict)]
    return out


def run_entries(ident: str, stamp: str, session: str, data: dict[str, Any], newest: int | None,
                changes: bool) -> Iterator[JournalEntry]:
    """The entries of a run's row (`entries_of`): its rolls, and the changes a batch held among them."""
    prefix, _, first = str(ident).rpartition("-")
    try:
        number = int(first)
    except ValueError:
        number = 1
    usual: dict[str, Any] = {"rules": data.get("rules")}
    if data.get("seed") is not None:
        usual["seed"] = data["seed"]
    said = data.get("statements", [])
    heroes = data.get("heroes", [])
    items = data.get("items", ())
    skipped = max(0, len(items) - newest) if newest is not None and isinstance(items, list) else 0
    for offset, item in enumerate(items[skipped:] if skipped else items, start=skipped):
        if item.__class__ is dict:  # a change a batch held (state.held_journal `held_change`): an entry of its own
            held = item.get("entry")
            if isinstance(held, dict):
                yield held_entry(held, f"{prefix}-{number + offset}", session, heroes)
            continue
        if changes:
            continue
        if isinstance(item, list) and len(item) == 3 and isinstance(item[2], int) and 0 <= item[2] < len(heroes):
            which, kept, hero = item  # a roll on a sheet: its faces, and its hero's number in `heroes`
            kept = {"faces": kept, "hero": heroes[hero]}
        elif not (isinstance(item, list) and len(item) == 2):
            continue
        else:
            which, kept = item
        said_here = said[which] if isinstance(which, int) and 0 <= which < len(said) else str(which)
        yield roll_entry(f"{prefix}-{number + offset}", stamp, session, said_here, kept, usual, heroes)


def roll_entry(ident: str, stamp: str, session: str, statement: str, kept: Any, usual: dict[str, Any],
               heroes: list[Any]) -> JournalEntry:
    """One roll of a run's row: kept as what replays it, or as its answer. A run is written as soon as input
    waits or a chunk is full: its rolls share its time stamp."""
    replay: Any
    if isinstance(kept, list):
        replay = {**usual, "faces": kept}
    elif isinstance(kept, dict) and "faces" in kept and "rules" not in kept:  # a roll on a sheet, as usual
        replay = {**usual, **kept}
    elif isinstance(kept, dict) and "answer" in kept:
        return JournalEntry(kind="roll", statement=statement, id=ident, time=stamp, session=session,
                            answers=(kept["answer"],), more={"dice": kept["dice"]} if "dice" in kept else None)
    elif isinstance(kept, dict) and isinstance(kept.get("hero"), int) and 0 <= kept["hero"] < len(heroes):
        replay = {**kept, "hero": heroes[kept["hero"]]}  # a roll on a sheet, with its hero
    else:
        replay = kept
    if not isinstance(replay, dict):  # not what this crux writes: kept as it was
        return JournalEntry(kind="roll", statement=statement, id=ident, time=stamp, session=session,
                            more={"replay": replay})
    return JournalEntry(kind="roll", statement=statement, id=ident, time=stamp, session=session, replay=replay)


def held_entry(held: dict[str, Any], ident: str, session: str, heroes: list[Any]) -> JournalEntry:
    """The entry of a change kept in a run's row, as it reads kept in a row of its own."""
    entry = {"v": FORMAT, "id": ident, "time": held.get("time"), "session": session, "kind": "change",
             "who": held.get("who"), "statement": held.get("statement")}
    for key, value in held.items():
        if key in ("time", "who", "statement"):
            continue
        if key == "replay" and isinstance(value, dict) and isinstance(value.get("hero"), int) \
                and 0 <= value["hero"] < len(heroes):
            value = {**value, "hero": heroes[value["hero"]]}
        entry[key] = value
    return JournalEntry.from_json(entry)


def select_entries(store: Store, *, session: str | None = None, since: str | None = None,
                   sheet: str | None = None, fight: bool = False, last: int | None = None) -> list[JournalEntry]:
    """The entries a log asks for, oldest first: through the indexes, reading back only as far as needed. Without
    `last`, all of them in a list: a reader of all history streams them instead (`stream_entries`)."""
    if last is None:
        return list(stream_entries(store, session=session, since=since, sheet=sheet, fight=fight))
    if sheet is not None:
        real = os.path.realpath(sheet)
        if not (session or since or fight):  # a run's row may hold many of them
            return newest_changes(store, real, last)[-last:]
        return list(deque(stream_entries(store, session=session, since=since, sheet=sheet, fight=fight), last))
    first = None
    if since is not None:  # from the first row that reaches `since` on (through the time index)
        first = store.first_row_until(since)
        if first is None:
            return []
    chunks: list[list[JournalEntry]] = []  # each row's entries (oldest first), newest row first
    held = 0
    before = None
    while last is None or held < last:
        rows = store.rows_before(before, session=session, first=first, fight=fight,
                                 limit=min(64, last - held) if last else 2000)
        if not rows:
            break
        for row in rows:
            chunk = [e for e in entries_of(row, None if last is None else last - held)
                     if since is None or e.time >= since]
            chunks.append(chunk)
            held += len(chunk)
            if last is not None and held >= last:
                break
        before = rows[-1][0]
    found = [entry for chunk in reversed(chunks) for entry in chunk]
    return found[-last:] if last else found


def stream_entries(store: Store, *, session: str | None = None, since: str | None = None,
                   sheet: str | None = None, fight: bool = False) -> Iterator[JournalEntry]:
    """Every entry a log asks for, oldest first, a page of rows at a time through the indexes (time, session,
    fight, sheet): what `crux log` prints as it reads, in a memory that does not grow with the journal."""
    if sheet is not None:
        real, after = os.path.realpath(sheet), 0
        while rows := store.sheet_rows_after(real, after):
            for row in rows:
                yield from (e for e in entries_of(row, changes=True)
                            if e.touches(real) and (session is None or e.session == session)
                            and (since is None or e.time >= since) and (not fight or e.of_a_fight))
            after = rows[-1][0]
        return
    after = 0
    if since is not None:  # from the first row that reaches `since` on (through the time index)
        first = store.first_row_until(since)
        if first is None:
            return
        after = first - 1
    size = FIRST_ROWS
    while rows := store.rows_after(after, session=session, fight=fight, limit=size):
        for row in rows:
            yield from (e for e in each_entry_of(row) if since is None or e.time >= since)
        after, size = rows[-1][0], min(4 * size, ROWS_AT_ONCE)


FIRST_ROWS, ROWS_AT_ONCE = 4, 500  # rows read at once by a reader of all history: few at first (a run's row holds
# 1,024 rolls, 20 kB: the first page of `crux log` read 500 of them, 10 MB), then pages of 500


def kept_rolls(store: Store, *, session: str | None = None,
               since: str | None = None) -> Iterator[tuple[str, Any, list[str] | None, Any]]:
    """Every roll the journal keeps, newest first, read from the rows without building an entry for each
    (`crux log --stats` counts a million):

    - a run of rolls kept as their faces, as (rule set, seed, statements, items): each item
      [statement's number, [sides, count, face…, …]] (and the hero's number, when made with one) or
      [number, {"rules", "faces", …}];
    - rolls kept whole (made with a hero, in a fight, or changing a sheet), a few thousand at a time, as
      ("", None, None, their rows' bodies): their answers, as `crux --json` prints them, hold their dice
      (running.stats reads them).
    """
    return rolls_of(store.roll_rows(session, since, changes=True))


def rolls_of(rows: Iterable[tuple[int, str]]) -> Iterator[tuple[str, Any, list[str] | None, Any]]:
    """`kept_rolls` of rows given as (count, body)."""
    from orjson import loads  # several times quicker than json at a million rolls
    whole: list[str] = []
    for count, body in rows:
        if body.__class__ is not str:  # a row another tool left (a BLOB, a number): read as text, or passed over
            body = text(body)
        if count == 1 and '"items"' not in body:
            if '"answers":[{' in body or '"answers": [{' in body:
                whole.append(body)
                if len(whole) == WHOLE_AT_ONCE:
                    yield "", None, None, whole
                    whole = []
            continue
        try:
            data = loads(body)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            yield str(data.get("rules")), data.get("seed"), list(data.get("statements") or []), data["items"]
    if whole:
        yield "", None, None, whole


# `crux log --stats` over all history (issue 38: 0.2 s at 5,000,000 entries): running.stats sums the rows a block
# of TALLY_ROWS row numbers at a time and keeps each full block's sums in `meta` (`tally:` and the block's first
# row, zero-padded, so they sort); a trim that drops or changes rows of a block forgets its sums (state.retention).


def block_rolls(store: Store, start: int, end: int) -> Iterator[tuple[str, Any, list[str] | None, Any]]:
    """`kept_rolls` of the rows numbered from `start` up to `end` (not included), through the rows' own key."""
    return rolls_of(store.db.execute("SELECT count, body FROM entries WHERE seq >= ? AND seq < ? "
                                     "AND kind IN ('roll', 'change')", (start, end)))


def plain_rows(store: Store) -> Iterator[tuple[int, str, int, str | None, str | None]]:
    """The rows of plain rolls, newest first, through their own index (the rows kept whole are not walked over to
    reach them: the outcomes of `crux log --stats` are the newest plain rolls'), as (row, id, count, the counts of
    its outcomes kept in `meta`, its body when they are not)."""
    rows = store.db.execute("SELECT e.seq, e.id, e.count, m.value, CASE WHEN m.value IS NULL THEN e.body END "
                            "FROM entries e LEFT JOIN meta m ON m.key = printf('outcome:%012d', e.seq) "
                            "WHERE e.kind = 'roll' AND (e.who IS NULL OR e.count > 1) ORDER BY e.seq DESC")
    for seq, ident, count, kept, body in rows:
        yield seq, text(ident), count if isinstance(count, int) else 1, kept, body


def row_body(store: Store, seq: int) -> str:
    """One row's body (its outcomes were kept, but of another row: read afresh)."""
    found = store.db.execute("SELECT body FROM entries WHERE seq = ?", (seq,)).fetchone()
    return text(found[0]) if found else ""


def tally_blocks(store: Store) -> tuple[int, int, dict[str, str]]:
    """The newest row's number, where the last trim stopped, and the sums kept (`tally:` keys, without it)."""
    top = store.db.execute("SELECT max(seq) FROM entries").fetchone()[0] or 0
    mark = store.db.execute("SELECT value FROM meta WHERE key = 'trimmed'").fetchone()
    kept = {str(key)[6:]: str(value) for key, value in
            store.db.execute("SELECT key, value FROM meta WHERE key >= 'tally:' AND key < 'tally;'")}
    return int(top), int(mark[0]) if mark else 0, kept


def keep_sums(store: Store, sums: dict[str, tuple[int, str]], trimmed: int) -> None:
    """Keep sums in `meta` (key: (the first row they count, their text)), unless a trim since they were read changed
    their rows; never waiting for the store (another crux writing it: they are summed again next time)."""
    if not sums:
        return
    store.db.execute("PRAGMA busy_timeout = 0")
    try:
        with store.transaction() as db:
            mark = db.execute("SELECT value FROM meta WHERE key = 'trimmed'").fetchone()
            now = int(mark[0]) if mark else 0
            db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                           [(key, value) for key, (start, value) in sums.items() if now == trimmed or start > now])
    except CruxError:
        pass
    finally:
        store.db.execute(f"PRAGMA busy_timeout = {int(WAIT * 1000) if store.waits else 0}")


WHOLE_AT_ONCE = 4096  # rows of rolls kept whole handed on together (a million are counted in C, not one by one)


def newest_changes(store: Store, real: str, reach: int) -> list[JournalEntry]:
    """At least the newest `reach` entries that changed the sheet at `real` (all there are, when fewer), oldest
    first: rows read newest first, a few at a time, since a batch's run keeps many changes in one row."""
    chunks: list[list[JournalEntry]] = []
    held, before, size = 0, None, 4
    while held < reach:
        rows = store.sheet_rows(real, size, before)
        size = min(4 * size, 256)
        if not rows:
            break
        for row in reversed(rows):
            chunk = [e for e in entries_of(row, changes=True) if e.touches(real)]
            chunks.append(chunk)
            held += len(chunk)
            if held >= reach:
                break
        before = rows[0][0]
    return [entry for chunk in reversed(chunks) for entry in chunk]


def iter_lines(entries: Iterable[JournalEntry]) -> Iterator[str]:
    """The entries as the journal holds them, one compact JSON line each (for `crux log --json`)."""
    from crux_cli.core.compact_json import compact

    for entry in entries:
        yield compact(entry.json())


def since_stamp(text: str, clock: float | None = None) -> str:
    """`--since`: '30m', '2h', '3d' ago, or a local 'YYYY-MM-DD[ HH:MM[:SS]]', as a journal time stamp."""
    clock = time.time() if clock is None else clock
    text = text.strip()
    relative = re.fullmatch(r"(\d+)\s*([smhdw])", text, re.IGNORECASE)
    if relative:
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[relative.group(2).lower()]
        seconds = clock - int(relative.group(1)) * unit
    else:
        seconds = None
        for layout in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
            with contextlib.suppress(ValueError):
                seconds = time.mktime(time.strptime(text, layout))
                break
        if seconds is None:
            raise CruxError(f"cannot read the time {text!r}", text=text, position=0,
                            hint="write 30m, 2h or 3d ago, or a date and time like 2026-11-23 20:00")
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".000Z"
