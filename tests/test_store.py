"""The sheet store: locked read-modify-write, atomic replacement, refusal without rewriting.

The multi-process tests drive the store through `python -c` children, the way
separate `crux --sheet` runs reach it.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux.hero import Hero
from crux_cli.state.sheet import new_sheet_text, parse_sheet
from crux_cli.state.store import create_sheet, load_hero, lock_path, sheet_transaction

COMMENTED = """\
# Wren -- do not lose this comment
name = "Wren"

[status]
grit = 2   # keep me too
hp = 10
hp_max = 10
hit_dice = 2
hit_dice_max = 2
"""


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "wren.toml"
    path.write_text(COMMENTED)
    return path


def test_load_hero_reads_without_writing(sheet: Path) -> None:
    hero = load_hero(sheet)
    assert (hero.name, hero.grit, hero.hp) == ("Wren", 2, 10)
    assert not lock_path(sheet).exists()


def test_a_transaction_writes_the_change_and_keeps_comments(sheet: Path) -> None:
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(grit=3, hp=4))
    text = sheet.read_text()
    assert "# Wren -- do not lose this comment" in text
    assert "grit = 3   # keep me too" in text
    assert load_hero(sheet).hp == 4


def test_comments_survive_many_writes(sheet: Path) -> None:
    for grit in (3, 4, 0, 5, 1):
        with sheet_transaction(sheet) as tx:
            tx.save(tx.hero.with_changes(grit=grit, conditions=("prone",) if grit % 2 else ()))
    assert sheet.read_text() == COMMENTED.replace("grit = 2", "grit = 1").replace(
        "hit_dice_max = 2\n", 'hit_dice_max = 2\nconditions = ["prone"]\n')


def test_saving_twice_in_one_transaction_builds_on_the_first_save(sheet: Path) -> None:
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(grit=3))
        tx.save(tx.hero.with_changes(hp=1))
    hero = load_hero(sheet)
    assert (hero.grit, hero.hp) == (3, 1)


def test_an_unchanged_hero_is_not_written(sheet: Path) -> None:
    before = sheet.stat()
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero)
    assert sheet.stat().st_ino == before.st_ino and sheet.stat().st_mtime_ns == before.st_mtime_ns


def test_a_write_keeps_the_file_mode_and_leaves_no_temporary_files(sheet: Path) -> None:
    sheet.chmod(0o600)
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(grit=0))
    assert sheet.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in sheet.parent.iterdir()) == ["wren.toml"]  # nothing beside the sheet (issue 38)


def test_a_read_only_sheet_is_read_but_never_changed(sheet: Path) -> None:
    sheet.chmod(0o444)
    with sheet_transaction(sheet) as tx:
        tx.save(tx.hero)  # nothing to write: fine
    with pytest.raises(SheetError, match="read-only"), sheet_transaction(sheet) as tx:
        tx.save(tx.hero.with_changes(grit=5))
    assert sheet.read_text() == COMMENTED


def test_writing_through_a_symlink_replaces_the_target(sheet: Path) -> None:
    link = sheet.parent / "current.toml"
    link.symlink_to(sheet)
    with sheet_transaction(link) as tx:
        tx.save(tx.hero.with_changes(grit=5))
    assert link.is_symlink()
    assert load_hero(sheet).grit == 5


def test_an_error_inside_the_transaction_writes_nothing_and_releases_the_lock(sheet: Path) -> None:
    with pytest.raises(RuntimeError), sheet_transaction(sheet):
        raise RuntimeError("the roll failed")
    assert sheet.read_text() == COMMENTED
    with sheet_transaction(sheet) as tx:  # would hang if the lock were still held
        assert tx.hero.grit == 2


@pytest.mark.parametrize(
    "text",
    ['name = "Wren"\n[status]\ngrit = 9   # too much\n',
     '[attributes]\nLUCK = { modifier = 1, rating = 1 }\n',
     'name = "Wren\n',
     '# fine comment\n[status]\ngrit = 1\nhp = 20\nhp_max = 10\n'],
)
def test_bad_sheets_are_refused_and_left_byte_identical(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(text.encode())
    stamp = path.stat().st_mtime_ns
    with pytest.raises(SheetError) as caught, sheet_transaction(path) as tx:
        tx.save(tx.hero.with_changes(grit=0))
    assert caught.value.path == str(path) and caught.value.line is not None
    with pytest.raises(SheetError):
        load_hero(path)
    assert path.read_bytes() == text.encode()
    assert path.stat().st_mtime_ns == stamp


def test_a_sheet_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "W"\n# caf\xe9\n')
    with pytest.raises(SheetError, match="not UTF-8") as caught:
        load_hero(path)
    assert caught.value.line == 2


def test_a_missing_sheet_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match="no such sheet") as caught:
        load_hero(tmp_path / "nobody.toml")
    assert "crux sheet new" in (caught.value.hint or "")
    with pytest.raises(SheetError, match="no such sheet"), sheet_transaction(tmp_path / "nobody.toml"):
        pass


def test_create_sheet_writes_a_valid_sheet_and_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "ash.toml"
    hero = Hero(name="Ash")
    assert create_sheet(path, new_sheet_text(hero)) == hero
    assert load_hero(path) == hero
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    with pytest.raises(SheetError, match="already exists"):
        create_sheet(path, new_sheet_text(Hero(name="Other")))
    assert load_hero(path).name == "Ash"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ash.toml"]  # nothing beside the sheet (issue 38)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_lock_is_held_for_the_whole_transaction(sheet: Path) -> None:
    probe = ("import fcntl, os, sys\n"
             "fd = os.open(sys.argv[1], os.O_RDWR)\n"
             "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n"
             "    print('busy')\nelse:\n    print('free')\n")
    command = [sys.executable, "-c", probe, str(lock_path(sheet))]
    with sheet_transaction(sheet):
        inside = subprocess.run(command, capture_output=True, text=True)
    after = subprocess.run(command, capture_output=True, text=True)
    assert (inside.stdout.strip(), after.stdout.strip()) == ("busy", "free")


# --- many processes at once ----------------------------------------------------------------------

GRIT_WORKER = """
import json, random, sys
from crux_cli.rulesets.crux.engine import PoolRequest, Source, roll_pool
from crux_cli.rulesets.crux.compiler import grit_before
from crux_cli.rulesets.crux.grit import apply_grit
from crux_cli.core.rng import Roller, seeded
from crux_cli.state.store import sheet_transaction

