"""One entry of the journal, as every reader of it takes it: `JournalEntry`, a value with named fields.

The journal (state.journal writes it, state.history reads it back) keeps an entry as JSON; `crux log
--json` prints that JSON, one line an entry (format 1, crux(1) JOURNAL):

    {"v": 1, "id": "SESSION-N", "time": "2026-11-23T17:02:03.123Z", "session": "SESSION",
     "kind": "roll" | "change" | "undo" | "redo", "who": "Ann", "statement": "damage 5",
     "undoes": "SESSION-N",                          # undo and redo only
     "answers": [ANSWER, ...],                       # as `crux --json` prints them
     "sheets": [{"path": P, "who": "Ann", "before": {"hp": 12}, "after": {"hp": 7}}],
     "fight": {"before": LEDGER | null, "after": LEDGER | null},   # when the ledger changed
     "in_fight": true,                               # a statement made during a fight
     "countdowns": {"before": [...], "after": [...]}}               # when they changed

A plain roll kept as what reproduces it has `replay` (its rule set, seed and faces) in place of `answers`
until running.replay rolls it again; the answers then come last, as they always have in `crux log --json`.
`json()` gives the entry's JSON back byte for byte: an entry read from the store keeps the order its keys
were written in (`order`) and any key this crux does not name (`more`).

Here in core, below render, so that the renderers (render.log) and every layer above take the one type.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from crux_cli.core.record import Record

FORMAT = 1  # the "v" of an entry
HEAD = ("v", "id", "time", "session", "kind", "who", "statement")  # every entry's first keys, in this order
NAMED = ("undoes", "answers", "replay", "sheets", "fight", "in_fight", "countdowns")  # then these, when present
LISTS = ("answers", "sheets")  # named fields kept as tuples, lists in JSON
_HEAD = frozenset(HEAD)
_TYPES: dict[str, type] = {"undoes": str, "answers": list, "replay": dict, "sheets": list, "fight": dict,
                           "countdowns": dict}  # what a named field's JSON is (`in_fight`: true)
_named_values = attrgetter(*NAMED)  # the named fields' values, in one call (`keys`: a log reads thousands)


class JournalEntry(Record):
    """A roll, a change, or an undo or redo of one, as the journal keeps it. A field that is None (or
    `in_fight` false) is not in the entry's JSON, unless the entry was read with that key (`order`)."""

    kind: str  # roll, change, undo, redo
    statement: str | None = None
    who: str | None = None  # who rolled, or whose sheet or combatant changed
    id: str = ""  # "SESSION-N", given when the journal writes it
    time: str = ""  # "2026-11-23T17:02:03.123Z"
    session: str = ""
    undoes: str | None = None  # undo and redo: the id of the entry taken back or made again
    answers: tuple[Any, ...] | None = None  # each answer's JSON, as `crux --json` prints it
    replay: Mapping[str, Any] | None = None  # what rolls it again (rules, seed, faces, hero…), in place of answers
    sheets: tuple[Mapping[str, Any], ...] | None = None  # each sheet changed: path, who, before, after
    fight: Mapping[str, Any] | None = None  # the fight's ledger, before and after, when it changed
    in_fight: bool = False  # made during a fight (`crux log --fight`)
    countdowns: Mapping[str, Any] | None = None  # the countdowns before and after, when they changed
    more: Mapping[str, Any] | None = None  # keys this crux does not name, kept as they were read
    order: tuple[str, ...] = ()  # the keys after the head, in the order read (empty: NAMED's, those present)
    v: int = FORMAT

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JournalEntry:
        """The entry a JSON object of the journal holds (as `json()` gives it, or a row's body with its columns)."""
        named: dict[str, Any] = {}
        more: dict[str, Any] = {}
        order = []
        for key, value in data.items():  # one pass: a log reads thousands of entries
            if key in _HEAD:
                continue
            order.append(key)
            wanted = _TYPES.get(key)
            if wanted is not None and isinstance(value, wanted):
                named[key] = tuple(data[key]) if wanted is list else value
            elif key == "in_fight" and value is True:
                named[key] = True
            else:  # a key this crux does not name, or a value of a shape it does not write: kept as it was
                more[key] = value
        return cls(kind=str(data.get("kind", "")), statement=data.get("statement"), who=data.get("who"),
                   id=data.get("id", ""), time=data.get("time", ""), session=data.get("session", ""),
                   more=more or None, order=tuple(order), v=data.get("v", FORMAT), **named)

    def json(self) -> dict[str, Any]:
        """The entry as `crux log --json` prints it (and the journal keeps it, `body` aside)."""
        out: dict[str, Any] = {"v": self.v, "id": self.id, "time": self.time, "session": self.session,
                               "kind": self.kind, "who": self.who, "statement": self.statement}
        out.update(self.body())
        return out

    def body(self) -> dict[str, Any]:
        """The keys after the head, in their order: what the store keeps beside its columns."""
        more = self.more or {}
        out: dict[str, Any] = {}
        for key in self.order or self.keys():
            if key in more:
                out[key] = more[key]
            elif key in LISTS:
                value = getattr(self, key)
                out[key] = list(value) if value is not None else None
            elif key in NAMED:
                out[key] = getattr(self, key)
        return out

    def keys(self) -> tuple[str, ...]:
        """The keys after the head in the entry's JSON, in their order."""
        if self.order:
            return self.order
        present = tuple(key for key, value in zip(NAMED, _named_values(self), strict=True)
                        if value is not None and value is not False)
        return (*present, *self.more) if self.more else present

    def has(self, key: str) -> bool:
        """Is `key` in the entry's JSON?"""
        return key in self.keys()

    def with_answers(self, answers: list[Any]) -> JournalEntry:
        """A replayed entry's answers, in place of its replay: they come last in its JSON, as they always did."""
        order = (*(key for key in self.keys() if key != "replay" and key != "answers"), "answers")
        return self.replace(answers=tuple(answers), replay=None, order=order)

    def touches(self, sheet: str) -> bool:
        """Did the entry change the sheet at `sheet` (a real path)?"""
        return any(isinstance(change, Mapping) and change.get("path") == sheet for change in self.sheets or ())

    def change_of(self, sheet: str) -> Mapping[str, Any]:
        """What the entry changed on the sheet at `sheet` (a real path): path, who, before, after."""
        return next(change for change in self.sheets or () if change.get("path") == sheet)

    @property
    def of_a_fight(self) -> bool:
        """A fight's word or a roll in a fight (`crux log --fight`)."""
        return self.in_fight or self.has("fight") or bool((self.more or {}).get("in_fight"))
