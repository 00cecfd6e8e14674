"""A session's verifiable record (`crux log --export`) and its check (`crux log --verify`), as crux-verify(7) says.

The record is JSON Lines: a `commit` line (SHA-256 of the secret seed) before the first roll of each generator,
every entry of the session in the journal's order with its dice, a `salt` line where a player's salt re-keys the
dice, and a `reveal` line (the seed) once the generator's run has ended. Each line carries `prev`, the `chain` of
the line before it (64 zeros for the first), and `chain`, SHA-256 of the line's canonical JSON without `chain`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.core.rng import GENERATOR, DiceStream, sha256

ZERO = "0" * 64
CHANGES = ("change", "undo", "redo")


def canonical(line: dict[str, Any]) -> bytes:
    """The bytes a line's chain hashes: sorted keys, no spaces, UTF-8."""
    return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chained(lines: Iterable[dict[str, Any]]) -> Iterator[str]:
    """Each line with its `prev` and `chain`, as the record's text."""
    prev = ZERO
    for line in lines:
        line = {**line, "prev": prev}
        prev = line["chain"] = sha256(canonical(line)).hex()
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def pairs(drawn: Any) -> list[list[int]]:
    """[sides, face] for each die of a roll kept as runs of sides, count, face… (core.rng `Roller.drawn`)."""
    out: list[list[int]] = []
    at = 0
    while at + 1 < len(drawn):
        sides, count = int(drawn[at]), int(drawn[at + 1])
        out += [[sides, int(face)] for face in drawn[at + 2:at + 2 + count]]
        at += 2 + count
    return out


def dice_of(entry: JournalEntry) -> list[list[list[int]]]:
    """The dice an entry rolled, one list a stream (a statement), each die [sides, face]."""
    if entry.replay is not None and entry.replay.get("faces"):
        return [pairs(entry.replay["faces"])]
    kept = (entry.more or {}).get("dice") or []
    return [pairs(drawn) for drawn in kept if drawn]


def number_of(entry: JournalEntry) -> int:
    try:
        return int(entry.id.rpartition("-")[2])
    except ValueError:
        return 0


def record_lines(session: str, entries: list[JournalEntry], answered: list[JournalEntry],
                 epochs: list[dict[str, Any]], running: bool) -> list[dict[str, Any]]:
    """The record's lines, before chaining: `entries` as the journal keeps them (their dice), `answered` the same
    with their answers given back (running.replay). `running`: the session is open, so its last seed stays secret."""
    out: list[dict[str, Any]] = []
    events = sorted([(int(e["from"]), 0, "commit", e) for e in epochs]
                    + [(int(s["at"]), 1, "salt", s) for e in epochs for s in e.get("salts", [])],
                    key=lambda event: (event[0], event[1]))
    open_epoch: dict[str, Any] | None = None
    for entry, given in zip(entries, answered, strict=True):
        number = number_of(entry)
        while events and events[0][0] <= number:
            _, _, kind, value = events.pop(0)
            if kind == "commit":
                if open_epoch is not None:
                    out.append({"type": "reveal", "seed": open_epoch["seed"]})
                open_epoch = value
                out.append({"type": "commit", "session": session, "generator": GENERATOR, "commit": value["commit"]})
            else:
                out.append({"type": "salt", "salt": value["salt"], "who": value.get("who")})
        out.append(entry_line(entry, given))
    if open_epoch is not None and (open_epoch.get("ended") or not running):
        out.append({"type": "reveal", "seed": open_epoch["seed"]})
    return out


def entry_line(entry: JournalEntry, given: JournalEntry) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "entry", "id": entry.id, "kind": entry.kind, "statement": entry.statement,
                            "dice": dice_of(entry), "answers": list(given.answers or ())}
    if entry.sheets:
        line["sheets"] = list(entry.sheets)
    return line


class Checked:
    """What `verify` found: the first failing line and why, or the counts."""

    def __init__(self) -> None:
        self.failures: list[tuple[int, str]] = []
        self.rolls = 0
        self.changes = 0

    def fail(self, line: int, why: str) -> None:
        self.failures.append((line, why))

    @property
    def first(self) -> tuple[int, str] | None:
        return min(self.failures, key=lambda failure: failure[0]) if self.failures else None  # the first found there


def verify(text: Iterable[str]) -> Checked:
    """Check a record: its chain, each commitment against its revealed seed, and every die against the seed."""
    checked = Checked()
    prev, epoch, number = ZERO, None, 0
    for number, raw in enumerate(text, start=1):
        try:
            line = json.loads(raw)
            assert isinstance(line, dict)
        except (ValueError, AssertionError):
            checked.fail(number, "not a JSON object")
            return checked
        if line.get("prev") != prev:
            checked.fail(number, "its prev is not the chain of the line before: a line was removed, inserted or "
                                 "moved here")
        body = {key: value for key, value in line.items() if key != "chain"}
        if line.get("chain") != sha256(canonical(body)).hex():
            checked.fail(number, "its chain is not the hash of its content: the line was changed")
        prev = str(line.get("chain"))
        epoch = step(checked, number, line, epoch)
    if number == 0:
        checked.fail(1, "the record is empty")
    elif epoch is not None:
        checked.fail(number, f"the seed committed on line {epoch['line']} is never revealed (the session has not "
                             "ended): its dice cannot be checked yet")
    return checked


def step(checked: Checked, number: int, line: dict[str, Any], epoch: dict[str, Any] | None) -> dict[str, Any] | None:
    """One line of the record, within its generator's epoch (`epoch`: its commitment and what it drew)."""
    kind = line.get("type")
    if kind == "commit":
        if epoch is not None:
            checked.fail(number, f"a new commitment before the seed committed on line {epoch['line']} was revealed")
        if line.get("generator") != GENERATOR:
            checked.fail(number, f"generator {line.get('generator')!r} is not {GENERATOR}")
        return {"line": number, "commit": line.get("commit"), "events": []}
    if epoch is None:
        checked.fail(number, "no commitment before it: its dice were not fixed in advance")
        return None
    if kind == "salt":
        epoch["events"].append((number, "salt", line.get("salt")))
    elif kind == "entry":
        streams = line.get("dice") or []
        if streams:
            checked.rolls += 1
        elif line.get("kind") in CHANGES:
            checked.changes += 1
        epoch["events"] += [(number, "stream", stream) for stream in streams]
    elif kind == "reveal":
        reveal(checked, number, line, epoch)
        return None
    else:
        checked.fail(number, f"unknown line type {kind!r}")
    return epoch


def reveal(checked: Checked, number: int, line: dict[str, Any], epoch: dict[str, Any]) -> None:
    """The seed revealed: it must hash to the commitment, and give every die drawn under it."""
    try:
        seed = bytes.fromhex(str(line.get("seed")))
    except ValueError:
        checked.fail(number, "the revealed seed is not hex")
        return
    if sha256(seed).hex() != epoch["commit"]:
        checked.fail(number, f"the revealed seed does not hash to the commitment on line {epoch['line']}")
        return
    stream = DiceStream(seed)
    for at, kind, value in epoch["events"]:
        if kind == "salt":
            try:
                stream.salt(bytes.fromhex(str(value)))
            except ValueError:
                checked.fail(at, "the salt is not hex")
                return
            continue
        stream.begin()
        for die in value:
            sides, face = int(die[0]), int(die[1])
            if sides < 1 or stream.below(sides) + 1 != face:
                checked.fail(at, f"a d{sides} shows {face}, which is not what the seed gives there: a face was "
                                 "changed, or a roll removed, inserted or moved before it")
                return
