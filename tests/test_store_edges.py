"""The state store's edges (issue 37): a sheet under a folder whose name is not UTF-8, a migration cut short, a
damaged store met by many at once, a store made by a newer crux, rows of a shape crux never writes, ids under
concurrency. What a user relies on: nothing journaled is lost or doubled, and every failure is a plain message.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import CRUX

from crux_cli.state.db import state_dir


def crux_in(folder: Path | bytes, *args: str, stdin: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The console script run in `folder` (bytes: a name that is not UTF-8), as a user would."""
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    environment = {k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET", "NO_COLOR")}
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True, cwd=folder,
                          env={**environment, **(env or {})}, timeout=60)


def plain(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert "could not be settled" not in result.stderr, result.stderr


# -- a sheet under a folder whose name is not UTF-8 -----------------------------------------------------------


def test_a_sheet_in_a_folder_named_in_latin1_is_changed_journaled_and_undone_to_the_start(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(folder)
    assert crux_in(folder, "sheet", "new", "a.toml", "--name", "Ann", "--hp", "12", stdin="").returncode == 0
    one = crux_in(folder, "--sheet", "a.toml", "damage 1")
    plain(one)
    assert one.returncode == 0 and "HP 12 → 11" in one.stdout
    batch = crux_in(folder, "--sheet", "a.toml", "-", stdin="damage 2\nd6\nheal 1\n")
    plain(batch)
    assert "HP 11 → 9" in batch.stdout and "HP 9 → 10" in batch.stdout
    log = crux_in(folder, "log", "--json", "--sheet", "a.toml")
    plain(log)
    changes = [json.loads(line) for line in log.stdout.splitlines()]
    assert [c["statement"] for c in changes] == ["damage 1", "damage 2", "heal 1"]
    real = os.fsdecode(folder + b"/a.toml")  # the very path, its byte kept (escaped in JSON, read back whole)
    assert all(c["sheets"][0]["path"] == real for c in changes)
    for hp in ("9", "11", "12"):
        undone = crux_in(folder, "sheet", "undo", "a.toml")
        plain(undone)
        assert undone.returncode == 0 and "took back" in undone.stdout and f"→ {hp}" in undone.stdout
    assert "hp = 12\n" in (tmp_path / "caf\udce9" / "a.toml").read_text()
    last = crux_in(folder, "sheet", "undo", "a.toml")
    assert last.returncode != 0 and "nothing to undo" in last.stderr
    with_no_intent = crux_in(folder, "d6")
    plain(with_no_intent)
    assert with_no_intent.stderr == ""


def test_a_sheet_write_whose_entry_cannot_be_journaled_is_refused_before_it_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from helpers import crux_here

    from crux_cli.state.db import Store

    sheet = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Ann", "--hp", "12", stdin="").returncode == 0
    before = sheet.read_bytes()

    def broken(*args: object, **kwargs: object) -> int:
        raise ValueError("a text SQLite cannot hold")

    monkeypatch.setattr(Store, "intend", broken)
    result = crux_here("--sheet", str(sheet), "damage 1")
    assert result.returncode != 0 and "cannot be journaled" in result.stderr and "left as it was" in result.stderr
    batch = crux_here("--sheet", str(sheet), "-", stdin="damage 1\ndamage 1\n")
    assert "cannot be journaled" in batch.stderr
    assert sheet.read_bytes() == before
    assert "internal error" not in result.stderr + batch.stderr


def state() -> Path:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- a damaged store, met by many at once ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_damaged_store_met_by_12_crux_at_once_is_kept_whole_once_and_no_change_is_lost(tmp_path: Path) -> None:
    sheets = [tmp_path / f"h{n}.toml" for n in range(12)]
    for sheet in sheets:
        made = crux_in(tmp_path, "sheet", "new", sheet.name, "--name", sheet.stem, "--hp", "9", stdin="")
        assert made.returncode == 0
    folder = state()
    damaged = b"SQLite format 3\x00" + os.urandom(4096 * 3)  # a header, then nothing a database holds
    for name in ("crux.db", "crux.db-wal", "crux.db-shm"):
        with open(folder / name, "wb") as file:
            file.write(damaged if name == "crux.db" else b"")
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    runs = [subprocess.Popen([*command, "--sheet", sheet.name, "damage 1"], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for sheet in sheets]
    said = [run.communicate(timeout=120) for run in runs]
    assert all(run.returncode == 0 for run in runs), said
    assert all("Traceback" not in err and "internal error" not in err for _, err in said), said
    kept = sorted(folder.glob("crux.db.damaged-*[0-9]"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # set aside once, its bytes whole
    assert sum("it is kept as " + kept[0].name in err for _, err in said) == 1  # said by the one that did it
    log = crux_in(tmp_path, "log", "--json")
    assert sorted(json.loads(line)["who"] for line in log.stdout.splitlines()) == sorted(s.stem for s in sheets)
    assert all("hp = 8\n" in sheet.read_text() for sheet in sheets)


# -- an old journal's import, cut short and taken up again ----------------------------------------------------


def old_journal(folder: Path, count: int) -> list[str]:
    """An old `journal.jsonl` of `count` entries (two share an id, as runs with one CRUX_SESSION once made), with
    an unreadable line among them; their ids, in order."""
    ids = [f"old-{n}" for n in range(1, count + 1)]
    ids[-1] = ids[0]
    with open(folder / "journal.jsonl", "w") as file:
        for number, ident in enumerate(ids):
            entry = {"v": 1, "id": ident, "time": "2026-11-20T20:00:00.000Z", "session": "old", "kind": "roll",
                     "who": None, "statement": f"d{number % 20 + 1}", "answers": []}
            file.write(json.dumps(entry) + "\n" + ("{torn\n" if number == 7 else ""))
    return ids


def statements_kept() -> list[str]:
    import sqlite3

    with sqlite3.connect(state_dir() / "crux.db") as db:
        rows = db.execute("SELECT statement FROM entries WHERE session = 'old' ORDER BY seq").fetchall()
    db.close()
    return [statement for (statement,) in rows]


def import_reached(folder: Path) -> int:
    """Where in the old file the import's mark says it got to (0: no mark yet), read as another reader would."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{folder / 'crux.db'}?mode=ro", uri=True, timeout=0.1) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'import:journal.jsonl'").fetchone()
        db.close()
    except sqlite3.Error:
        return 0
    return int(json.loads(row[0])["offset"]) if row else 0


@pytest.mark.slow
def test_an_import_killed_at_random_instants_ends_with_every_old_entry_once(tmp_path: Path) -> None:
    """Ten SIGKILLs, each at a random instant once the import has passed a random point of the old file (a point
    by its progress, not by the clock, so each kill falls inside the import on a machine of any speed)."""
    import random
    import time

    folder = state()
    ids = old_journal(folder, 60_000)
    size = (folder / "journal.jsonl").stat().st_size
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    chance, kills = random.Random(37), 0
    for point in sorted(chance.uniform(0.0, 0.9) for _ in range(10)):
        run = subprocess.Popen([*command, "d6"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        while run.poll() is None and import_reached(folder) < point * size:
            time.sleep(0.002)
        time.sleep(chance.uniform(0.0, 0.05))
        if run.poll() is not None:
            break
        run.kill()
        run.communicate()
        kills += 1
    assert kills >= 8 and (folder / "journal.jsonl").exists()  # each kill cut an import short
    last = crux_in(tmp_path, "d6")
    plain(last)
    assert "going on from where it stopped" in last.stderr and "60,000 entries" in last.stderr
    assert statements_kept() == [f"d{n % 20 + 1}" for n in range(len(ids))]  # each once, in order
    assert not (folder / "journal.jsonl").exists() and (folder / "journal.jsonl.imported").exists()
    again = crux_in(tmp_path, "d6")
    assert again.stderr == "" and len(statements_kept()) == len(ids)


@pytest.mark.slow
def test_ctrl_c_during_the_import_says_what_is_left_and_the_next_start_goes_on(tmp_path: Path) -> None:
    import signal
    import time

    folder = state()
    ids = old_journal(folder, 60_000)
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    run = subprocess.Popen([*command, "d6"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while run.poll() is None and import_reached(folder) == 0:  # under way, by its progress, not by the clock
        time.sleep(0.002)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert "bringing the old journal" in err and "Traceback" not in err
    assert run.returncode == 130 and "stopped at" in err and "at the next start" in err, err
    plain(crux_in(tmp_path, "d6"))
    assert len(statements_kept()) == len(ids)


def test_an_import_an_older_crux_left_half_done_goes_on_without_doubling(tmp_path: Path) -> None:
    from crux_cli.state.db import Store

    folder = state()
    ids = old_journal(folder, 300)[:-1]  # ids all distinct
    with Store.open(folder, migrate=False) as store:  # as an older crux left it: 100 in, no mark, file not renamed
        for number, ident in enumerate(ids[:100]):
            store.add_entry({"v": 1, "id": ident, "time": "2026-11-20T20:00:00.000Z", "session": "old",
                             "kind": "roll", "who": None, "statement": f"d{number % 20 + 1}", "answers": []})
    lines = (folder / "journal.jsonl").read_text().splitlines(keepends=True)
    (folder / "journal.jsonl").write_text("".join(lines[:-1]))
    result = crux_in(tmp_path, "d6")
    plain(result)
    assert statements_kept() == [f"d{n % 20 + 1}" for n in range(len(ids))]
    assert not (folder / "journal.jsonl").exists()


# -- a store row of a shape crux never writes -----------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
LAST = "(SELECT max(seq) FROM entries WHERE kind = 'change')"
RUN = "(SELECT max(seq) FROM entries WHERE count > 1)"
ROLL = "(SELECT min(seq) FROM entries WHERE kind = 'roll')"
INTENT = "INSERT INTO intents (session, kind, body) VALUES ('gone', "

# Each kind of bad row or table a user's tool, a disk or another program could leave: one change to the store.
ONE_ROW_CHANGES = {
    "body not JSON": f"UPDATE entries SET body = '{{torn' WHERE seq = {LAST}",
    "body a JSON list": f"UPDATE entries SET body = '[1, 2]' WHERE seq = {LAST}",
    "body not UTF-8": f"UPDATE entries SET body = CAST(x'7b22ff223a317d' AS TEXT) WHERE seq = {LAST}",
    "body a BLOB": f"UPDATE entries SET body = x'7b7d' WHERE seq = {LAST}",
    "body 100,000 deep": f"UPDATE entries SET body = '{DEEP}' WHERE seq = {LAST}",
    "body a number": f"UPDATE entries SET body = 5 WHERE seq = {LAST}",
    "who a BLOB": f"UPDATE entries SET who = x'ff00' WHERE seq = {LAST}",
    "statement a BLOB": f"UPDATE entries SET statement = x'ff00' WHERE seq = {LAST}",
    "id a number": f"UPDATE entries SET id = 12 WHERE seq = {LAST}",
    "id a BLOB": f"UPDATE entries SET id = x'00ff' WHERE seq = {RUN}",
    "time a number": f"UPDATE entries SET time = 5, until = 5 WHERE seq = {LAST}",
    "session a BLOB": f"UPDATE entries SET session = x'ff' WHERE seq = {ROLL}",
    "kind unknown": f"UPDATE entries SET kind = 'spell' WHERE seq = {LAST}",
    "count 0": f"UPDATE entries SET count = 0 WHERE seq = {RUN}",
    "count negative": f"UPDATE entries SET count = -5 WHERE seq = {RUN}",
    "count text": f"UPDATE entries SET count = 'many' WHERE seq = {RUN}",
    "count huge": f"UPDATE entries SET count = 4611686018427387904 WHERE seq = {RUN}",
    "fight text": f"UPDATE entries SET fight = 'x' WHERE seq = {LAST}",
    "items not a list": f"UPDATE entries SET body = '{{\"items\": 5}}' WHERE seq = {RUN}",
    "item out of range": f"UPDATE entries SET body = '{{\"statements\": [], \"items\": [[9, [6, 1, 3]], [\"x\"]]}}' "
                         f"WHERE seq = {RUN}",
    "sheets a number": f"UPDATE entries SET body = '{{\"answers\": [], \"sheets\": 5}}' WHERE seq = {LAST}",
    "sheet path a number": f"UPDATE entries SET body = '{{\"answers\": [], \"sheets\": [{{\"path\": 5}}]}}' "
                           f"WHERE seq = {LAST}",
    "sheet values not objects": "UPDATE entries SET body = json_set(body, '$.sheets[0].before', 'x', "
                                f"'$.sheets[0].after', json('[1]')) WHERE seq = {LAST}",
    "answers a string": f"UPDATE entries SET body = json_set(body, '$.answers', 'x') WHERE seq = {LAST}",
    "intent not JSON": INTENT + "'sheet', '{torn')",
    "intent values a list": INTENT + "'sheet', json_object('entry', json_object('sheets', json_array(json_object("
                            "'path', '{sheet}', 'before', json_object('hp', 8), 'after', json_array(1))))))",
    "intent without sheets": INTENT + "'sheet', '{\"entry\": {}}')",
    "intent not UTF-8": INTENT + "'sheet', CAST(x'7bff7d' AS TEXT))",
    "intent 100,000 deep": INTENT + f"'sheet', '{DEEP}')",
    "intent of a run, path a number": INTENT + "'run', '{\"path\": 5, \"after\": {}, \"entries\": []}')",
    "intent session a BLOB": "INSERT INTO intents (session, kind, body) VALUES (x'ff', 'word', '{}')",
    "intent of a word, writes a string": INTENT + "'word', '{\"writes\": \"x\"}')",
    "meta emptied": "DELETE FROM meta",
    "rolls counted as text": "UPDATE meta SET value = 'x' WHERE key = 'rolls'",
    "sheet_entries dropped": "DROP TABLE sheet_entries",
    "sheet_entries path a number": "UPDATE sheet_entries SET path = 5",
}


@pytest.fixture
def kept_store(tmp_path: Path) -> Path:
    """A store holding a sheet's changes (one-shot and held by a batch), plain rolls and a run of them."""
    from helpers import crux_here

    sheet = tmp_path / "s.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Sam", "--hp", "12", stdin="").returncode == 0
    assert crux_here("--sheet", str(sheet), "damage 1").returncode == 0
    assert crux_here("d6").returncode == 0
    assert crux_here("-", stdin="d6\nd8\n3d6\n").returncode == 0
    assert crux_here("--sheet", str(sheet), "-", stdin="damage 1\nd6\n").returncode == 0
    return sheet


@pytest.mark.parametrize("change", list(ONE_ROW_CHANGES))
def test_a_store_row_of_an_unexpected_shape_is_a_plain_message_and_crux_dex_still_works(
        change: str, kept_store: Path) -> None:
    import sqlite3

    from helpers import crux_here

    with sqlite3.connect(state_dir() / "crux.db") as db:
        db.execute(ONE_ROW_CHANGES[change].replace("{sheet}", str(kept_store)))
    db.close()
    dex = crux_here("DEX")
    assert dex.returncode == 0 and dex.stdout.startswith("DEX"), dex.stderr
    for args in (("log",), ("log", "--json"), ("log", "--stats"), ("log", "--sheet", str(kept_store)),
                 ("--sheet", str(kept_store), "damage 1"), ("sheet", "undo", str(kept_store)), ("log", "-n", "3")):
        result = crux_here(*args)
        assert "internal error" not in result.stderr and "Traceback" not in result.stderr, (args, result.stderr)
        assert result.returncode in (0, 1, 2), (args, result)
    assert crux_here("DEX").returncode == 0


# -- damage met while reading, a full disk, modes and links ------------------------------------------------------


def test_damage_met_only_while_reading_is_said_plainly_and_the_store_can_be_set_aside(tmp_path: Path) -> None:
    from helpers import crux_here

    for seed in range(3):
        crux_here("--seed", str(seed), "-", stdin="1d20+3 # a comment long enough to fill pages of the store\n" * 2000)
    path = state() / "crux.db"
    size = path.stat().st_size
    assert size > 8 * 4096
    with open(path, "r+b") as file:  # pages of rows, not the first: the store opens, a read meets them
        for page in range(size // 4096 // 2, size // 4096):
            file.seek(page * 4096 + 8)
            file.write(os.urandom(200))
    for args in (("log",), ("log", "--json"), ("log", "--stats")):
        result = crux_here(*args)
        assert result.returncode != 0 and "is damaged" in result.stderr + result.stdout, result
        assert "internal error" not in result.stderr and "--set-aside" in result.stderr + result.stdout
    assert crux_here("DEX").returncode == 0
    damaged = path.read_bytes()
    aside = crux_here("log", "--set-aside")
    assert aside.returncode == 0 and "is kept as crux.db.damaged-" in aside.stdout
    assert next(path.parent.glob("crux.db.damaged-*[0-9]")).read_bytes() == damaged
    assert crux_here("d6").returncode == 0 and "d6" in crux_here("log").stdout


def test_the_read_guards_tell_a_generator_from_a_function_and_a_journaled_roll_imports_no_inspect(
        tmp_path: Path) -> None:
    """`guarded` wraps a store's generator as a generator (its rows streamed, damage said at the row that meets it)
    and a plain read as a function, telling them by the code's flags: `inspect` (with ast, dis and tokenize) cost
    a journaled one-shot 30 M instructions (tests/bench/bench_startup.py)."""
    import inspect

    from crux_cli.state.values import guarded

    def rows(self: object) -> Iterator[int]:
        yield 1

    def one(self: object) -> int:
        return 1

    assert inspect.isgeneratorfunction(guarded(rows)) and not inspect.isgeneratorfunction(guarded(one))
    assert list(guarded(rows)(None)) == [1] and guarded(one)(None) == 1
    environment = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    for statement in ("d20", "DEX"):
        result = subprocess.run([sys.executable, "-X", "importtime", "-m", "crux_cli", statement], capture_output=True,
                                text=True, env=environment, timeout=60, check=True)
        imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}
        assert "crux_cli.state.values" in imported and "inspect" not in imported


def test_a_full_disk_is_said_as_no_space_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import sqlite3

    from helpers import crux_here

    from crux_cli.state.values import reason

    where = tmp_path / "crux.db"
    assert reason(sqlite3.OperationalError("database or disk is full"), where).startswith("no space left")
    assert reason(OSError(errno.ENOSPC, "No space left on device"), where).startswith("no space left")
    assert crux_here("d4").returncode == 0
    real = sqlite3.connect

    class Full(sqlite3.Connection):
        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
            if sql.startswith("INSERT"):
                raise sqlite3.OperationalError("database or disk is full")
            return super().execute(sql, *args)

    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real(*a, **{**k, "factory": Full}))
    result = crux_here("d6")
    assert result.returncode == 0 and "no space left on the device" in result.stderr, result.stderr


@pytest.mark.skipif(os.name != "posix", reason="modes")
def test_a_store_others_can_read_is_made_private_and_a_linked_state_folder_is_not_chmod_ed(tmp_path: Path,
                                                                                              monkeypatch) -> None:
    from helpers import crux_here

    crux_here("d6")
    path = state() / "crux.db"
    os.chmod(path, 0o644)
    crux_here("d6")
    assert path.stat().st_mode & 0o777 == 0o600
    elsewhere = tmp_path / "on-another-disk"
    elsewhere.mkdir(mode=0o755)
    os.chmod(elsewhere, 0o755)
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "crux").symlink_to(elsewhere)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "home"))
    assert crux_here("d6").returncode == 0
    assert (elsewhere / "crux.db").exists() and elsewhere.stat().st_mode & 0o777 == 0o755


