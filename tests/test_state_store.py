"""The state store (issue 22): one SQLite database for the journal, running fights and sheet-write intents.

What a user relies on: every answer can be read back exactly, nothing is kept when asked not to,
an old journal comes along, a damaged or locked store never stops a roll, a kill between a sheet
write and its entry is settled, readers use indexes, and crux runs where `fcntl` does not exist.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import crux_here

from crux_cli.state.db import Store, state_dir
from crux_cli.state.journal import Journal
from crux_cli.state.recovery import read_entries
from crux_cli.state.sheet_undo import sheet_values, undo_sheet
from crux_cli.state.store import load_hero

STATEMENTS = ["DEX +2b", "save WIL adv", "init ambush", "atk 2d8+3 heavy", "atk d6 rushed", "4d6kh3", "3d6!",
              "roll d12 + d4", "d100", "6x 4d6kh3", "STR -1B grit", "2d20kl1 + 3 # sneak", "{1d8, 1d10}kh1",
              "1d20+5 vs 15"]


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(path), "--name", "Ann", "--hp", "12", stdin="").returncode == 0
    return path


def exported(*args: str, env: dict[str, str] | None = None) -> list[dict]:
    result = crux_here("log", "--json", *args, env=env)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def store() -> Store:
    return Store.open(state_dir())


# -- what is kept gives every answer back --------------------------------------------------------------


@pytest.mark.parametrize("rules", ["crux", "stepdice", "d20check", "challenge"])
def test_a_batchs_rolls_read_back_as_the_very_answers_printed(rules: str) -> None:
    """Plain rolls are kept as statement and faces; the log rolls them again to the same JSON."""
    lines = "\n".join(STATEMENTS) + "\n"
    printed = crux_here("--json", "--seed", "7", "--rules", rules, "-", stdin=lines)
    answers = [json.loads(line) for line in printed.stdout.splitlines()]
    answers = [{k: v for k, v in a.items() if k != "line"} for a in answers if "error" not in a]
    kept = [a for entry in exported() for a in entry["answers"]]
    assert kept == answers and len(kept) >= 5


def test_a_batch_on_a_sheet_reads_back_as_the_very_answers_printed(sheet: Path) -> None:
    """A roll on a sheet that changes nothing is kept as its faces and its hero (once a row); a change whole."""
    lines = "\n".join([*STATEMENTS, "damage 2", "show", "1d20 + DEX", "STR +1b # again", "cond add prone",
                        "DEX -1B", "rest field 1", "4x DEX +1b", *STATEMENTS]) + "\n"
    printed = crux_here("--json", "--seed", "7", "--sheet", str(sheet), "-", stdin=lines)
    answers = [json.loads(line) for line in printed.stdout.splitlines()]
    answers = [{k: v for k, v in a.items() if k != "line"} for a in answers if "error" not in a]
    entries = exported()
    assert [a for entry in entries for a in entry["answers"]] == answers and len(answers) > 30
    assert sum(entry["kind"] == "change" for entry in entries) >= 3
    with store() as kept:
        bodies = [json.loads(body) for (body,) in kept.db.execute("SELECT body FROM entries WHERE count > 1")]
    assert any(len(body.get("heroes", ())) >= 1 for body in bodies)


def test_a_one_shot_roll_reads_back_whole_with_its_comment() -> None:
    printed = json.loads(crux_here("--json", "--seed", "3", "DEX +1b # for the door").stdout)
    (entry,) = exported()
    assert entry["answers"] == [printed] and entry["statement"] == "DEX +1b" and entry["kind"] == "roll"


def test_a_plain_roll_costs_a_few_bytes_not_its_answer() -> None:
    crux_here("--seed", "1", "-", stdin="4d6kh3\n" * 2000)
    with store() as kept:
        size = kept.db.execute("SELECT sum(length(body)) FROM entries").fetchone()[0]
    assert size < 2000 * 30  # the answers' JSON would be about 300 bytes each


# -- what is kept, and for how long ----------------------------------------------------------------------


@pytest.mark.parametrize("how", [("--no-journal",), ("env",), ("config",)])
def test_journal_off_leaves_no_trace_of_a_run(how: tuple[str, ...], tmp_path: Path, sheet: Path) -> None:
    env = {}
    args: list[str] = []
    if how == ("env",):
        env["CRUX_JOURNAL"] = "off"
    elif how == ("config",):
        config = tmp_path / "config.toml"
        config.write_text('journal = "off"\n')
        env["CRUX_CONFIG"] = str(config)
    else:
        args.append("--no-journal")
    before = set(state_dir().parent.rglob("*")) if state_dir().parent.exists() else set()
    assert crux_here(*args, "d6", env=env).returncode == 0
    assert crux_here(*args, "-", stdin="d6\nDEX\n", env=env).returncode == 0
    assert crux_here(*args, "--sheet", str(sheet), "damage 1", env=env).returncode == 0
    after = set(state_dir().parent.rglob("*")) if state_dir().parent.exists() else set()
    assert after == before  # not even the store's file was made


def test_journal_changes_keeps_only_what_changed_state(tmp_path: Path, sheet: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('journal = "changes"\n')
    env = {"CRUX_CONFIG": str(config)}
    result = crux_here("--sheet", str(sheet), "-", stdin="d20\ndamage 2\n4d6kh3\n", env=env)  # DEX may earn Grit
    assert result.returncode == 0 and not result.stderr, result.stderr
    assert [e["statement"] for e in exported()] == ["damage 2"]
    assert crux_here("sheet", "undo", str(sheet), env=env).returncode == 0  # undo still works
    assert load_hero(sheet).hp == 12


def test_retention_drops_the_oldest_rolls_and_keeps_every_change(tmp_path: Path, sheet: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("journal-keep = 50\n")
    env = {"CRUX_CONFIG": str(config)}
    crux_here("--sheet", str(sheet), "damage 1", env=env)
    for start in range(4):
        crux_here("-", stdin="".join(f"d{6 + start}\n" for _ in range(40)), env=env)
    entries = exported()
    rolls = [e for e in entries if e["kind"] == "roll"]
    assert 50 <= len(rolls) <= 80  # at least the cap, at most one run more: a run's row goes whole
    assert rolls[-1]["statement"] == "d9" and rolls[0]["statement"] != "d6"  # the oldest went first
    assert [e["statement"] for e in entries if e["kind"] == "change"] == ["damage 1"]


def test_retention_keeps_the_changes_a_batch_held_among_its_rolls(tmp_path: Path, sheet: Path) -> None:
    """A run's row that holds changes (a batch on a sheet) keeps them as changes are kept; its rolls are dropped
    as any roll is, the oldest first (issue 37: the run's rolls no longer outlive every newer plain roll)."""
    config = tmp_path / "config.toml"
    config.write_text("journal-keep = 50\n")
    env = {"CRUX_CONFIG": str(config)}
    crux_here("--sheet", str(sheet), "-", stdin="damage 1\nd4\nheal 1\n", env=env)
    for start in range(4):
        crux_here("-", stdin="".join(f"d{6 + start}\n" for _ in range(40)), env=env)
    entries = exported()
    assert [e["statement"] for e in entries if e["kind"] == "change"] == ["damage 1", "heal 1"]
    held = [e for e in entries if e["kind"] == "change"]
    assert [e["statement"] for e in entries[:2]] == ["damage 1", "heal 1"] and "d4" not in {
        e["statement"] for e in entries}  # the run's roll went, the oldest of all
    assert int(held[1]["id"].rsplit("-", 1)[1]) == int(held[0]["id"].rsplit("-", 1)[1]) + 2  # ids as they were
    assert 50 <= sum(e["kind"] == "roll" for e in entries) <= 80 and entries[2]["statement"] != "d6"


def test_a_scripts_session_numbers_go_on_so_ids_never_collide() -> None:
    env = {"CRUX_SESSION": "nightly"}
    for _ in range(3):
        crux_here("-", stdin="d6\nd8\n", env=env)
    ids = [e["id"] for e in exported()]
    assert ids == [f"nightly-{n}" for n in range(1, 7)]


# -- migration, damage, locks ---------------------------------------------------------------------------


def test_an_old_journal_and_autosaved_fights_are_imported_once(tmp_path: Path) -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    good = {"v": 1, "id": "old-1", "time": "2026-11-20T20:00:00.000Z", "session": "old", "kind": "roll",
            "who": None, "statement": "d6", "answers": [{"input": "d6", "kind": "dice", "total": 4}]}
    change = {**good, "id": "old-2", "kind": "change", "statement": "damage 1",
              "sheets": [{"path": "/nowhere/ann.toml", "who": "Ann", "before": {"hp": 3}, "after": {"hp": 2}}]}
    odd = {**good, "id": 7}  # valid JSON of an unexpected shape
    (folder / "journal.jsonl").write_text("\n".join([json.dumps(good), "{torn", json.dumps(odd), json.dumps([1]),
                                                      json.dumps(change), '{"v": 1, "id": "x", "sheets": 5}']))
    (folder / "fights").mkdir()
    (folder / "fights" / "ab12.toml").write_text("# a fight\n")
    (folder / "fights" / "left-20261120-ab00.toml").write_text("# set aside by hand\n")
    entries = exported()
    assert [e["id"] for e in entries] == ["old-1", "old-2"]
    assert entries[0]["answers"] == good["answers"]
    assert not (folder / "journal.jsonl").exists() and (folder / "journal.jsonl.imported").exists()
    assert (folder / "fights.imported" / "left-20261120-ab00.toml").exists()
    with store() as kept:
        assert [name for name, _, _ in kept.fights()] == ["ab12"]
    assert [e["id"] for e in exported("--sheet", "/nowhere/ann.toml")] == ["old-2"]
    assert len(exported()) == 2  # once


def test_a_damaged_store_is_moved_aside_and_the_roll_goes_on() -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "crux.db").write_bytes(b"this is not a database, whatever it once was" * 200)
    result = crux_here("--seed", "1", "d6")
    assert result.returncode == 0 and result.stdout.startswith("d6: ")
    assert "was damaged" in result.stderr and "kept as crux.db.damaged-" in result.stderr
    assert [p.name for p in folder.glob("crux.db.damaged-*")]
    assert [e["statement"] for e in exported()] == ["d6"]  # a new store, journaling again


