"""What each statement at the prompt changed, for the journal, `undo`/`redo` and the fight's autosave.

Around every statement (and `/countdown`) the session takes a `Snapshot`: the fight
(an immutable value: its ledger, sheets, the heroes it holds in memory, who fell),
the session's own hero held in memory, the countdowns, and the values kept on every
sheet in play. The difference between the snapshots before and after is one journal
entry and, when anything changed, one step that `undo` takes back: sheets and fight
together, the sheets under their locks and only when they still hold what the step
wrote (state.sheet_undo.restore_sheets).

Kept apart from the fight words (the rule set's `fights`): this module sees a fight only as a
`core.ruleset.FightValue`, so the words can change freely.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record

if TYPE_CHECKING:
    from crux_cli.core.journal_entry import JournalEntry
    from crux_cli.core.ruleset import FightValue, SheetHero
    from crux_cli.repl.countdown import Countdown
    from crux_cli.repl.session import Session

UNDO_DEPTH = 200


class Snapshot(Record):
    fight: FightValue | None  # the fight, a value (None: no fight)
    hero: SheetHero | None  # the session's hero held in memory (None with a sheet, or no hero)
    countdowns: tuple[Countdown, ...]
    sheets: dict[str, dict[str, Any]]  # sheet path -> the values crux keeps on it
    party: Mapping[str, SheetHero] | None = None  # the heroes held by name across fights (None: not read yet)


def take(session: Session) -> Snapshot:
    runner = session.runner
    hero = runner.hero if runner.sheet is None else None  # a sheet's values: below
    party = session.fighting.party if session.fight is not None else session.fighting.held
    return Snapshot(session.fight, hero, tuple(session.countdowns), sheet_snapshots(sheet_paths(session)), party)


def sheet_snapshots(paths: list[str]) -> dict[str, dict[str, Any]]:
    """What crux keeps on each sheet; with none in play (a plain roll) the sheet reader is not even loaded."""
    if not paths:
        return {}
    from crux_cli.state.sheet_undo import sheet_values
    from crux_cli.state.store import load_hero

    sheets = {}
    for path in paths:
        with contextlib.suppress(CruxError):
            sheets[path] = sheet_values(load_hero(path))
    return sheets


def fight_sheets(session: Session) -> dict[str, str]:
    """The fight's heroes' sheets as real paths: path -> hero name."""
    fight = session.fight
    if fight is None:
        return {}
    return {os.path.realpath(os.path.expanduser(path)): name for name, path in fight.sheets.items()}


def sheet_paths(session: Session) -> list[str]:
    """Every sheet in play: the loaded one and the fight's heroes', as real paths."""
    paths = set(fight_sheets(session))
    if session.runner.sheet is not None:
        paths.add(os.path.realpath(session.runner.sheet))
    return sorted(paths)


def restore(session: Session, snapshot: Snapshot) -> None:
    """Put the fight, the hero held in memory and the countdowns back as `snapshot` has them."""
    session.fight = snapshot.fight
    if session.runner.sheet is None:
        session.runner.hero = snapshot.hero
    session.countdowns = list(snapshot.countdowns)
    session.fighting.held = snapshot.party


def ledger_json(snapshot: Snapshot) -> Any:
    return snapshot.fight.ledger_json() if snapshot.fight is not None else None


def sheet_changes(before: Snapshot, after: Snapshot) -> list[dict[str, Any]]:
    changes = []
    for path, old in before.sheets.items():
        new = after.sheets.get(path)
        if new is None:
            continue
        changed = [name for name in old if old[name] != new.get(name)]
        if changed:
            changes.append({"path": path, "who": None, "before": {n: old[n] for n in changed},
                            "after": {n: new[n] for n in changed}})
    return changes


class Step(Record):
    """One change at the prompt that `undo` can take back."""

    statement: str
    before: Snapshot
    after: Snapshot
    sheets: tuple[dict[str, Any], ...]
    entry_id: str | None


class Steps(Record):
    """What `undo` takes back (`done`, the newest last) and what `redo` makes again (`undone`)."""

    done: tuple[Step, ...] = ()
    undone: tuple[Step, ...] = ()

    def pushed(self, step: Step) -> Steps:
        """After a new change: it can be taken back, and nothing taken back can be made again."""
        return Steps((*self.done[-(UNDO_DEPTH - 1):], step), ())

    def last(self, redo: bool) -> Step | None:
        """The step `undo` (or `redo`) would take."""
        steps = self.undone if redo else self.done
        return steps[-1] if steps else None

    def skipped(self, redo: bool) -> Steps:
        """The step `undo` (or `redo`) would take, left out: it cannot be taken (a sheet changed since)."""
        return Steps(self.done, self.undone[:-1]) if redo else Steps(self.done[:-1], self.undone)

    def moved(self, redo: bool) -> Steps:
        """After `undo` (or `redo`) took its step: it moves to the other side."""
        if redo:
            return Steps((*self.done, self.undone[-1]), self.undone[:-1])
        return Steps(self.done[:-1], (*self.undone, self.done[-1]))


def entry_for(session: Session, statement: str, before: Snapshot, after: Snapshot, answers: list[Any],
              rolled_by: list[str] | None = None) -> tuple[JournalEntry, list[dict[str, Any]], bool]:
    """The journal entry of one statement, its sheet changes, and whether it changed anything."""
    from crux_cli.core.journal_entry import JournalEntry
    from crux_cli.render.jsonl import record

    sheets = sheet_changes(before, after)
    names = {**fight_sheets(session), **fight_sheets_of(before), **fight_sheets_of(after)}
    loaded = session.hero.name if session.hero is not None else None
    for change in sheets:
        change["who"] = names.get(change["path"], loaded)
    fight_changed = before.fight != after.fight
    heroes_changed = before.hero != after.hero
    countdowns_changed = before.countdowns != after.countdowns
    party_changed = before.party is not None and after.party is not None and before.party != after.party
    changed = bool(sheets) or fight_changed or heroes_changed or countdowns_changed or party_changed
    countdowns = {"before": [str(c) for c in before.countdowns], "after": [str(c) for c in after.countdowns]}
    held = held_changes(session, before, after)  # in the journal's brackets too, but no sheet for undo
    whose = who(session, before, after, sheets, rolled_by or [], statement)
    entry = JournalEntry(kind="change" if changed else "roll", who=whose,
                         statement=statement, answers=tuple(safe_record(record, a) for a in answers),
                         sheets=(*sheets, *held) or None,
                         fight=ledger_change(ledger_json(before), ledger_json(after)) if fight_changed else None,
                         in_fight=before.fight is not None or after.fight is not None,
                         countdowns=countdowns if countdowns_changed else None)
    dice = [list(a.drawn or a.dice) for a in answers if getattr(a, "drawn", None) or getattr(a, "dice", None)]
    if dice:  # each answer's faces, what a verifier re-derives from the seed (crux-verify(7))
        entry = entry.replace(more={"dice": dice}, order=(*entry.keys(), "dice"))
    return entry, sheets, changed


def held_changes(session: Session, before: Snapshot, after: Snapshot) -> list[dict[str, Any]]:
    """What a word changed of the heroes a fight holds by name (no sheet), as a sheet's change is written
    (`path` None): the values their rule set's sheet file keeps, before and after."""
    old: Mapping[str, SheetHero] = getattr(before.fight, "heroes", None) or {}
    new: Mapping[str, SheetHero] = getattr(after.fight, "heroes", None) or {}
    changed = [name for name in new if name in old and old[name] != new[name]]
    if not changed:
        return []
    sheet = session.runner.rules.sheet
    if sheet is None or sheet.file is None:
        return []
    file = sheet.file()
    out = []
    for name in changed:
        was, now = file.kept(old[name]), file.kept(new[name])
        moved = [key for key in now if was.get(key) != now[key]]
        if moved:
            out.append({"path": None, "who": name, "before": {k: was.get(k) for k in moved},
                        "after": {k: now[k] for k in moved}})
    return out


