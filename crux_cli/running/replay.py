"""Plain rolls given back from what the journal keeps of them: the statement, its rule set and the faces.

A batch of a million rolls is journaled as what reproduces each answer (state.journal), not as the
answer itself. `with_answers` rolls each such statement again with a scripted source that draws the
kept faces in order, which gives the very answer that was printed (the rule engines draw every die
through one roller, and are pure).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.render.jsonl import record
from crux_cli.running.runner import Runner, SheetUpdate
from crux_cli.state.sheet_undo import hero_of

if TYPE_CHECKING:
    from crux_cli.core.journal_entry import JournalEntry


def with_answers(entries: Iterable[JournalEntry]) -> list[JournalEntry]:
    """The entries with `answers` filled in for the rolls kept as replays."""
    return list(iter_answers(entries))


def iter_answers(entries: Iterable[JournalEntry]) -> Iterator[JournalEntry]:
    """`with_answers` one entry at a time, as a log streams them."""
    runners: dict[Any, Any] = {}  # a runner for each rule set and seed met (a few: bounded all the same)
    for entry in entries:
        if len(runners) > 64:
            runners.clear()
        yield answered(entry, runners) if entry.has("replay") else entry


def answered(entry: JournalEntry, runners: dict[Any, Any]) -> JournalEntry:
    kept: Any = entry.replay if entry.replay is not None else (entry.more or {}).get("replay")
    try:
        answers = [replayed(str(entry.statement or ""), kept, runners)]
    except (CruxError, AssertionError, KeyError, TypeError, ValueError):
        answers = []  # a rule set no longer installed, or a statement it now reads otherwise
    return entry.with_answers(answers)


def replayed(statement: str, kept: dict[str, Any], runners: dict[Any, Any]) -> dict[str, Any]:
    key = (kept["rules"], kept.get("seed"))
    runner = runners.get(key)
    if runner is None:
        runner = runners[key] = Runner(rules=str(kept["rules"]), seed=kept.get("seed"))
    source = ScriptedSource(faces_of(kept.get("faces", ())))
    handler, tree = runner.read(statement)
    hero = kept.get("hero")
    if hero is None:
        return record(runner.answered(handler, tree, Roller(source), statement, kept.get("comment"), kept.get("index")))
    runner.hero = before = hero_of(hero)  # the sheet as the statement found it
    try:
        answer = runner.answered(handler, tree, Roller(source), statement, kept.get("comment"), kept.get("index"))
        after = runner.hero  # as the rule set left it (`Runner.roll`): the very hero, when nothing changed
    finally:
        runner.hero = None
    return record(answer.replace(sheet=SheetUpdate(str(hero["path"]), before, after)))


def faces_of(drawn: list[int]) -> list[int]:
    """The faces of a roll kept as runs of sides, count, face… (core.rng `Roller.drawn`), in order."""
    faces: list[int] = []
    at = 0
    while at + 1 < len(drawn):
        count = int(drawn[at + 1])
        faces += drawn[at + 2:at + 2 + count]
        at += 2 + count
    return faces