path, rolls, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
choose = random.Random(seed)
for _ in range(rolls):
    with sheet_transaction(path) as tx:
        hero = tx.hero
        spend = hero.grit > 0 and choose.random() < 0.5
        sources = (Source("grit", 1),) if spend else ()
        request = PoolRequest("test", "DEX", sources, grit_spent=spend,
                              grit_before=grit_before(hero, spend, ""))
        result = roll_pool(Roller(seeded(choose.randrange(2**32))), request)
        after = apply_grit(hero, result.grit)
        tx.save(after)
    print(json.dumps({"before": hero.grit, "after": after.grit,
                      "spent": result.grit.spent, "gained": result.grit.gained}), flush=True)
"""


def start_workers(sheet: Path, processes: int, rolls: int) -> list[subprocess.Popen[str]]:
    return [
        subprocess.Popen([sys.executable, "-c", GRIT_WORKER, str(sheet), str(rolls), str(seed)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for seed in range(processes)
    ]


@pytest.mark.slow
def test_fifty_processes_spending_and_earning_grit_lose_no_update(sheet: Path) -> None:
    processes, rolls = 50, 20
    start = load_hero(sheet).grit
    workers = start_workers(sheet, processes, rolls)
    outputs = [worker.communicate(timeout=120) for worker in workers]
    assert [w.returncode for w in workers] == [0] * processes, [err for _, err in outputs if err][:1]
    records = [json.loads(line) for out, _ in outputs for line in out.splitlines()]
    assert len(records) == processes * rolls
    spent = sum(r["spent"] for r in records)
    gained = sum(r["after"] - r["before"] + r["spent"] for r in records)  # gains that fit under 5
    assert spent > 50 and gained > 20  # the test really exercised both directions
    final = load_hero(sheet).grit
    assert final == start - spent + gained
    # Serialised: the values read are exactly the values left by the one before (and the start),
    # so as multisets, reads + the final value == the start + every write.
    assert sorted([r["before"] for r in records] + [final]) == sorted([start] + [r["after"] for r in records])
    text = sheet.read_text()
    assert "# Wren -- do not lose this comment" in text and "# keep me too" in text
    print(f"\n{processes} processes x {rolls} rolls: Grit {start} -{spent} +{gained} = {final}")


# 'ready' comes after one whole transaction, so everything a write loads is loaded and the kill lands
# among writes: on a busy CI machine a first write's imports outlasted the pause and no write ever ended.
WRITER = """
import sys
from crux_cli.state.store import sheet_transaction