def ledger_change(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """What a fight word changed in the ledger: the fields that differ and, of the combatants, only those
    that changed (by name), before and after; a whole ledger only when the fight began or ended. A word
    of a long fight journals a few hundred bytes, not the ledger's 7 KB."""
    if before is None or after is None:
        return {"before": before, "after": after}
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    for key in [*before, *(k for k in after if k not in before)]:
        if key == "combatants":
            was = {c.get("name"): c for c in before.get(key) or []}
            now = {c.get("name"): c for c in after.get(key) or []}
            names = [n for n in [*was, *(n for n in now if n not in was)] if was.get(n) != now.get(n)]
            if names:
                old[key] = [was[n] for n in names if n in was]
                new[key] = [now[n] for n in names if n in now]
        elif before.get(key) != after.get(key):
            old[key], new[key] = before.get(key), after.get(key)
    return {"before": old, "after": new}


def fight_sheets_of(snapshot: Snapshot) -> dict[str, str]:
    fight = snapshot.fight
    if fight is None:
        return {}
    return {os.path.realpath(os.path.expanduser(path)): name for name, path in fight.sheets.items()}


def safe_record(record: Any, answer: Any) -> Any:
    try:
        return record(answer)
    except Exception:  # an answer a rule set cannot put in JSON still leaves its words in the journal
        return {"input": getattr(answer, "input", "")}


def named_first(changed: list[str], statement: str) -> list[str]:
    """The combatants a word changed, the one its line names first leading (`react Bram help Wren`: Bram, the
    reactor, though Wren comes first in the ledger); the order kept when it names none of them twice."""
    words = [w.casefold().strip("\"'") for w in statement.split()[1:]]

    def first(name: str) -> int:
        parts = name.casefold().split()
        return next((i for i, w in enumerate(words) if w and any(p.startswith(w) for p in parts)), len(words))

    return sorted(changed, key=first) if len(changed) > 1 else changed


def who(session: Session, before: Snapshot, after: Snapshot, sheets: list[dict[str, Any]],
        rolled_by: list[str], statement: str = "") -> str | None:
    """Whose statement: a shared table's player who said it, else who rolled first (a fight says), else the hero
    whose sheet changed, else the combatant the fight word changed, else the one whose turn it is, else the loaded
    hero."""
    if session.speaker is not None:
        return session.speaker
    if rolled_by:
        return rolled_by[0]
    if sheets:
        return str(sheets[0]["who"]) if sheets[0]["who"] is not None else None
    changed = named_first(changed_combatants(before, after), statement)
    if changed:
        return changed[0]
    active = active_name(after) or active_name(before)
    if active is not None:
        return active
    return session.hero.name if session.hero is not None else None


def changed_combatants(before: Snapshot, after: Snapshot) -> list[str]:
    """Combatants the fight word added, took away or changed (in the ledger's order); the one whose turn
    it now is, when the word changed several (`next`, an area attack)."""
    old, new = ledger_json(before), ledger_json(after)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []
    was = {c.get("name"): c for c in old.get("combatants", [])}
    now = {c.get("name"): c for c in new.get("combatants", [])}
    changed = [str(name) for name in [*now, *(n for n in was if n not in now)] if was.get(name) != now.get(name)]
    active = active_name(after)
    if len(changed) > 1 and active in changed:
        return [active, *(name for name in changed if name != active)]
    return changed


def active_name(snapshot: Snapshot) -> str | None:
    return snapshot.fight.acting() if snapshot.fight is not None else None
