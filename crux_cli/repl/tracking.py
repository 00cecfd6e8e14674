"""What each statement at the prompt changed, for the journal, `undo`/`redo` and the fight's autosave.

Around every statement (and `/countdown`) the session takes a `Snapshot`: the fight
(its ledger, heroes and runners, as plain copies), the hero held in memory, the
countdowns, and the values kept on every sheet in play. The difference between the
snapshots before and after is one journal entry and, when anything changed, one step
that `undo` takes back: sheets and ledger together, the sheets under their locks and
only when they still hold what the step wrote (state.journal.restore_sheets).

Kept apart from the fight words (the rule set's `fights` module): this module sees a fight only through
its attributes `encounter`, `runners` and `sheets`, so the words can change freely.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError

if TYPE_CHECKING:
    from crux_cli.repl.session import Session

UNDO_DEPTH = 200


@dataclasses.dataclass
class Snapshot:
    fight: Any  # the Fight object, or None
    fight_state: dict[str, Any] | None  # a copy of the fight's attributes
    heroes: dict[str, Any]  # heroes held in memory, not on a sheet: "" for the session's, names for a fight's
    countdowns: tuple[Any, ...]
    sheets: dict[str, dict[str, Any]]  # sheet path -> the values crux keeps on it


def copied(value: Any) -> Any:
    return type(value)(value) if isinstance(value, (dict, list, set)) else value


def take(session: Session) -> Snapshot:
    fight = session.fight
    state = None if fight is None else {k: copied(v) for k, v in vars(fight).items() if k != "session"}
    runners = {"": session.runner, **fight_runners(session)}
    heroes = {name: r.hero for name, r in runners.items() if getattr(r, "sheet", None) is None}  # sheets: below
    return Snapshot(fight, state, heroes, tuple(session.countdowns), sheet_snapshots(sheet_paths(session)))


def sheet_snapshots(paths: list[str]) -> dict[str, dict[str, Any]]:
    """What crux keeps on each sheet; with none in play (a plain roll) the sheet reader is not even loaded."""
    if not paths:
        return {}
    from crux_cli.state.journal import sheet_values
    from crux_cli.state.store import load_hero

    sheets = {}
    for path in paths:
        with contextlib.suppress(CruxError):
            sheets[path] = sheet_values(load_hero(path))
    return sheets


def fight_runners(session: Session) -> dict[str, Any]:
    return dict(getattr(session.fight, "runners", {}) or {})


def sheet_paths(session: Session) -> list[str]:
    """Every sheet in play: the loaded one and the fight's heroes', as real paths."""
    runners = [session.runner, *fight_runners(session).values()]
    paths = {os.path.realpath(r.sheet) for r in runners if getattr(r, "sheet", None)}
    return sorted(paths)


def restore(session: Session, snapshot: Snapshot) -> None:
    """Put the fight, the heroes held in memory and the countdowns back as `snapshot` has them."""
    session.fight = snapshot.fight
    if snapshot.fight is not None and snapshot.fight_state is not None:
        for key, value in snapshot.fight_state.items():
            setattr(snapshot.fight, key, copied(value))
    runners = fight_runners(session)
    for name, hero in snapshot.heroes.items():
        runner = session.runner if name == "" else runners.get(name)
        if runner is not None:
            runner.hero = hero
    session.countdowns = list(snapshot.countdowns)


def fight_key(snapshot: Snapshot) -> Any:
    state = snapshot.fight_state or {}
    return (id(snapshot.fight) if snapshot.fight is not None else None, state.get("encounter"),
            tuple(state.get("runners", {})), tuple(sorted((state.get("sheets") or {}).items())))


def ledger_json(snapshot: Snapshot) -> Any:
    encounter = (snapshot.fight_state or {}).get("encounter")
    if encounter is None or not dataclasses.is_dataclass(encounter) or isinstance(encounter, type):
        return None
    return dataclasses.asdict(encounter)


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


@dataclasses.dataclass
class Step:
    """One change at the prompt that `undo` can take back."""

    statement: str
    before: Snapshot
    after: Snapshot
    sheets: list[dict[str, Any]]
    entry_id: str | None


@dataclasses.dataclass
class Steps:
    done: list[Step] = dataclasses.field(default_factory=list)
    undone: list[Step] = dataclasses.field(default_factory=list)

    def push(self, step: Step) -> None:
        self.done = [*self.done[-(UNDO_DEPTH - 1):], step]
        self.undone = []


def entry_for(session: Session, statement: str, before: Snapshot, after: Snapshot,
              answers: list[Any]) -> tuple[dict[str, Any], list[dict[str, Any]], bool]:
    """The journal entry of one statement, its sheet changes, and whether it changed anything."""
    from crux_cli.render.jsonl import record

    sheets = sheet_changes(before, after)
    names = {os.path.realpath(getattr(r, "sheet", "") or ""): n for n, r in fight_runners(session).items()}
    loaded = session.hero.name if session.hero is not None else None
    for change in sheets:
        change["who"] = names.get(change["path"], loaded)
    fight_changed = fight_key(before) != fight_key(after)
    heroes_changed = before.heroes != after.heroes
    countdowns_changed = before.countdowns != after.countdowns
    changed = bool(sheets) or fight_changed or heroes_changed or countdowns_changed
    entry: dict[str, Any] = {"kind": "change" if changed else "roll", "who": who(session, before, sheets),
                             "statement": statement, "answers": [safe_record(record, a) for a in answers]}
    if sheets:
        entry["sheets"] = sheets
    if fight_changed:
        entry["fight"] = {"before": ledger_json(before), "after": ledger_json(after)}
    if before.fight is not None or after.fight is not None:
        entry["in_fight"] = True
    if countdowns_changed:
        entry["countdowns"] = {"before": [str(c) for c in before.countdowns],
                               "after": [str(c) for c in after.countdowns]}
    return entry, sheets, changed


def safe_record(record: Any, answer: Any) -> Any:
    try:
        return record(answer)
    except Exception:  # an answer a rule set cannot put in JSON still leaves its words in the journal
        return {"input": getattr(answer, "input", "")}


def who(session: Session, before: Snapshot, sheets: list[dict[str, Any]]) -> str | None:
    """Whose statement: the fighter whose turn it was, else the hero whose sheet changed, else the loaded one."""
    encounter = (before.fight_state or {}).get("encounter")
    active = encounter.active() if encounter is not None and hasattr(encounter, "active") else None
    if active is not None:
        return str(active.name)
    if sheets:
        return sheets[0]["who"]
    return session.hero.name if session.hero is not None else None