def write():
    with sheet_transaction(sys.argv[1]) as tx:
        hero = tx.hero
        tx.save(hero.with_changes(grit=(hero.grit + 1) % 6, hp=(hero.hp % hero.hp_max) + 1,
                                  conditions=() if hero.conditions else ("prone", "dazed")))

write()
print("ready", flush=True)
while True:
    write()
    print("wrote", flush=True)  # what the parent counts after the kill
"""


@pytest.mark.slow
def test_a_process_killed_while_writing_never_leaves_a_broken_sheet(sheet: Path) -> None:
    pause = random.Random(6)
    leftovers = 0
    grit = parse_sheet(sheet.read_text(), str(sheet)).grit
    for _ in range(25):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(sheet)],
                                  stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(pause.uniform(0.001, 0.05))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        wrote = 1 + writer.stdout.read().splitlines().count("wrote")  # the first came before "ready"
        writer.stdout.close()
        text = sheet.read_text()
        hero = parse_sheet(text, str(sheet))  # whole and valid, whenever the kill landed
        assert "# Wren -- do not lose this comment" in text and "# keep me too" in text
        # every write finished before the kill is on the sheet, and at most the one it cut short besides
        assert hero.grit in ((grit + wrote) % 6, (grit + wrote + 1) % 6)
        grit = hero.grit
        # The lock died with its holder: the next transaction goes straight in.
        fd = os.open(lock_path(sheet), os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(fd)
        leftovers += len(list(sheet.parent.glob(".wren.toml.*.tmp")))
    with sheet_transaction(sheet):  # a dead writer's temporary file is cleared by the next writer
        pass
    assert sorted(p.name for p in sheet.parent.iterdir()) == ["wren.toml"]  # nothing beside the sheet (issue 38)
    print(f"\n25 kills: sheet whole every time; {leftovers} killed mid-write (temporary file left)")


# --- a batch keeps the parsed sheet while the file is unchanged (tests/bench/bench_batch.py, sheet mix) ---------


def test_a_batch_sees_every_change_to_its_sheet_even_one_of_the_same_size_at_once(sheet: Path) -> None:
    from crux_cli.running.runner import Runner

    runner = Runner(seed=1, sheet=str(sheet))
    assert runner.execute("DEX")[0].sheet.before.hit_dice == 2  # type: ignore[union-attr]
    with sheet.open("r+") as file:  # by hand, in place: same inode, same size, within the same clock tick
        file.write(COMMENTED.replace("hit_dice = 2", "hit_dice = 1"))
    assert runner.execute("DEX")[0].sheet.before.hit_dice == 1  # type: ignore[union-attr]
    other = sheet.with_name("other.toml")
    other.write_text(COMMENTED.replace("hit_dice = 2", "hit_dice = 0"))
    os.replace(other, sheet)  # as another crux writes: a new file under the name
    assert runner.execute("DEX")[0].sheet.before.hit_dice == 0  # type: ignore[union-attr]
    time.sleep(0.15)  # long unchanged: its parse is kept, and a change is still seen by its times
    assert runner.execute("DEX")[0].sheet.before.hit_dice == 0  # type: ignore[union-attr]
    sheet.write_text(COMMENTED.replace("hit_dice = 2", "hit_dice = 1"))
    assert runner.execute("DEX")[0].sheet.before.hit_dice == 1  # type: ignore[union-attr]


def test_leftovers_are_cleared_once_a_process_not_at_every_statement(sheet: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.state import store

    scans: list[Path] = []
    monkeypatch.setattr(store, "remove_leftovers", scans.append)
    for _ in range(3):
        with sheet_transaction(sheet):
            pass
    assert scans == [store.resolve(sheet)]
