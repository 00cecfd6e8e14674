"""The values crux keeps on a sheet, and taking a sheet's change back from the journal (`crux sheet undo`).

`sheet_values` are what a change journals of a sheet (the values crux writes back), `sheet_change` what
changed between two heroes, `hero_json`/`hero_of` a whole hero as a roll on a sheet is replayed with.
`undo_sheet` finds a sheet's changes still in effect (`stacks`, over its newest entries through the
`sheet_entries` index) and sets the sheet back under its lock (`restore_sheets`, which the REPL's `undo` and
state.recovery use too), refusing a sheet changed since.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.state import store_module

if TYPE_CHECKING:
    from pathlib import Path

    from crux_cli.core.journal_entry import JournalEntry
    from crux_cli.core.ruleset import SheetHero as Hero  # a hero of any rule set that keeps a sheet
    from crux_cli.state.db import Store
    from crux_cli.state.journal import Journal


# -- sheet values -----------------------------------------------------------------------------------


def sheet_values(hero: Hero) -> dict[str, Any]:
    """The values the hero's rule set keeps on a sheet (the ones it writes back), as JSON."""
    kept: dict[str, Any] = store_module().file_for(hero.rules).kept(hero)
    return kept


def hero_json(hero: Hero) -> dict[str, Any]:
    """All of a hero, as JSON (its rule set's sheet file says): what a roll on a sheet is replayed with (`hero_of`
    reads it back)."""
    dumped: dict[str, Any] = store_module().file_for(hero.rules).dump(hero)
    return dumped


def hero_of(data: Mapping[str, Any]) -> Hero:
    """The hero `hero_json` wrote (its `path` aside)."""
    hero: Hero = store_module().file_for(data.get("rules")).load(data)
    return hero


def real_path(path: str) -> str:
    """`os.path.realpath`, remembered while the name leads to the same file (state.store `resolve_again`)."""
    try:
        real: Path = store_module().resolve_again(path)  # no `import` statement: a batch asks at every change
        return os.fspath(real)
    except SheetError:
        return os.path.realpath(path)


def sheet_change(path: str, before: Hero, after: Hero) -> dict[str, Any] | None:
    """What changed on the sheet at `path`: the changed values before and after (None when nothing did)."""
    if before is after:  # the usual statement on a sheet: the hero it was given, unchanged
        return None
    old, new = sheet_values(before), sheet_values(after)
    return change_between(real_path(path), after.name, old, new) if old != new else None