@pytest.mark.slow
def test_a_store_locked_by_another_crux_is_a_plain_warning_not_a_hang(tmp_path: Path) -> None:
    assert crux_here("d4").returncode == 0  # the store exists
    holder = sqlite3.connect(state_dir() / "crux.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = subprocess.run([sys.executable, "-m", "crux_cli", "d6"], capture_output=True, text=True,
                                timeout=30, env={**os.environ, "NO_COLOR": "1"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 0 and result.stdout.startswith("d6: ")
    assert "held by another crux" in result.stderr and "Traceback" not in result.stderr


def test_the_store_and_its_folder_are_private() -> None:
    crux_here("d6")
    assert (state_dir().stat().st_mode & 0o777) == 0o700
    assert (state_dir() / "crux.db").stat().st_mode & 0o777 == 0o600


# -- a sheet write and its entry never disagree ---------------------------------------------------------


def cut_short(sheet: Path, statement: str, write: bool) -> None:
    """A one-shot killed after announcing its sheet write: with the sheet written or not."""
    from crux_cli.running.modes import journaled_runner
    from crux_cli.running.settings import Settings
    from crux_cli.state import store as sheets

    runner = journaled_runner(Settings(sheet=str(sheet)))
    journal = runner.journal
    if not write:
        real = sheets.write_atomically

        def killed(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt  # the process dies before the rename

        sheets.write_atomically = killed  # type: ignore[assignment]
    journal.answered = lambda *args, **kwargs: None  # killed before the entry
    try:
        list(runner.each(statement))
    except KeyboardInterrupt:
        pass
    finally:
        if not write:
            sheets.write_atomically = real  # type: ignore[assignment]
    journal.store.close()


def test_a_sheet_write_cut_off_from_its_entry_is_journaled_by_the_next_start(sheet: Path) -> None:
    cut_short(sheet, "damage 4", write=True)
    assert load_hero(sheet).hp == 8
    (entry,) = exported()  # the next crux settles it
    assert entry["statement"] == "damage 4" and entry["sheets"][0]["after"] == {"hp": 8}
    assert crux_here("sheet", "undo", str(sheet)).returncode == 0 and load_hero(sheet).hp == 12


def test_a_sheet_write_that_never_happened_is_dropped(sheet: Path) -> None:
    cut_short(sheet, "damage 4", write=False)
    assert load_hero(sheet).hp == 12
    assert exported() == []
    with store() as kept:
        assert kept.intents() == []


def test_a_sheet_write_whose_sheet_is_locked_is_left_for_a_later_start(sheet: Path) -> None:
    """Settling never waits: a writer holding the sheet's lock (this process, here) may be at work on it."""
    from crux_cli.state.recovery import settle
    from crux_cli.state.store import locked

    cut_short(sheet, "damage 4", write=True)
    with store() as kept:
        with locked(sheet, str(sheet)):
            assert settle(kept) == []
        assert len(kept.intents()) == 1  # still there
        assert settle(kept) == []
        assert kept.intents() == []
    (entry,) = exported()
    assert entry["statement"] == "damage 4"


BATCH_ON_A_SHEET = ["damage 2", "DEX +1b", "d20", "heal 1", "cond add prone", "STR +1b", "save WIL adv",
                    "cond remove prone", "damage 3", "1d20 + DEX", "heal 2", "atk d8", "rest field 1"] * 7


def changes_of(sheet: Path) -> list[dict]:
    """The sheet's change entries as the log exports them, with its path and what differs between runs left out."""
    text = json.dumps([e for e in exported() if e["kind"] == "change" and e["sheets"][0]["path"] == str(sheet)])
    return [{k: v for k, v in e.items() if k not in ("id", "time", "session")}
            for e in json.loads(text.replace(str(sheet), "SHEET"))]


def test_a_batch_holding_its_sheet_answers_writes_and_journals_as_a_write_a_statement_does(
        sheet: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch keeps its sheet's lock between statements and writes it once a chunk (PERFORMANCE.md): what it
    prints, the sheet it leaves and the changes it journals are those of a write at every statement."""
    from crux_cli.state import store as sheets

    plain = tmp_path / "plain.toml"
    plain.write_text(sheet.read_text())
    lines = "\n".join(BATCH_ON_A_SHEET) + "\n"
    held = crux_here("--seed", "5", "--json", "--sheet", str(sheet), "-", stdin=lines)
    monkeypatch.setattr(sheets, "HOLD_SECONDS", 0)  # every statement writes the sheet itself
    written = crux_here("--seed", "5", "--json", "--sheet", str(plain), "-", stdin=lines)
    assert held.stdout.replace(str(sheet), "SHEET") == written.stdout.replace(str(plain), "SHEET")
    assert (held.returncode, held.stderr) == (written.returncode, written.stderr)
    assert sheet.read_text() == plain.read_text()
    assert changes_of(sheet) == changes_of(plain) and len(changes_of(sheet)) > 40
    assert sheets.HELD_RUNS == {} and sheets.HOLDING.release is None  # let go at the end
    with store() as kept:
        assert kept.intents() == []


def test_a_held_sheet_is_written_with_only_the_values_its_run_left_changed(sheet: Path) -> None:
    """A held sheet's text is made once a write, from the text on disk (HeldRun.plan): a value changed and changed
    back within the run keeps the player's own spelling, and the one that changed is rewritten in place."""
    sheet.write_text(sheet.read_text().replace("hp = 12", "hp = +12", 1))
    result = crux_here("--sheet", str(sheet), "-", stdin="damage 2\nheal 2\nwound 1\n")
    assert result.returncode == 0, result.stderr
    text = sheet.read_text()
    assert re.search(r"^hp = \+12\b", text, re.MULTILINE), text
    assert re.search(r"^wounds = 1\b", text, re.MULTILINE), text
    assert (load_hero(sheet).hp, load_hero(sheet).wounds) == (12, 1)


CHANGES_BATCH = ["damage 2", "DEX +1b", "d20", "heal 1", "cond add prone", "WIL +1b grit", "INT -1B",
                 "atk 4d6 -1B vuln", "STR +1b", "save WIL adv", "cond remove prone", "WIL +1b grit", "damage 3",
                 "1d20 + DEX", "atk d12 rushed resist", "heal 2", "WIL +1b grit", "INT -1B", "atk d8", "rest field 1",
                 "4d6kh3", "WIL +1b grit"]
OWN_ROWS = Path(__file__).parent / "golden" / "store_held_changes_own_rows.sql"


def test_a_store_whose_held_changes_have_rows_of_their_own_reads_as_one_written_now(
        sheet: Path, own_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch's held change is kept among its run's rolls, in the run's row (PERFORMANCE.md, "A batch holds its
    sheet"); a store made before kept it as a row of its own between two rows of rolls (tests/golden). Both read
    back entry for entry the same, and `crux log --sheet`, `--stats` and `crux sheet undo` answer the same.

    The golden store was rolled with the generator crux had then (Python's Mersenne Twister, seed 5), and kept no
    `dice` beside a change's answers (crux-verify(7)): the run now rolls with that generator, and `dice` is left
    out of the comparison."""
    import random

    from crux_cli.running import runner

    monkeypatch.setattr(runner, "seeded", random.Random)
    written = sheet.read_text()
    done = crux_here("--seed", "5", "--sheet", str(sheet), "-", stdin="\n".join(CHANGES_BATCH * 2) + "\n",
                     env={"CRUX_SESSION": "old"})
    assert done.returncode == 2 and "no Grit to spend" in done.stderr
    after = sheet.read_text()

    def read_back() -> tuple[list[dict], list[dict], str, str, str, int]:
        entries = [{k: v for k, v in e.items() if k not in ("time", "dice")} for e in exported()]
        of_sheet = [{k: v for k, v in e.items() if k not in ("time", "dice")} for e in exported("--sheet", str(sheet))]
        stats, last = crux_here("log", "--stats").stdout, crux_here("log", "--sheet", str(sheet), "-n", "3").stdout
        with store() as kept:
            shared = kept.db.execute("SELECT count(*) FROM entries WHERE kind = 'roll' AND who IS NOT NULL").fetchone()
        undone = crux_here("sheet", "undo", str(sheet))
        assert undone.returncode == 0, undone.stderr
        last = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "TIME", last)
        return entries, of_sheet, stats, last, undone.stdout + sheet.read_text(), shared[0]

    now = read_back()
    assert now[5] > 0 and sum(e["kind"] == "change" for e in now[0]) > 10  # the run's rows hold its changes
    sheet.write_text(after)
    folder = own_state_dir / "crux"
    for name in os.listdir(folder):
        if name.startswith("crux.db"):
            os.remove(folder / name)
    with sqlite3.connect(folder / "crux.db") as made:
        made.executescript(OWN_ROWS.read_text().replace("{SHEET}", os.path.realpath(sheet)))
    made.close()
    before = read_back()
    assert before[5] == 0  # each change a row of its own
    assert before[:5] == now[:5] and written != after


@pytest.mark.parametrize("killed", ["before the write", "before the entries"])
def test_a_batch_killed_with_its_sheet_held_leaves_sheet_and_journal_agreeing(
        sheet: Path, killed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed after announcing the run's write: the next start drops a write never made, and journals every
    change of one made (the intent holds them all)."""
    from crux_cli.state import held_journal
    from crux_cli.state import store as sheets

    start = sheet_values(load_hero(sheet))

    def kill(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(sheets.HeldRun, "write", kill) if killed == "before the write" else \
            patch.setattr(held_journal, "commit_rows", kill)
        result = crux_here("--seed", "5", "--sheet", str(sheet), "-", stdin="damage 2\nd6\nheal 1\ndamage 3\n")
    assert result.returncode != 0 and "damage" not in result.stdout  # nothing shown: the journal had none of it
    assert sheets.HELD_RUNS == {} and sheets.HOLDING.release is None
    now = sheet_values(load_hero(sheet))
    assert now == (start if killed == "before the write" else {**start, "hp": 8})
    changes = [e for e in exported() if e["kind"] == "change"]  # the next start settles the intent
    assert [e["statement"] for e in changes] == ([] if killed == "before the write" else
                                                 ["damage 2", "heal 1", "damage 3"])
    values = dict(start)
    for entry in changes:
        values.update(entry["sheets"][0]["after"])
    assert values == now
    with store() as kept:
        assert kept.intents() == []


def test_a_held_sheet_that_cannot_be_written_keeps_what_it_held_and_says_so(
        sheet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.core.errors import SheetError
    from crux_cli.state import store as sheets

    before = sheet.read_text()

    def full(target: Path, text: str, shown: str, **kwargs: object) -> None:
        raise SheetError("cannot write the sheet: No space left on device", path=shown)

    with monkeypatch.context() as patch:
        patch.setattr(sheets, "write_atomically", full)
        result = crux_here("--seed", "5", "--sheet", str(sheet), "-", stdin="damage 2\nd6\nheal 1\n")
    assert result.returncode == 2
    assert "No space left on device; the sheet changes of the answers before this are not kept" in result.stderr
    assert sheet.read_text() == before
    kinds = [entry["kind"] for entry in exported()]
    assert kinds == ["roll"]  # the d6: no change the sheet does not hold
    with store() as kept:
        assert kept.intents() == []


def test_an_edit_made_while_a_batch_holds_the_sheet_is_kept(sheet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor ignores the lock: what it changed stays, and the batch's own changes go on from it."""
    from crux_cli.state import store as sheets

    monkeypatch.setattr(sheets.HOLDING, "release", lambda: None)
    with sheets.sheet_transaction(sheet) as held:
        held.save(held.hero.with_changes(hp=9, grit=1))
    (run,) = sheets.HELD_RUNS.values()
    try:
        edited = sheet.read_text().replace("grit = 0", "grit = 3").replace("hit_dice = 1", "hit_dice = 0")
        sheet.with_name("edit").write_text("# the player's note\n" + edited)
        os.replace(sheet.with_name("edit"), sheet)
        time.sleep(2 * sheets.CHECK_SECONDS)  # a held sheet is looked at this often
        with sheets.sheet_transaction(sheet) as held:
            assert (held.hero.hp, held.hero.grit, held.hero.hit_dice) == (9, 3, 0)  # ours, theirs (both), theirs
            held.save(held.hero.with_changes(hp=7))
        run.plan()
        run.write()
    finally:
        run.release()
    text = sheet.read_text()
    assert text.startswith("# the player's note\n")
    assert (load_hero(sheet).hp, load_hero(sheet).grit, load_hero(sheet).hit_dice) == (7, 3, 0)


def held_after_its_write(sheet: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[str]]:
    """A held run whose own write was just made (no signature to trust: `trusted_signature`), and the list of
    the sheet's reads from then on."""
    from crux_cli.state import store as sheets

    monkeypatch.setattr(sheets.HOLDING, "release", lambda: None)
    monkeypatch.setattr(sheets, "RACY_NS", 10**15)  # "a moment ago" for the whole test
    with sheets.sheet_transaction(sheet) as held:
        held.save(held.hero.with_changes(hp=9))
    (run,) = sheets.HELD_RUNS.values()
    run.plan()
    run.write()
    reads: list[str] = []
    read = sheets.read_text
    monkeypatch.setattr(sheets, "read_text", lambda *args, **kwargs: reads.append("read") or read(*args, **kwargs))
    return run, reads


def test_a_held_sheet_written_a_moment_ago_is_read_at_one_look_in_racy_looks(
        sheet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its signature cannot be trusted, so its text is compared, but not at every look: a batch on a sheet writes
    it a tenth of a second apart, and read it whole at every look (PERFORMANCE.md, "A batch holds its sheet")."""
    from crux_cli.state import store as sheets

    run, reads = held_after_its_write(sheet, monkeypatch)
    try:
        for _ in range(3 * sheets.RACY_LOOKS):
            run.check(str(sheet))
        assert len(reads) == 3
    finally:
        run.release()


def test_an_edit_that_keeps_the_signature_is_seen_within_racy_looks_and_kept_by_the_write(
        sheet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor's change in the very tick of crux's write, of the same size, on a reused inode: its signature is
    the one crux's text was found at. It is seen within RACY_LOOKS looks, and the write keeps it."""
    from crux_cli.state import store as sheets

    run, reads = held_after_its_write(sheet, monkeypatch)
    monkeypatch.setattr(sheets, "signature", lambda status: (status.st_size,))  # all a signature keeps here
    try:
        run.check(str(sheet))
        assert reads and run.racy_looks == sheets.RACY_LOOKS - 1
        sheet.write_text(sheet.read_text().replace("grit = 0", "grit = 3"))  # in place, the same size
        looks = 0
        while run.hero.grit != 3:
            run.check(str(sheet))
            looks += 1
            assert looks <= sheets.RACY_LOOKS
        run.keep(run.hero.with_changes(hp=7))
        run.plan()
        run.write()
    finally:
        run.release()
    assert (load_hero(sheet).hp, load_hero(sheet).grit) == (7, 3)


def test_crux_sheet_undo_leaves_a_running_fights_word_to_its_session(sheet: Path) -> None:
    from crux_cli.core.errors import CruxError
    from crux_cli.repl.session import Session
    from crux_cli.running.settings import Settings, make_runner
    from crux_cli.state.autosave import Autosave

    session = Session(make_runner(Settings(sheet=str(sheet), seed=4)))
    session.journal = Journal.open()
    session.autosave = Autosave.start(session.journal)
    for line in ("fight", "enemy ogre hp 20 atk d10", "init", "next", "atk Ann"):
        session.handle(line)
    hit = load_hero(sheet).hp
    assert hit < 12
    with pytest.raises(CruxError, match=f"in a fight running in REPL session {session.journal.session}"):
        undo_sheet(Journal.open(), str(sheet))
    assert load_hero(sheet).hp == hit  # left as it is
    assert session.handle("undo")[0].startswith("took back: atk Ann")  # the session takes it back whole
    assert load_hero(sheet).hp == 12
    session.autosave.close()


# -- readers use indexes --------------------------------------------------------------------------------


def test_every_reader_goes_through_an_index_never_a_scan_of_history() -> None:
    crux_here("d6")
    with store() as kept:
        indexed = [
            ("SELECT seq FROM entries WHERE session = ? ORDER BY seq DESC LIMIT 20", ("s",)),
            ("SELECT seq FROM entries WHERE until >= ? ORDER BY until LIMIT 1", ("2026",)),
            ("SELECT seq FROM entries WHERE fight = 1 ORDER BY seq DESC LIMIT 20", ()),
            ("SELECT e.seq FROM sheet_entries s JOIN entries e ON e.seq = s.seq WHERE s.path = ? "
             "ORDER BY s.seq DESC LIMIT 20", ("/a",)),
            ("SELECT id, count FROM entries WHERE session = ? ORDER BY seq DESC LIMIT 1", ("s",)),
            ("SELECT seq, count FROM entries WHERE kind = 'roll' ORDER BY seq LIMIT 500", ()),
            ("SELECT id FROM entries WHERE id = ?", ("s-1",)),
        ]
        for sql, params in indexed:
            plan = " ".join(str(row[-1]) for row in kept.db.execute("EXPLAIN QUERY PLAN " + sql, params))
            assert ("INDEX" in plan or "PRIMARY KEY" in plan) and "TEMP B-TREE" not in plan, (sql, plan)
        newest = " ".join(str(row[-1]) for row in kept.db.execute(
            "EXPLAIN QUERY PLAN SELECT seq FROM entries ORDER BY seq DESC LIMIT 20"))
        assert newest == "SCAN entries"  # the rowid order itself, read from the end and stopped at the limit


# -- crux without fcntl and POSIX's file calls (Windows) ---------------------------------------------


NO_FCNTL = """
import fcntl as real_fcntl, sys, types
import asyncio, subprocess  # noqa: F401  (they look for msvcrt to tell Windows: loaded before the fake)

fake = types.ModuleType("msvcrt")  # Windows' byte-range locks, played with the real ones underneath
fake.LK_NBLCK, fake.LK_UNLCK = 2, 0

def locking(fd, mode, nbytes):  # as LockFile, it locks through any descriptor, read-only ones too
    try:
        real_fcntl.flock(fd, real_fcntl.LOCK_EX | real_fcntl.LOCK_NB if mode else real_fcntl.LOCK_UN)
    except BlockingIOError as error:
        raise PermissionError(13, "locked") from error

fake.locking = locking
sys.modules["msvcrt"] = fake
sys.modules["fcntl"] = None  # `import fcntl` now fails, as on Windows
import os, tempfile, shutil, sqlite3, pathlib  # noqa: F401,E401  (the standard library's own checks, done)
for posix_only in ("O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_DIRECTORY", "fchmod", "fchown",
                   "geteuid", "getuid", "set_blocking"):  # what Windows' os module lacks (Python 3.11)
    delattr(os, posix_only)
if sys.argv[1] == "fight":  # a REPL session's fight steps, in-process: autosave, journal, undo
    from crux_cli.repl.app import keep_journal
    from crux_cli.repl.session import Session
    from crux_cli.running.settings import Settings, make_runner

    from crux_cli.repl.history import open_history

    history, warning = open_history()  # the history file, private to the user, as a session starts
    history.store_string("atk rat")
    print(warning or f"history kept: {type(history).__name__}")
    settings = Settings(sheet=sys.argv[2], seed=3)
    session = Session(make_runner(settings))
    print(keep_journal(session, settings))
    for line in ("fight", "enemy rat hp 3 atk d4", "init", "atk rat", "undo", "status"):
        print("\\n".join(session.handle(line)))
    session.autosave.close()
    session.journal.close()
    raise SystemExit(0)
if sys.argv[1] == "program":  # how the early Ctrl-C handler knows the program by a Windows script's name
    sys.argv = [sys.argv[2]]
    import signal
    import crux_cli
    print(signal.getsignal(signal.SIGINT) is crux_cli._interrupted)
    raise SystemExit(0)
import crux_cli.state.files
crux_cli.state.files.PLATFORM = "win32"  # crux's folders where Windows keeps them (an XDG variable still wins)
sys.argv = ["crux", *sys.argv[1:]]
from crux_cli.__main__ import main
main()
"""


@pytest.mark.slow
def test_crux_runs_where_fcntl_does_not_exist(sheet: Path, tmp_path: Path) -> None:
    def crux(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", NO_FCNTL, *args], capture_output=True, text=True,
                              input=stdin, timeout=60, env={**os.environ, "NO_COLOR": "1",  # Windows' folders here
                                                            "APPDATA": str(tmp_path / "Roaming"),
                                                            "LOCALAPPDATA": str(tmp_path / "Local")})

    for args in (("--seed", "1", "DEX +1b"), ("--sheet", str(sheet), "damage 3"), ("sheet", "undo", str(sheet)),
                 ("log", "-n", "5")):
        result = crux(*args)
        assert result.returncode == 0 and "internal error" not in result.stderr, (args, result.stderr)
    assert load_hero(sheet).hp == 12
    assert not [p.name for p in sheet.parent.iterdir() if p.name.endswith(".lock")]  # locks: the state folder's
    repl = crux("fight", str(sheet))
    assert repl.returncode == 0 and "internal error" not in repl.stdout + repl.stderr, repl.stdout + repl.stderr
    assert "took back: atk rat" in repl.stdout and "round 1" in repl.stdout
    assert "history kept: KeptHistory" in repl.stdout


@pytest.mark.slow
def test_crux_on_windows_keeps_its_folders_where_windows_does(tmp_path: Path) -> None:
    """No XDG variable: the store in %LOCALAPPDATA%\\crux, the config read from %APPDATA%\\crux, nothing at the
    XDG places; and the early Ctrl-C handler knows `crux.exe` by its Windows path."""
    local, roaming, home = tmp_path / "Local", tmp_path / "Roaming", tmp_path / "home"
    (roaming / "crux").mkdir(parents=True)
    (roaming / "crux" / "config.toml").write_text('rules = "stepdice"\n', encoding="utf-8")
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "CRUX_"))}
    env |= {"NO_COLOR": "1", "HOME": str(home), "USERPROFILE": str(home), "LOCALAPPDATA": str(local),
            "APPDATA": str(roaming)}

    def crux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", NO_FCNTL, *args], capture_output=True, text=True, timeout=60,
                              env=env)

    rolled = crux("--seed", "1", "save d8")  # a stepdice statement: the config under %APPDATA% was read
    assert rolled.returncode == 0 and rolled.stdout.startswith("save d8:"), rolled.stdout + rolled.stderr
    assert (local / "crux" / "crux.db").is_file()
    assert not (home / ".local").exists() and not (home / ".config").exists()
    logged = crux("log", "-n", "1")
    assert "save d8" in logged.stdout, logged.stdout + logged.stderr
    for argv0 in ("C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Scripts\\crux.exe",
                  "C:\\Python311\\Scripts\\CRUX.EXE", "crux-script.py"):
        assert crux("program", argv0).stdout.strip() == "True", argv0
    assert crux("program", "C:\\tools\\notcrux.exe").stdout.strip() == "False"


def test_no_module_imports_fcntl_but_the_lock_module() -> None:
    root = Path(__file__).resolve().parent.parent / "crux_cli"
    users = [p.relative_to(root).as_posix() for p in root.rglob("*.py") if "fcntl" in p.read_text()]
    assert users == ["state/locking.py"]


def test_the_package_says_which_platforms_it_runs_on() -> None:
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    for platform in ("Operating System :: POSIX", "Operating System :: Microsoft :: Windows",
                     "Operating System :: MacOS"):
        assert platform in text
    assert "Operating System :: OS Independent" not in text  # honest: the specific ones, not both (issue 38)


def test_values_kept_for_undo_are_the_sheets(sheet: Path) -> None:
    crux_here("--sheet", str(sheet), "damage 2")
    (entry,) = exported()
    assert entry["sheets"][0]["after"] == {k: v for k, v in sheet_values(load_hero(sheet)).items() if k == "hp"}


def test_reading_everything_back_in_order(sheet: Path) -> None:
    crux_here("--seed", "1", "-", stdin="d6\nd8\n")
    crux_here("--sheet", str(sheet), "damage 1")
    crux_here("d10")
    assert [e["statement"] for e in read_entries()] == ["d6", "d8", "damage 1", "d10"]
    assert [e["statement"] for e in exported("-n", "2")] == ["damage 1", "d10"]


# -- crux log --stats ---------------------------------------------------------------------------------


def stats_of(*args: str) -> dict:
    result = crux_here("log", "--stats", "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_stats_finds_60000_seeded_d6_fair_and_each_statement_as_its_odds_say() -> None:
    crux_here("--seed", "11", "-", stdin="d6\n" * 60_000)
    crux_here("--seed", "12", "-", stdin="DEX +1b\n" * 3_000)
    stats = stats_of()
    (d6,) = [face for face in stats["faces"] if face["die"] == "d6"]
    assert d6["rolled"] == 60_000 + 2 * 3_000 and d6["p"] > 0.01 and d6["fair"]
    assert sum(d6["counts"].values()) == d6["rolled"]
    (dex,) = [row for row in stats["outcomes"] if row["statement"] == "DEX +1b"]
    assert dex["rolled"] == 3_000 and dex["as_expected"]
    assert dex["expected"]["success"] == pytest.approx(3_000 * 5 / 9, abs=0.01)  # crux odds "DEX +1b": 5/9


def test_stats_flags_a_loaded_die() -> None:
    from crux_cli.core.rng import ScriptedSource
    from crux_cli.running.runner import Runner

    loaded = [6 if n % 4 == 0 else 1 + n % 6 for n in range(12_000)]  # a six a quarter of the time
    journal = Journal.open()
    runner = Runner(source=ScriptedSource(loaded))
    runner.journal, runner.keep_faces = journal, True
    for _ in range(12_000):
        runner.answer("d6")
    journal.close()
    (d6,) = stats_of()["faces"]
    assert d6["p"] < 0.01 and not d6["fair"]
    text = crux_here("log", "--stats").stdout
    assert "NOT what fair dice give" in text


def test_stats_reads_only_what_it_is_asked_for() -> None:
    crux_here("-", stdin="d8\n" * 50, env={"CRUX_SESSION": "first"})
    crux_here("-", stdin="d10\n" * 70, env={"CRUX_SESSION": "second"})
    assert [f["die"] for f in stats_of("--session", "first")["faces"]] == ["d8"]
    assert stats_of("--session", "last")["rolls"] == 70
    refused = crux_here("log", "--stats", "--fight")
    assert refused.returncode == 2 and "does not take --fight" in refused.stderr


def test_the_chi_square_p_value_matches_known_values() -> None:
    from crux_cli.running.stats import upper_gamma_regularized

    # survival of chi-square: df 5 at 11.07 is 0.05; df 1 at 3.841 is 0.05; df 10 at 23.21 is 0.01
    assert upper_gamma_regularized(5 / 2, 11.0705 / 2) == pytest.approx(0.05, abs=1e-4)
    assert upper_gamma_regularized(1 / 2, 3.8415 / 2) == pytest.approx(0.05, abs=1e-4)
    assert upper_gamma_regularized(10 / 2, 23.2093 / 2) == pytest.approx(0.01, abs=1e-4)


def test_a_store_that_is_a_fifo_or_a_link_is_left_alone_and_the_roll_goes_on(tmp_path: Path) -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "crux.db")
    result = crux_here("d6")
    assert result.returncode == 0 and "not a regular file" in result.stderr
    (folder / "crux.db").unlink()
    (folder / "crux.db").symlink_to(tmp_path / "elsewhere.db")
    result = crux_here("d6")
    assert result.returncode == 0 and "a symbolic link" in result.stderr
    assert not (tmp_path / "elsewhere.db").exists()


def test_liveness_files_of_sessions_gone_without_a_fight_are_cleared() -> None:
    from crux_cli.state.autosave import left_fights
    from crux_cli.state.sessions import Alive

    gone = Alive(state_dir(), "killed")  # a session killed before its goodbye leaves its file
    os.close(gone.descriptor)
    assert gone.path.exists()
    left_fights(Journal.open())
    assert not gone.path.exists()


def test_a_repeated_one_shot_is_one_commit(own_state_dir: Path) -> None:
    result = crux_here("--seed", "1", "999x d6")
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 999
    with store() as kept:
        assert kept.db.execute("SELECT count(*), sum(count) FROM entries").fetchone() == (1, 999)


def test_a_word_cut_short_never_wipes_a_later_change(sheet: Path) -> None:
    """Issue 28: a REPL killed mid-word, then `crux --sheet … 'damage 5'`: the next REPL kept neither
    that damage nor its journal line. Now the one-shot settles the word first (its write taken back,
    and said), then deals its damage, and the journal chains to the sheet."""
    from crux_cli.repl.session import Session
    from crux_cli.running.settings import Settings, make_runner
    from crux_cli.state.autosave import Autosave, left_fights

    start = sheet_values(load_hero(sheet))
    session = Session(make_runner(Settings(sheet=str(sheet), seed=3)))
    session.journal = Journal.open()
    session.autosave = Autosave.start(session.journal)
    for line in ("fight", "enemy ogre hp 20 atk d10", "init"):
        session.handle(line)
    session.journal.begin_word("damage 4")  # a word begins, writes the sheet, and the process dies
    session.fighting.fight_runner(sheet=str(sheet)).answer("damage 4")
    session.autosave.close()
    session.journal.store.close()
    assert load_hero(sheet).hp == 8

    later = crux_here("--sheet", str(sheet), "damage 5")
    assert later.returncode == 0 and "was cut short" in later.stderr
    assert load_hero(sheet).hp == 7  # 12, the word taken back, then 5 damage: nothing wiped
    left = left_fights(Journal.open())  # the next REPL start
    assert load_hero(sheet).hp == 7 and len(left) == 1
    changes = [e for e in read_entries() if e.get("sheets")]
    assert [e["statement"] for e in changes] == ["damage 5"]
    values = dict(start)
    for entry in changes:
        values.update(entry["sheets"][0]["after"])
    assert values == sheet_values(load_hero(sheet))


def test_log_paints_through_a_pipe_when_asked() -> None:
    crux_here("d6")
    assert "\x1b[" in crux_here("log", "--color=always").stdout
    assert "\x1b[" not in crux_here("log", "--color=never", env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in crux_here("log", env={"FORCE_COLOR": "1"}).stdout
