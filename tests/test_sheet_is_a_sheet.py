"""A sheet is a sheet (issue 37): a file with no `name` (empty, cut short, another program's TOML) is refused as
"not a crux sheet" and left as it was; and just before crux replaces a sheet, the file must still hold what crux
read, byte for byte, so an editor's save (even one keeping the size and the times) is never written over."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import crux_here

import crux_cli
from crux_cli.core.errors import SheetError
from crux_cli.state import store

SHEET = ('name = "Wren"\n[attributes]\nDEX = { modifier = 2, rating = 1 }\n[status]\ngrit = 2\nhp = 10\nhp_max = 10\n'
         '# my notes\n')


def as_it_was(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), os.stat(path).st_mtime_ns


@pytest.mark.parametrize("text", [
    "",  # `: > wren.toml`, or an editor's save caught between its truncate and its write
    "\n\n",
    "[status]\nhp = 9\n",  # the end of a sheet whose start is gone
    'rules = "crux"\n[attributes]\n',  # a sheet's first lines and nothing of a hero
    "# only a comment\n",
])
@pytest.mark.parametrize("statement", ["damage 1", "DEX", "heal 1"])
def test_a_file_with_no_name_is_not_a_sheet_and_is_left_as_it_was(tmp_path: Path, text: str, statement: str) -> None:
    path = tmp_path / "wren.toml"
    path.write_text(text, encoding="utf-8")
    before = as_it_was(path)
    result = crux_here("--sheet", str(path), statement)
    assert result.returncode == 2
    assert f"{path}: not a crux sheet: it has no `name`" in result.stderr, result.stderr
    assert "left the file as it was" in result.stderr
    assert as_it_was(path) == before
    batch = crux_here("--sheet", str(path), "-", stdin=f"{statement}\n{statement}\n")
    assert batch.returncode == 2 and "not a crux sheet" in batch.stderr
    assert as_it_was(path) == before


def test_the_library_refuses_a_sheet_with_no_name(tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(SheetError, match="not a crux sheet"):
        crux_cli.roll("damage 1", sheet=path)
    with pytest.raises(SheetError, match="not a crux sheet"):
        crux_cli.read_sheet("[status]\nhp = 3\n")
    assert path.read_bytes() == b""


@pytest.mark.parametrize("editor", ["half-written", "same size and times", "grown"])
def test_a_sheet_changed_after_crux_read_it_is_not_written_over(tmp_path: Path, editor: str) -> None:
    """Between crux's read and its rename, an editor saved in place: crux refuses and leaves the editor's text."""
    path = tmp_path / "wren.toml"
    path.write_text(SHEET, encoding="utf-8")
    theirs = {"half-written": 'name = "Wren"\n[attri',
              "same size and times": SHEET.replace("my notes", "MY NOTES"),
              "grown": SHEET + "# more notes\n"}[editor]
    with pytest.raises(SheetError, match="changed while crux was changing it") as refused, \
            store.sheet_transaction(path) as sheet:
        hero = sheet.hero
        stamp = os.stat(path)
        path.write_text(theirs, encoding="utf-8")  # in place, as nano, VS Code or `>` save
        if editor == "same size and times":
            os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        sheet.save(hero.with_changes(hp=7))  # type: ignore[attr-defined]
    assert "not written over it" in refused.value.message
    assert path.read_text(encoding="utf-8") == theirs
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # no temporary file left


def test_a_held_batch_refuses_to_write_over_a_save_made_after_its_last_look(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch holding the sheet reads it again before it writes (plan); a save after that look is kept."""
    path = tmp_path / "wren.toml"
    path.write_text(SHEET, encoding="utf-8")
    theirs = SHEET.replace("my notes", "the editor's")
    planned = store.HeldRun.plan

    def plan_then_an_editor_saves(run: store.HeldRun) -> tuple[dict[str, object], dict[str, object]]:
        made = planned(run)
        path.write_text(theirs, encoding="utf-8")
        return made

    monkeypatch.setattr(store.HeldRun, "plan", plan_then_an_editor_saves)
    result = crux_here("--sheet", str(path), "-", stdin="damage 1\ndamage 1\n")
    assert f"{path}: the sheet changed while crux was changing it" in result.stderr, result.stdout + result.stderr
    assert f"{path}: {path}" not in result.stderr
    assert path.read_text(encoding="utf-8") == theirs


def test_an_unchanged_sheet_is_written_as_before(tmp_path: Path) -> None:
    path = tmp_path / "wren.toml"
    path.write_text(SHEET, encoding="utf-8")
    assert crux_here("--sheet", str(path), "damage 3").returncode == 0
    assert crux_here("--sheet", str(path), "-", stdin="damage 1\nheal 1\ndamage 1\n").returncode == 0
    assert "hp = 6" in path.read_text(encoding="utf-8") and "# my notes" in path.read_text(encoding="utf-8")
