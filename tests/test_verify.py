"""Rolls anyone can verify (issue 35, crux-verify(7)): a session's record exported, checked by crux and by an
independent verifier written from the man page alone (tests/verify_alone.py), and every tampering named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crux_cli.core.rng import Roller, seeded, sha256
from crux_cli.running.verify import canonical, chained

ROOT = Path(__file__).resolve().parent.parent
ALONE = Path(__file__).resolve().parent / "verify_alone.py"


def crux(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1")
    env.pop("CRUX_SESSION", None)
    return subprocess.run([sys.executable, "-m", "crux_cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=tmp_path)


def both(tmp_path: Path, lines: list[str]) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    path = tmp_path / "record.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    ours = crux(tmp_path, "log", "--verify", str(path))
    alone = subprocess.run([sys.executable, str(ALONE), str(path)], capture_output=True, text=True)
    return ours, alone


def exported(tmp_path: Path) -> list[str]:
    result = crux(tmp_path, "log", "--export")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def rechained(lines: list[dict]) -> list[str]:
    return list(chained({k: v for k, v in line.items() if k not in ("prev", "chain")} for line in lines))


@pytest.fixture
def batch(tmp_path: Path) -> list[str]:
    # the first entries roll several dice each, so a tampered copy never matches the seed by chance
    statements = "4d6kh3\n2d10000\n3d20\n3x 2d12\nDEX +2b\natk 2d8+3 heavy\nodds 1d6\n1d100\n"
    result = crux(tmp_path, "-", stdin=statements)
    assert result.returncode == 0, result.stderr
    return exported(tmp_path)


def test_a_batch_verifies_with_crux_and_alone(tmp_path: Path, batch: list[str]):
    kinds = [json.loads(line)["type"] for line in batch]
    assert kinds[0] == "commit" and kinds[-1] == "reveal" and kinds.count("entry") == 9
    ours, alone = both(tmp_path, batch)
    assert (ours.returncode, ours.stdout) == (0, "verified: 9 rolls, 0 changes\n")
    assert (alone.returncode, alone.stdout) == (0, ours.stdout)


def test_the_commitment_is_the_hash_of_the_revealed_seed(batch: list[str]):
    commit, reveal = json.loads(batch[0]), json.loads(batch[-1])
    assert sha256(bytes.fromhex(reveal["seed"])).hex() == commit["commit"]
    assert len(bytes.fromhex(reveal["seed"])) == 32  # fresh dice: 32 bytes from the OS


def tampered(batch: list[str]) -> dict[str, tuple[list[str], int]]:
    """Each tampering, and the line (1-based) it must be named at."""
    lines = [json.loads(line) for line in batch]
    face = json.loads(batch[1])
    face["dice"][0][0][1] = face["dice"][0][0][1] % 20 + 1
    seed = json.loads(batch[-1])
    seed["seed"] = "00" + seed["seed"][2:]
    commit = json.loads(batch[0])
    commit["commit"] = "0" * 64
    last = len(batch)
    return {
        "one face changed": ([batch[0], json.dumps(face), *batch[2:]], 2),
        "one face changed, chain made again": (rechained([lines[0], face, *lines[2:]]), 2),
        "one entry removed": ([*batch[:2], *batch[3:]], 3),
        "one entry removed, chain made again": (rechained([*lines[:2], *lines[3:]]), 3),
        "one entry inserted": ([*batch[:3], batch[2], *batch[3:]], 4),
        "one entry inserted, chain made again": (rechained([*lines[:3], lines[2], *lines[3:]]), 4),
        "two entries swapped": ([batch[0], batch[2], batch[1], *batch[3:]], 2),
        "two entries swapped, chain made again": (rechained([lines[0], lines[2], lines[1], *lines[3:]]), 2),
        "the seed changed": ([*batch[:-1], json.dumps(seed)], last),
        "the seed changed, chain made again": (rechained([*lines[:-1], seed]), last),
        "the commitment changed": ([json.dumps(commit), *batch[1:]], 1),
        "the commitment changed, chain made again": (rechained([commit, *lines[1:]]), last),
        "the reveal dropped": (batch[:-1], last - 1),
    }


@pytest.mark.parametrize("case", [
    "one face changed", "one face changed, chain made again", "one entry removed",
    "one entry removed, chain made again", "one entry inserted", "one entry inserted, chain made again",
    "two entries swapped", "two entries swapped, chain made again", "the seed changed",
    "the seed changed, chain made again", "the commitment changed", "the commitment changed, chain made again",
    "the reveal dropped"])
def test_every_tampering_fails_naming_its_line(tmp_path: Path, batch: list[str], case: str):
    lines, named = tampered(batch)[case]
    ours, alone = both(tmp_path, lines)
    assert ours.returncode == 1 and f"line {named}:" in ours.stderr, ours.stderr
    assert alone.returncode == 1 and alone.stderr.startswith(f"line {named}:"), alone.stderr


def test_a_roll_on_a_sheet_and_its_change_verify(tmp_path: Path):
    assert crux(tmp_path, "sheet", "new", "wren.toml", "--name", "Wren").returncode == 0
    for statement, counts in (("STR -2B", "1 rolls, 0 changes"), ("1d20 + DEX", "1 rolls, 0 changes"),
                              ("damage 3", "0 rolls, 1 changes"), ("rest field 1", "1 rolls, 0 changes")):
        result = crux(tmp_path, "--sheet", "wren.toml", statement)  # each run a session of its own
        assert result.returncode == 0, result.stderr
        ours, alone = both(tmp_path, exported(tmp_path))
        assert (ours.returncode, ours.stdout) == (0, f"verified: {counts}\n"), (statement, ours.stderr)
        assert alone.stdout == ours.stdout


def test_a_shared_table_with_salts_verifies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A simulated shared table (the table's journal is its session's journal): players' salts re-key the dice."""
    from crux_cli.running.runner import Runner
    from crux_cli.state.journal import Journal

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    journal = Journal.open()
    runner = Runner()
    runner.journal, runner.keep_faces = journal, True
    journal.keys(runner)
    commitment = runner.commitment()
    runner.answers("1d20")
    assert runner.add_salt(bytes(range(16)), "Ann") == commitment  # the commitment shown does not change
    runner.answers("8d20")  # many dice after each salt: another salt's faces never match them by chance (2d6: 1 in 36)
    runner.answers("8d12")
    runner.add_salt(b"bob's salt", "Bob")
    runner.answers("4d6kh3")
    journal.close()
    lines = exported(tmp_path)
    assert [json.loads(line)["type"] for line in lines] == \
        ["commit", "entry", "salt", "entry", "entry", "salt", "entry", "reveal"]
    ours, alone = both(tmp_path, lines)
    assert (ours.returncode, ours.stdout) == (0, "verified: 4 rolls, 0 changes\n")
    assert alone.stdout == ours.stdout
    salted = [json.loads(line) for line in lines]
    salted[2]["salt"] = "00" * 16  # another salt than the one that keyed the dice
    ours, alone = both(tmp_path, rechained(salted))
    assert ours.returncode == 1 and "line 4:" in ours.stderr
    assert alone.stderr.startswith("line 4:")


