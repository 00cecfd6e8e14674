"""Bytes that are not UTF-8 (issue 28): Python reads the command line and the environment with surrogate
escapes, which nothing can write back out as text. A statement, a comment, a path or a variable holding
one is refused before anything is read or written, with a caret under it and a hint; batch input reads
such bytes as U+FFFD and goes on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CRUX, crux_here, run_crux

import crux_cli
from crux_cli.core.errors import CruxError
from crux_cli.core.lines import undecodable
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner

CAFE = "caf\udce9"  # b"caf\xe9" (Latin-1) as Python decodes it from argv or the environment


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "ok.toml"
    assert crux_here("sheet", "new", str(path)).returncode == 0
    return path


def journal_size(state: Path) -> int:
    return sum(file.stat().st_size for file in state.rglob("*") if file.is_file())


def test_where_a_byte_is_not_utf8() -> None:
    assert undecodable("damage 1 # café") is None and undecodable("d6") is None
    assert undecodable(f"damage 1 # {CAFE}") == 14


def test_a_comment_in_latin1_is_refused_before_the_sheet_is_written(sheet: Path, own_state_dir: Path) -> None:
    """It applied the damage, then ended in an internal error (UnicodeEncodeError) with nothing journaled:
    a retry applied it again."""
    before, journaled = sheet.read_bytes(), journal_size(own_state_dir)
    done = run_crux("--sheet", str(sheet), f"damage 1 # {CAFE}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "crux: error: this argument holds the byte 0xe9, which is not UTF-8 text",
        "  damage 1 # caf?",
        "                ^",
        "  hint: crux reads its input as UTF-8: type it again in a UTF-8 terminal, or give the file a UTF-8 name"]
    assert sheet.read_bytes() == before and journal_size(own_state_dir) == journaled


@pytest.mark.parametrize("args", [["--sheet", f"{CAFE}.toml", "d6"], ["--rules", CAFE, "d6"],
                                  ["sheet", "show", f"{CAFE}.toml"], ["odds", f"d6 # {CAFE}"]])
def test_an_option_or_a_path_in_latin1_is_refused(args: list[str]) -> None:
    done = run_crux(*args)
    assert done.returncode == 2 and "which is not UTF-8 text" in done.stderr and "internal error" not in done.stderr


def test_a_sheet_whose_name_is_not_utf8_is_refused_not_an_internal_error_on_every_roll(sheet: Path) -> None:
    latin1 = sheet.with_name(f"{CAFE}.toml")
    latin1.write_bytes(sheet.read_bytes())
    for args in (["--sheet", str(latin1), "damage 1"], ["--sheet", str(latin1), "d6"]):
        done = run_crux(*args)
        assert done.returncode == 2 and "the byte 0xe9" in done.stderr and "internal error" not in done.stderr
    assert latin1.read_bytes() == sheet.read_bytes()


@pytest.mark.parametrize("variable", ["CRUX_SHEET", "CRUX_SESSION", "CRUX_RULES"])
def test_a_variable_in_latin1_is_refused_with_its_name(variable: str) -> None:
    done = run_crux("d6", env={variable: f"s{CAFE}"})
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert done.stderr.startswith(f"crux: error: {variable} holds the byte 0xe9, which is not UTF-8 text\n"
                                  f"  {variable}=scaf?\n")


def test_batch_input_reads_latin1_as_replacement_characters_and_goes_on(sheet: Path) -> None:
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    done = subprocess.run([*command, "--sheet", str(sheet), "--seed", "1", "-"],
                          input=b"damage 1 # caf\xe9\nd8\n", capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8").splitlines()
    assert out[0].startswith("damage 1: 1 damage") and out[0].endswith("# caf\ufffd") and out[1].startswith("d8: ")


def test_the_session_and_the_library_refuse_it_too() -> None:
    session = Session(Runner(seed=1))
    for line in (f"damage 1 # {CAFE}", f"/sheet {CAFE}.toml"):
        out = session.handle(line)
        assert out[0] == "crux: error: this line holds a byte that is not UTF-8 text", out
    assert not session.recent
    with pytest.raises(CruxError, match="not UTF-8"):
        crux_cli.roll(f"d6 # {CAFE}")
