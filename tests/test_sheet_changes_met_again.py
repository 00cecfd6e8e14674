"""A change on a held sheet met again is found again (PERFORMANCE.md, "A change on a held sheet, met again"): the
hero after it is the one object of its state, the runner gives one update for each pair of heroes, a Grit move is
remembered, a changed line is remembered by its update, a statement's request by its tree's last hero, and a held
run's planned text parsed once. Each gives what the plain way gives."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from crux_cli.rulesets.crux.compiler import TEST
from crux_cli.rulesets.crux.engine import GRIT_CHANGES
from crux_cli.rulesets.crux.grammar import parse
from crux_cli.rulesets.crux.grit import apply_grit
from crux_cli.rulesets.crux.hero import Attribute, Hero
from crux_cli.running import modes
from crux_cli.running.modes import run_batch
from crux_cli.running.output import Output
from crux_cli.running.settings import Settings
from crux_cli.running.sheet_roll import kept_values, sheet_update
from crux_cli.state import sheet_undo, store
from crux_cli.state.sheet import new_sheet_text

WREN = Hero(name="Wren", attributes={"STR": Attribute(1, 0), "DEX": Attribute(2, 1), "WIL": Attribute(0, -1)}, grit=2)


def test_a_grit_move_gives_the_same_hero_each_time() -> None:
    earned = apply_grit(WREN, GRIT_CHANGES[0, 1])
    assert earned == WREN.with_changes(grit=3) and earned is not WREN
    assert apply_grit(WREN, GRIT_CHANGES[0, 1]) is earned  # remembered by the hero it started from
    assert apply_grit(earned, GRIT_CHANGES[1, 0]) == WREN
    assert apply_grit(WREN, GRIT_CHANGES[1, 1]) is WREN  # spent one, earned one: the very hero
    other = WREN.with_changes(name="Ash")
    assert apply_grit(other, GRIT_CHANGES[0, 1]).name == "Ash"  # an equal Grit of another hero is its own


def test_one_update_for_each_pair_of_heroes() -> None:
    after = WREN.with_changes(grit=3)
    update = sheet_update("hero.toml", WREN, after)
    assert sheet_update("hero.toml", WREN, after) is update
    assert (update.path, update.before, update.after) == ("hero.toml", WREN, after)
    assert sheet_update("other.toml", WREN, after).path == "other.toml"  # another sheet: an update of its own
    assert sheet_update("hero.toml", WREN, WREN.with_changes(grit=3)).after is not after  # equal is not the same


def test_a_hero_interned_once_is_known_by_identity_after(monkeypatch: pytest.MonkeyPatch) -> None:
    hero = store.interned(WREN.with_changes(grit=4, name="Ivo"))
    assert store.interned(hero.with_changes(name="Ivo")) is hero  # an equal hero: the one object of its state
    monkeypatch.setattr(Hero, "value_key", lambda self: pytest.fail("its values worked out again"))
    assert store.interned(hero) is hero  # the one object met again: known by its id, its values not asked


def test_the_values_a_change_writes_are_worked_out_once_for_each_pair_of_heroes() -> None:
    earned = store.interned(WREN.with_changes(grit=3))
    written = kept_values(WREN, earned)
    assert written is not None and kept_values(WREN, earned) is written  # the same pair: the very values
    old, new = written
    assert (old["grit"], new["grit"]) == (2, 3) and {k for k in old if old[k] != new[k]} == {"grit"}
    assert kept_values(WREN, WREN.with_changes(grit=2)) is None  # nothing the sheet keeps changed: no write
    # the journal's change of those values: made once, the same as sheet_change works it out
    change = sheet_undo.change_of_values("/real/hero.toml", "Wren", old, new)
    assert change == {"path": "/real/hero.toml", "who": "Wren", "before": {"grit": 2}, "after": {"grit": 3}}
    assert sheet_undo.change_of_values("/real/hero.toml", "Wren", old, new) is change
    assert sheet_undo.change_of_values("/moved/hero.toml", "Wren", old, new)["path"] == "/moved/hero.toml"
    assert {**sheet_undo.sheet_change("/real/hero.toml", WREN, earned), "path": "/real/hero.toml"} == change


def test_a_request_is_found_by_its_trees_last_hero_and_is_the_same_as_before() -> None:
    tree = parse("DEX +1b", "DEX")
    richer = WREN.with_changes(grit=5)
    first = TEST(tree, WREN, "DEX +1b")
    assert TEST(tree, WREN, "DEX +1b") is first
    other = TEST(tree, richer, "DEX +1b")
    assert other is not first and other.grit_before == 5 and first.grit_before == 2
    assert TEST(tree, WREN, "DEX +1b") is first  # the hero before the last: the memo of pairs still has it
    assert TEST(tree, None, "DEX +1b").grit_before is None  # without a hero as ever


def test_a_planned_text_is_parsed_once_and_a_refused_one_every_time(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = store.parse_sheet

    def counting(text: str, path: str = "<sheet>"):  # type: ignore[no-untyped-def]
        parsed.append(text)
        return real(text, path)

    monkeypatch.setattr(store, "parse_sheet", counting)
    monkeypatch.setattr(store, "PLANNED", {})
    text = new_sheet_text(WREN)
    hero = store.planned_hero(text, "hero.toml")
    assert hero == real(text, "hero.toml") and store.planned_hero(text, "hero.toml") is hero and len(parsed) == 1
    broken = text.replace('name = "Wren"', "name = ")
    for _ in range(2):
        with pytest.raises(store.SheetError):
            store.planned_hero(broken, "hero.toml")
    assert len(parsed) == 3


@pytest.mark.parametrize("no_journal", [False, True], ids=["journal", "no journal"])
def test_changed_lines_met_again_are_remembered_and_the_same(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                             no_journal: bool) -> None:
    """A statement that changes the sheet the same way again (its hero before and after the same, so its update
    the same object) prints the line remembered by that update: the output, the sheet and the journal are those
    of the plain way (no memo), and the memo answered most lines."""
    sheet = tmp_path / "hero.toml"
    lines = "".join(f"{line}\n" for line in ("damage 1", "heal 1", "WIL +1b grit", "DEX", "init")) * 30
    outputs, rendered = [], []
    for size in (0, modes.REMEMBERED_LINES):
        monkeypatch.setattr(modes, "REMEMBERED_LINES", size)
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / f"state-{size}"))
        sheet.write_text(new_sheet_text(WREN.with_changes(grit=5)))
        settings = Settings(seed=5, sheet=str(sheet), no_journal=no_journal)
        stdout, stderr = io.StringIO(), io.StringIO()
        output = Output(settings, stdout, stderr, environ={})
        render = output.batch_renderer()
        count = [0]

        def counted(answer, *args, render=render, count=count):  # type: ignore[no-untyped-def]
            count[0] += answer.input in ("damage 1", "heal 1")  # the 60 lines that change HP
            return render(answer, *args)

        monkeypatch.setattr(output, "batch_renderer", lambda counted=counted: counted)
        run_batch(settings, io.StringIO(lines), output)
        outputs.append((stdout.getvalue(), stderr.getvalue(), sheet.read_text(encoding="utf-8")))
        rendered.append(count[0])
    assert outputs[0] == outputs[1]
    assert outputs[0][0].count("HP 10 → 9") == 30 and outputs[0][0].count("HP 9 → 10") == 30
    assert rendered[0] == 60 and rendered[1] <= 16  # rendered once or twice for each state of the hero, not each time


def test_a_statements_context_is_found_again_for_each_state_of_the_hero(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """A batch whose hero's HP goes 10, 9, 10, 9 makes a context for each statement and state of the hero once
    (running.sheet_roll `context_of`), not again at each line after a change; the answers are the same as when
    every line makes its own."""
    from crux_cli.running import sheet_roll

    sheet = tmp_path / "hero.toml"
    lines = "".join(f"{line}\n" for line in ("damage 1", "DEX", "heal 1", "DEX", "init")) * 20
    outputs, made = [], []
    monkeypatch.setattr(modes, "REDRAWN", False)  # every line rolled, so each asks for its context
    for kept in (0, sheet_roll.KEPT_HEROES):
        monkeypatch.setattr(sheet_roll, "KEPT_HEROES", kept)
        monkeypatch.setattr(sheet_roll, "CONTEXTS", {})
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / f"state-{kept}"))
        sheet.write_text(new_sheet_text(WREN))
        contexts: list[object] = []
        real = sheet_roll.Context

        def counting(*args, real=real, contexts=contexts):  # type: ignore[no-untyped-def]
            contexts.append(args)
            return real(*args)

        monkeypatch.setattr(sheet_roll, "Context", counting)
        settings = Settings(seed=5, sheet=str(sheet))
        stdout, stderr = io.StringIO(), io.StringIO()
        run_batch(settings, io.StringIO(lines), Output(settings, stdout, stderr, environ={}))
        outputs.append((stdout.getvalue(), stderr.getvalue(), sheet.read_text(encoding="utf-8")))
        made.append(len(contexts))
    assert outputs[0] == outputs[1] and outputs[0][0].count("HP 10 → 9") == 20
    # kept by text alone (KEPT_HEROES 0: every hero forgotten), DEX and init met a new hero at most lines
    # 5 statements, 2 states of the hero; and each statement's first line, read once and so kept by nothing
    assert made[0] >= 40 and made[1] <= 15