def test_a_running_session_keeps_its_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from crux_cli.running.runner import Runner
    from crux_cli.state.journal import Journal
    from crux_cli.state.sessions import Alive

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    journal = Journal.open()
    alive = Alive(journal.folder, journal.session)
    runner = Runner()
    runner.journal, runner.keep_faces = journal, True
    journal.keys(runner)
    runner.answers("1d20")
    journal.flush()
    lines = exported(tmp_path)
    assert [json.loads(line)["type"] for line in lines] == ["commit", "entry"]  # no reveal while it runs
    ours, _ = both(tmp_path, lines)
    assert ours.returncode == 1 and "never revealed" in ours.stderr
    alive.end()
    journal.close()


def test_seeded_runs_repeat_exactly_and_verify(tmp_path: Path):
    first = crux(tmp_path, "--seed", "42", "DEX +2b; 4d6kh3; 3x d20")
    again = crux(tmp_path, "--seed", "42", "DEX +2b; 4d6kh3; 3x d20")
    assert first.returncode == 0 and first.stdout == again.stdout
    lines = exported(tmp_path)
    assert json.loads(lines[-1])["seed"] == b"42".hex()
    ours, alone = both(tmp_path, lines)
    assert ours.returncode == 0 and alone.stdout == ours.stdout


def test_the_generator_is_as_documented():
    """crux-dice-1 by hand, from the man page: stream 1 of key SHA-256("crux-dice-1" 0x00 "3")."""
    import hashlib

    key = hashlib.sha256(b"crux-dice-1\x00" + b"3").digest()
    block = hashlib.sha256(key + (1).to_bytes(8, "big") + (0).to_bytes(8, "big")).digest()
    expected = [1 + b % 6 for b in block if b < 252][:4]
    assert Roller(seeded(3)).dice(4, 6) == expected