def change_between(real: str, who: str | None, old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The journal's change of a sheet from the values it kept, `old`, to `new`: the changed ones, before and after."""
    changed = [name for name, value in old.items() if value != new[name]]
    return {"path": real, "who": who, "before": {name: old[name] for name in changed},
            "after": {name: new[name] for name in changed}}


def change_of_values(real: str, who: str | None, old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """`sheet_change` of the values a sheet keeps, `old` and `new` (changed), announced for its held write
    (state.journal `change_of`). They are one pair of objects for each pair of heroes (running.sheet_roll
    `kept_values`), so a change met again (Grit 2, 3, 2, 3) is the same change: made once, and only ever read."""
    made = CHANGES.get((id(old), id(new)))
    if made is not None and made[0] is old and made[1] is new and made[2] == real and made[3] == who:
        return made[4]
    change = change_between(real, who, old, new)
    if len(CHANGES) >= KEPT_CHANGES:
        CHANGES.clear()
    CHANGES[id(old), id(new)] = (old, new, real, who, change)  # its values kept alive with it: their ids stay theirs
    return change


# the changes made (`change_of_values`), by the ids of the values before and after: those values, the sheet's real
# path, its hero's name and the change
CHANGES: dict[tuple[int, int], tuple[Mapping[str, Any], Mapping[str, Any], str, str | None, dict[str, Any]]] = {}
KEPT_CHANGES = 256


# -- undo and redo from the journal -------------------------------------------------------------------


def stacks(entries: Iterable[JournalEntry], sheet: str) -> tuple[list[JournalEntry], list[JournalEntry]]:
    """The changes of `sheet` still in effect (oldest first) and those undone that may be redone.

    A new change empties the redo list, as in any editor.
    """
    done: list[JournalEntry] = []
    undone: list[JournalEntry] = []
    by_id: dict[str, JournalEntry] = {}
    for entry in entries:
        if not entry.touches(sheet):
            continue
        kind = entry.kind
        target = by_id.get(str(entry.undoes))
        if kind == "undo" and target is not None:
            done = [e for e in done if e is not target]
            undone.append(target)
        elif kind == "redo" and target is not None:
            undone = [e for e in undone if e is not target]
            done.append(target)
        elif kind == "change":
            by_id[entry.id] = entry
            done.append(entry)
            undone = []
    return done, undone


def undo_sheet(journal: Journal, path: str, redo: bool = False) -> tuple[JournalEntry, JournalEntry]:
    """Take back (or redo) the last change of one sheet, under its lock; the journal says so.

    Returns the change taken back and the new journal entry. Refused when the sheet no
    longer holds what that change wrote (someone changed it since), and when the change was a
    fight word of a fight still kept (running in a REPL, or left to resume): only that session's
    `undo` takes back the word whole, sheets and ledger together.
    """
    real = os.path.realpath(os.path.expanduser(path))
    store = journal.connected()
    if store is None:
        raise unreadable(journal, path, "redo" if redo else "undo")
    journal.flush()
    from crux_cli.core.journal_entry import JournalEntry  # not on a roll's path, which reads sheet values alone
    from crux_cli.state.history import newest_changes

    for reach in (*FIRST_REACHES, UNDO_REACH):  # the newest few decide it alone, else a few more, up to the reach
        entries = newest_changes(store, real, reach)
        if reach == UNDO_REACH or settled_within(entries, real, redo):
            break
    done, undone = stacks(entries, real)
    pending = undone if redo else done
    word = "redo" if redo else "undo"
    if not pending:
        raise CruxError(f"nothing to {word} for {path}",
                        hint="the journal holds no change of this sheet" + (" undone since its last change"
                                                                            if redo else ""))
    target = pending[-1]
    refuse_fight_word(store, target, path)
    change = target.change_of(real)
    expected, wanted = (change["before"], change["after"]) if redo else (change["after"], change["before"])
    entry = JournalEntry(kind=word, who=change.get("who"), statement=target.statement, undoes=target.id, answers=(),
                         sheets=({**change, "before": expected, "after": wanted},))
    return target, set_back(journal, store, entry, path, str(target.statement or ""))


def set_back(journal: Journal, store: Store, entry: JournalEntry, path: str, statement: str) -> JournalEntry:
    """Make an undo's (or redo's) write and journal it: announced first (`announced`), its entry and the intent
    it settles committed together; the entry as written."""
    change = (entry.sheets or ())[0]
    intent = announced(journal, store, entry)  # refused here, the sheet untouched, when the store is busy
    try:
        restore_sheets([(path, change["before"], change["after"])], statement)
    except BaseException:
        with contextlib.suppress(CruxError, sqlite3.Error):
            store.finish_intent(intent)
        raise
    with store.transaction():
        store.finish_intent(intent)
        written = journal.append(entry)
        if journal.warned:  # not written: the intent stays, and the next start journals the undo (state.recovery)
            raise CruxError(f"{path}: the {entry.kind} is made, and journaled at crux's next start",
                            hint="; ".join(journal.take_warnings()))
    return written


def announced(journal: Journal, store: Store, entry: JournalEntry) -> int:
    """An undo's write announced to the journal (as a one-shot's, state.journal `note_write`) before the sheet is
    touched: a store held by another crux, or one that cannot be written, refuses the undo here, never after the
    sheet was set back with nothing journaled (issue 37)."""
    body = {key: value for key, value in entry.json().items() if key not in ("id", "time", "session")}
    try:
        return store.intend(journal.session, "sheet", {"entry": body, "pid": os.getpid(), "at": time.time()})
    except (CruxError, sqlite3.Error, ValueError) as error:
        reason = error.message if isinstance(error, CruxError) else str(error)
        raise CruxError(f"cannot {entry.kind} now: {reason}", hint="the sheet is left as it is; try again once "
                        "the store is free") from None


def unreadable(journal: Journal, path: str, word: str) -> CruxError:
    """The refusal when the journal cannot be read: off, or a store that could not be opened (held by another
    crux, damaged, made by a newer one), said as it is, never "nothing to undo"."""
    if journal.mode == "off":
        return CruxError(f"nothing to {word} for {path}", hint="the journal is off")
    why = "; ".join(journal.take_warnings()) or "the journal cannot be read"
    return CruxError(f"cannot {word} {path} now: {why.removeprefix('the journal is not kept: ')}",
                     hint="try again once the store is free")


UNDO_REACH = 1_000  # the newest entries of a sheet `crux sheet undo` reads: it goes back that many changes
FIRST_REACHES = 16, 64, 256  # read first: they decide what undo takes back, unless one takes back an older change


def settled_within(entries: list[JournalEntry], sheet: str, redo: bool) -> bool:
    """Do the newest `entries` of a sheet decide what undo (redo) takes back as its newest UNDO_REACH would? (Issue
    38: reading a thousand, 50 ms, cost `crux sheet undo` more than the rest of it.) They do when each undo and redo
    among them takes back a change among them (so no older entry touches what they decide) and a change among them
    is still in effect (for redo: any change, which empties the redo list before it)."""
    touching = [entry for entry in entries if entry.touches(sheet)]
    changes = {entry.id for entry in touching if entry.kind == "change"}
    if any(entry.kind in ("undo", "redo") and str(entry.undoes) not in changes for entry in touching):
        return False
    return bool(changes) if redo else bool(stacks(touching, sheet)[0])


def refuse_fight_word(store: Store, target: JournalEntry, path: str) -> None:
    """A fight word's change belongs to its fight while the fight is kept: undo it in that session."""
    if not target.has("fight"):
        return
    session = str(target.session)
    from crux_cli.state.sessions import is_alive

    running = is_alive(store.path.parent, session)
    kept = any(s == session for s, _, _ in store.fights())
    if running or kept:
        where = "running in REPL session " + session if running else f"left by REPL session {session} to resume"
        raise CruxError(f"`{target.statement}` changed {path} in a fight {where}",
                        hint="take it back there with `undo` (sheets and fight together); "
                             "crux sheet undo leaves it as it is")


def restore_sheets(changes: list[tuple[str, dict[str, Any], dict[str, Any]]], statement: str = "",
                   given: Mapping[str, str] | None = None) -> None:
    """Set each sheet's values from `expected` to `wanted`, all or none.

    Every sheet is locked (in one order, so two undos never wait on each other) and
    checked before any is written: a sheet that no longer holds `expected` refuses the lot, named as the
    user gave it (`given`: a sheet's path -> as typed, `wren.toml`).
    """
    from crux_cli.state.sheet import parse_sheet, update_sheet_text, with_kept
    from crux_cli.state.store import locked, read_text, resolve, write_atomically

    ordered = sorted(changes, key=lambda change: str(resolve(change[0])))
    with contextlib.ExitStack() as stack:
        plans = []
        for shown, expected, wanted in ordered:
            real = resolve(shown)
            stack.enter_context(locked(real, shown))
            text = read_text(real, shown)
            hero = parse_sheet(text, shown)
            differs = describe_difference(sheet_values(hero), expected)
            if differs:
                since = f" `{statement}`" if statement else ""
                raise SheetError(f"changed since{since}: {differs}", path=(given or {}).get(shown, shown),
                                 hint="another crux, or an edit, changed it after that; crux leaves it as it is")
            plans.append((real, shown, text, hero, with_kept(hero, hero_values(wanted))))
        for real, shown, text, hero, after in plans:
            new_text = update_sheet_text(text, hero, after)
            parse_sheet(new_text, shown)
            if new_text != text:
                write_atomically(real, new_text, shown)


def hero_values(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: tuple(value) if isinstance(value, list) else value for name, value in values.items()}


def describe_difference(current: Mapping[str, Any], expected: Mapping[str, Any]) -> str:
    """'HP is 9, not 7' for each value that is not what the journal says it should be ('' when all are)."""
    words = []
    for name, value in expected.items():
        if current.get(name) != value:
            label = {"hp": "HP", "hit_dice": "Hit Dice"}.get(name, name.replace("_", " ").capitalize())
            words.append(f"{label} is {shown_value(current.get(name))}, not {shown_value(value)}")
    return "; ".join(words)


def shown_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(value) + "]" if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
