"""`JournalEntry`: the one value every reader of the journal takes, giving back its JSON byte for byte."""

from __future__ import annotations

import json

import pytest

from crux_cli.core.compact_json import compact
from crux_cli.core.journal_entry import FORMAT, JournalEntry
from crux_cli.state.db import ENTRY_FORMAT

HEAD = {"v": 1, "id": "s-1", "time": "2026-11-23T17:02:03.123Z", "session": "s", "kind": "change", "who": "Ann",
        "statement": "damage 5"}
SHEET = {"path": "/a.toml", "who": "Ann", "before": {"hp": 12}, "after": {"hp": 7}}


@pytest.mark.parametrize("body", [
    {"answers": [{"kind": "damage"}], "sheets": [SHEET]},  # a change on the command line
    {"replay": {"rules": "crux", "faces": [6, 1, 4]}, "sheets": [SHEET]},  # a change a batch held
    {"answers": [], "sheets": [SHEET], "fight": {"before": None, "after": {"round": 1}}, "in_fight": True,
     "countdowns": {"before": [], "after": ["torch 3"]}},  # a REPL statement
    {"undoes": "s-1", "answers": [], "sheets": []},  # an undo in the REPL
    {"sheets": [SHEET], "answers": [], "extra": [1, 2]},  # an order and a key this crux does not write
    {"fight": None, "undoes": 7, "answers": {"odd": True}, "in_fight": 1},  # shapes it does not write
    {},
])
def test_an_entry_read_gives_its_json_back_byte_for_byte(body: dict) -> None:
    data = {**HEAD, **body}
    assert compact(JournalEntry.from_json(data).json()) == compact(data)
    assert json.dumps(JournalEntry.from_json(json.loads(json.dumps(data))).json()) == json.dumps(data)


def test_an_entry_built_writes_its_keys_in_the_order_the_journal_always_wrote_them() -> None:
    entry = JournalEntry(kind="change", statement="damage 5", who="Ann", countdowns={"before": [], "after": []},
                         in_fight=True, sheets=(SHEET,), answers=(), undoes=None)
    assert list(entry.body()) == ["answers", "sheets", "in_fight", "countdowns"]
    assert list(JournalEntry(kind="undo", undoes="s-1", answers=(), sheets=()).body()) == ["undoes", "answers",
                                                                                           "sheets"]
    assert JournalEntry.from_json(entry.replace(id="s-2").json()) == entry.replace(id="s-2", order=(
        "answers", "sheets", "in_fight", "countdowns"))


def test_a_replayed_entry_gives_its_answers_last() -> None:
    read = JournalEntry.from_json({**HEAD, "replay": {"rules": "crux", "faces": []}, "sheets": [SHEET]})
    answered = read.with_answers([{"kind": "damage"}])
    assert list(answered.json())[-2:] == ["sheets", "answers"] and answered.replay is None
    assert answered.answers == ({"kind": "damage"},)
    assert list(JournalEntry(kind="roll", replay={"rules": "crux"}).with_answers([]).body()) == ["answers"]


def test_an_entry_says_which_sheets_it_touched_and_whether_a_fight_made_it() -> None:
    entry = JournalEntry.from_json({**HEAD, "sheets": [SHEET, "not a change"]})
    assert entry.touches("/a.toml") and not entry.touches("/b.toml")
    assert entry.change_of("/a.toml") == SHEET
    assert not entry.of_a_fight
    assert JournalEntry.from_json({**HEAD, "in_fight": True}).of_a_fight
    assert JournalEntry.from_json({**HEAD, "fight": None}).of_a_fight  # the key, as `"fight" in entry` asked
    assert JournalEntry.from_json({**HEAD, "in_fight": 1}).of_a_fight  # as `entry.get("in_fight")` asked


def test_the_store_writes_the_format_the_entry_reads() -> None:
    assert ENTRY_FORMAT == FORMAT == 1