# -- ids under concurrency -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_concurrent_runs_sharing_crux_session_write_distinct_ids_and_undo_walks_back_to_the_start(
        tmp_path: Path) -> None:
    assert crux_in(tmp_path, "sheet", "new", "s.toml", "--name", "Sam", "--hp", "20", stdin="").returncode == 0
    assert crux_in(tmp_path, "d4", env={"CRUX_SESSION": "game2"}).returncode == 0
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    env = {**os.environ, "CRUX_SESSION": "game2"}
    lines = [["--sheet", "s.toml", "damage 1"]] * 8 + [["d6"], ["-"]] * 2
    runs = [subprocess.Popen([*command, *args], cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for args in lines]
    said = [run.communicate("d8\nd10\n" if args == ["-"] else "", timeout=120) for run, args in zip(runs, lines,
                                                                                                     strict=True)]
    assert all(run.returncode == 0 for run in runs), said
    entries = [json.loads(line) for line in crux_in(tmp_path, "log", "--json").stdout.splitlines()]
    ids = [entry["id"] for entry in entries]
    assert len(ids) == 1 + 8 + 2 + 4 and len(set(ids)) == len(ids), ids
    assert "hp = 12\n" in (tmp_path / "s.toml").read_text()
    for _ in range(8):
        undone = crux_in(tmp_path, "sheet", "undo", "s.toml")
        assert undone.returncode == 0, undone.stderr
    assert "hp = 20\n" in (tmp_path / "s.toml").read_text()
    assert "nothing to undo" in crux_in(tmp_path, "sheet", "undo", "s.toml").stderr


# -- journal and sheet agree under any concurrency ---------------------------------------------------------------

CHANGES = ["damage 2", "heal 1", "cond add Dazed", "cond remove Dazed"]
CHANGED = (" → ", "now dazed", "no longer dazed")  # what an answer that changed the sheet says


def chain_breaks(entries: list[dict], start: dict) -> list[str]:
    """Each change of the sheet, in journal order, must start from the values the one before left."""
    values, breaks = dict(start), []
    for entry in entries:
        for change in entry["sheets"]:
            for name, value in change["before"].items():
                if values.get(name) != value:
                    breaks.append(f"{entry['id']} `{entry['statement']}`: {name} was {values.get(name)}, not {value}")
            values.update(change["after"])
    return breaks


@pytest.mark.slow
def test_64_processes_for_5_rounds_leave_journal_and_sheet_agreeing(tmp_path: Path) -> None:
    import random

    from crux_cli.state.sheet_undo import sheet_values
    from crux_cli.state.store import load_hero

    assert crux_in(tmp_path, "sheet", "new", "s.toml", "--name", "Sam", "--hp", "1000", stdin="").returncode == 0
    sheet = tmp_path / "s.toml"
    start = sheet_values(load_hero(sheet))
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    chance, shown = random.Random(64), 0
    for _ in range(5):
        jobs = [("\n".join(chance.choice(CHANGES) for _ in range(chance.randint(2, 5))) + "\n") if n % 8 == 0
                else chance.choice(CHANGES) for n in range(64)]
        runs = [subprocess.Popen([*command, "--sheet", "s.toml", "-" if job.endswith("\n") else job], cwd=tmp_path,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for job in jobs]
        said = [run.communicate(job if job.endswith("\n") else "", timeout=600) for run, job in zip(runs, jobs,
                                                                                                      strict=True)]
        assert all(run.returncode == 0 for run in runs), [err for _, err in said if err]
        # a crux that waits for another's lock says so (issue 37: no wait without a word); nothing else is said
        unexpected = [line for _, err in said for line in err.splitlines()
                      if not line.startswith("crux: waiting for another crux holding s.toml")]
        assert not unexpected, unexpected
        shown += sum(any(word in line for word in CHANGED) for out, _ in said for line in out.splitlines())
        log = crux_in(tmp_path, "log", "--json", "--sheet", "s.toml")
        entries = [json.loads(line) for line in log.stdout.splitlines()]
        assert len({entry["id"] for entry in entries}) == len(entries) == shown  # each shown change once
        assert chain_breaks(entries, start) == []
        final = dict(start)
        for entry in entries:
            for change in entry["sheets"]:
                final.update(change["after"])
        assert final == sheet_values(load_hero(sheet))
    with __import__("sqlite3").connect(state_dir() / "crux.db") as db:
        assert db.execute("SELECT count(*) FROM intents").fetchone()[0] == 0
    db.close()


def test_the_store_s_wal_deleted_under_a_running_batch_is_said_not_lost_silently(tmp_path: Path) -> None:
    import time

    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    run = subprocess.Popen([*command, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    assert run.stdin is not None and run.stdout is not None
    run.stdin.write("d6\n")
    run.stdin.flush()
    assert run.stdout.readline().startswith("d6: ")  # answered, so journaled: the store and its -wal are there
    wal = state() / "crux.db-wal"
    for _ in range(100):
        if wal.exists():
            break
        time.sleep(0.05)
    wal.unlink()
    _, err = run.communicate("d8\nd10\n", timeout=60)
    assert run.returncode == 0 and "was deleted or replaced while crux was writing" in err, err


@pytest.mark.slow
def test_sheet_undo_on_a_store_held_by_another_crux_says_so_not_nothing_to_undo(tmp_path: Path) -> None:
    import sqlite3

    assert crux_in(tmp_path, "sheet", "new", "s.toml", "--name", "Sam", "--hp", "9", stdin="").returncode == 0
    assert crux_in(tmp_path, "--sheet", "s.toml", "damage 1").returncode == 0
    holder = sqlite3.connect(state_dir() / "crux.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = crux_in(tmp_path, "sheet", "undo", "s.toml")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode != 0 and "nothing to undo" not in result.stderr
    assert "cannot undo" in result.stderr and "held by another crux" in result.stderr, result.stderr
    assert "hp = 8\n" in (tmp_path / "s.toml").read_text()  # refused before the sheet was touched
    assert crux_in(tmp_path, "sheet", "undo", "s.toml").returncode == 0