def test_faces_are_fair_by_rejection():
    source = seeded(1)
    counts = [0] * 7
    for _ in range(7000):
        counts[source.randint(1, 6)] += 1
    assert counts[0] == 0 and all(900 < count < 1450 for count in counts[1:])
    assert {seeded(2).randint(1, 10000) for _ in range(50)} <= set(range(1, 10001))


def test_the_man_page_is_installed_and_clean():
    assert "man/crux-verify.7" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    result = subprocess.run(["mandoc", "-Tlint", "-Wwarning", str(ROOT / "man" / "crux-verify.7")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_canonical_json_is_sorted_and_compact():
    assert canonical({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()


@pytest.mark.slow
def test_an_exported_repl_evening_verifies(tmp_path: Path):
    """A REPL evening through a real terminal: rolls, a sheet's changes, `/seed N` (a second seed), Ctrl-D."""
    from helpers.terminal import answered, environ, leave_now, start

    env = environ(tmp_path)
    made = subprocess.run([sys.executable, "-m", "crux_cli", "sheet", "new", "wren.toml", "--name", "Wren"],
                          env=env, cwd=tmp_path, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    child = start(env, "repl", "--sheet", "wren.toml", cwd=tmp_path, timeout=30)
    answered(child, "4d6kh3", "4d6kh3:")
    answered(child, "DEX +1b; 2x d20", "DEX +1b:", "2x d20 #2:")
    answered(child, "damage 2", "HP 10 → 8")
    answered(child, "/seed 9", "seed: 9")
    answered(child, "rest field 1", "rest field 1:")
    answered(child, "1d20 + DEX", "1d20 + DEX:")
    assert leave_now(child) == 0
    state = {"XDG_STATE_HOME": env["XDG_STATE_HOME"]}
    result = subprocess.run([sys.executable, "-m", "crux_cli", "log", "--export"], env={**env, **state},
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds == ["commit", *["entry"] * 4, "reveal", "commit", "entry", "entry", "reveal"], kinds
    assert [len(json.loads(line)["dice"]) for line in lines[1:5]] == [1, 1, 2, 0]  # `2x d20`: one entry, 2 streams
    assert json.loads(lines[-1])["seed"] == b"9".hex()
    ours, alone = both(tmp_path, lines)
    assert (ours.returncode, ours.stdout) == (0, "verified: 5 rolls, 1 changes\n"), ours.stderr
    assert alone.stdout == ours.stdout
    face = [json.loads(line) for line in lines]
    face[3]["dice"][1][0][1] = face[3]["dice"][1][0][1] % 20 + 1  # the second d20 of `2x d20`
    ours, alone = both(tmp_path, rechained(face))
    assert ours.returncode == 1 and "line 4:" in ours.stderr
    assert alone.stderr.startswith("line 4:")
