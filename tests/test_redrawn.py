"""A remembered line's statement drawn again without its engine (PERFORMANCE.md, "A remembered line is drawn
again"): the draws a statement made are learnt by the faces drawn so far, a statement read again is drawn along
them, and one that draws a way not met yet is rewound and rolled, drawing the same dice. Output, journal and
sheet are what rolling every line gives."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import crux_here

from crux_cli.core.rng import Draws, Roller, drawn_along, learn_draws, seeded
from crux_cli.core.ruleset import SheetUpdate
from crux_cli.running import modes
from crux_cli.running.modes import run_batch
from crux_cli.running.output import Output
from crux_cli.running.runner import Runner
from crux_cli.running.settings import Settings, make_runner


def exploding(roller: Roller) -> None:
    """An engine's draws: a d6 that explodes on 6 (a die at a time, as `die` draws), then 2d4 when the first was
    odd: which dice come next depends on the faces drawn so far."""
    face = roller.dice(1, 6)[0]
    first = face
    while face == 6:
        face = roller.die(6)
    if first % 2:
        roller.dice(2, 4)


def test_the_calls_of_a_record_are_learnt_by_the_faces_before_them() -> None:
    paths: Draws = {}
    learn_draws(paths, (6, 1, 6, 6, 1, 3, 4, 2, 1, 4))
    assert paths == {(): (6, 1), (6, 1, 6): (6, 1), (6, 1, 6, 6, 1, 3): (4, 2), (6, 1, 6, 6, 1, 3, 4, 2, 1, 4): ()}
    learn_draws(paths, ())  # a statement that draws nothing is done at once
    assert paths[()] == ()


def test_drawn_along_gives_the_faces_rolling_gives_and_rewinds_on_a_way_not_met() -> None:
    """Two streams of one seed, statement by statement: one rolled by the engine every time, the other drawn along
    what was learnt when it can be and rolled when not. The records and the streams stay the same throughout."""
    rolled, redrawn = seeded(11), seeded(11)
    paths: Draws = {}
    hits = misses = 0
    for _ in range(400):
        engine = Roller(rolled)
        engine.drawn = []
        exploding(engine)
        again = Roller(redrawn)
        again.drawn = []
        faces = drawn_along(again, again.drawn, redrawn, paths)
        if faces is None:  # rewound: rolled as a new statement would be
            misses += 1
            again = Roller(redrawn)
            again.drawn = []
            exploding(again)
            faces = tuple(again.drawn)
            learn_draws(paths, faces)
        else:
            hits += 1
        assert faces == tuple(engine.drawn)
        assert (redrawn.number, redrawn.at, redrawn.buffer) == (rolled.number, rolled.at, rolled.buffer)
    assert hits > 300 and misses > 20  # 1d6! with 2d4 after odd faces: dozens of ways, most met again
    assert any(len(record) > 6 for record in paths)  # an explosion was drawn along


def batch_output(lines: str, monkeypatch: pytest.MonkeyPatch, redrawn: bool, **settings: Any) -> tuple[str, str, int]:
    """Output, errors and how many lines the runner answered (`Runner.each`) of one batch, drawn again or not."""
    monkeypatch.setattr(modes, "REDRAWN", redrawn)
    answered = [0]
    real = Runner.each

    def each(self: Runner, line: str) -> Any:
        answered[0] += 1
        return real(self, line)

    monkeypatch.setattr(Runner, "each", each)
    chosen = Settings(**settings)
    stdout, stderr = io.StringIO(), io.StringIO()
    run_batch(chosen, io.StringIO(lines), Output(chosen, stdout, stderr, environ={}))
    monkeypatch.setattr(Runner, "each", real)
    return stdout.getvalue(), stderr.getvalue(), answered[0]


def journal(state: Path) -> list[dict[str, Any]]:
    """`crux log --json`, without what differs from run to run (session, time) or names the state folder."""
    out = crux_here("log", "--json", "-n", "100000", env={"XDG_STATE_HOME": str(state)}).stdout
    entries = []
    for line in out.splitlines():
        entry = json.loads(line)
        for name in ("session", "time", "id"):
            entry.pop(name, None)
        entries.append(entry)
    return entries


MIX = ("d6!", "d20", "DEX +1b", "2d6+3", "d6; d6", "d20 # a comment", "2x d6", "init", "d4! + 1", "odds d6",
       "atk d8 heavy", "save WIL adv", "8d6", "nonsense here", "3d6kh1")


@pytest.mark.parametrize("no_journal", [False, True], ids=["journal", "no journal"])
def test_a_batch_drawn_again_prints_and_journals_what_rolling_every_line_does(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_journal: bool) -> None:
    lines = "".join(f"{line}\n" for line in MIX) * 120
    runs = []
    for redrawn in (False, True):
        state = tmp_path / f"state-{redrawn}"
        monkeypatch.setenv("XDG_STATE_HOME", str(state))
        runs.append((*batch_output(lines, monkeypatch, redrawn, seed=9, no_journal=no_journal), state))
    (rolled, rolled_errors, rolled_count, rolled_state), (drawn, drawn_errors, drawn_count, drawn_state) = runs
    assert drawn == rolled and drawn_errors == rolled_errors
    assert "nonsense" in rolled_errors and rolled.count("\n") > 1500
    assert rolled_count == 120 * len(MIX)  # rolled: the runner answers every line
    assert drawn_count < rolled_count - 600  # most lines were drawn again, not answered by the runner
    if not no_journal:
        assert journal(drawn_state) == journal(rolled_state) and len(journal(rolled_state)) > 1500


def sheet_batch(folder: Path, lines: str, monkeypatch: pytest.MonkeyPatch, redrawn: bool, grit: int,
                seed: int, name: str = "Wren", **settings: Any) -> tuple[str, str, str, list[dict[str, Any]], int]:
    """One batch on a new sheet of `name` at `grit` in `folder`: its output, errors, sheet afterwards, journal (the
    folder's name left out) and how many lines the runner answered."""
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.state.sheet import new_sheet_text

    folder.mkdir()
    sheet = folder / "hero.toml"
    sheet.write_text(new_sheet_text(Hero(name=name, attributes={"STR": Attribute(1, 0), "DEX": Attribute(2, 1),
                                                                "WIL": Attribute(0, -1)}, grit=grit)))
    monkeypatch.setenv("XDG_STATE_HOME", str(folder / "state"))
    out, errors, count = batch_output(lines, monkeypatch, redrawn, seed=seed, sheet=str(sheet), **settings)
    entries = [json.loads(json.dumps(entry).replace(str(folder), "FOLDER")) for entry in journal(folder / "state")]
    return out, errors, sheet.read_text(encoding="utf-8"), entries, count


def test_a_batch_on_a_sheet_drawn_again_changes_and_prints_what_rolling_every_line_does(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Grit earned and spent moves the hero among a few states; a roll is drawn again by its hero, whether it left
    the hero as it was or changed it. Output, sheet and journal are the same."""
    lines = "".join(f"{line}\n" for line in ("DEX", "d20", "WIL +1b grit", "d6!", "save STR dis", "init", "STR",
                                           "DEX +1b # noted", "2x INT", "show")) * 100
    runs = [sheet_batch(tmp_path / f"run-{redrawn}", lines, monkeypatch, redrawn, grit=2, seed=4)
            for redrawn in (False, True)]
    assert runs[0][:4] == runs[1][:4]
    assert "Grit 2 → 1" in runs[0][0] and "Wren: Grit" in runs[0][0] and len(runs[0][3]) >= 1000
    assert runs[1][4] < runs[0][4] - 200  # lines on the sheet were drawn again


def test_a_crux_hero_shares_its_lines_from_grit_1_to_5_but_for_a_kept_1_at_full_grit() -> None:
    """Seed 001 §3.1: "You gain 1 Grit when ... The kept die ... shows a 1 ... You are not already at 5 Grit"; §3.2
    "Cost: 1 Grit". A roll that leaves the hero as it was reads only that it has Grit, so its line is the same from
    1 to 5: one hero stands for them all. Not at 0 (`grit` is refused), nor a kept 1 at 5 with nothing spent."""
    from crux_cli.rulesets.crux.engine import GRIT_CHANGES, PoolRequest, PoolResult
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.rulesets.crux.ruleset import shared

    wren = Hero(name="Wren", attributes={"DEX": Attribute(2, 1)}, grit=3)
    standing = shared(wren, None)
    assert standing == wren.with_changes(grit=1)
    assert all(shared(wren.with_changes(grit=grit), None) is standing for grit in range(1, 6))
    assert shared(wren.with_changes(grit=0), None) is None
    assert shared(wren.with_changes(dying=True), None) is None and shared(wren.with_changes(dead=True), None) is None
    request = PoolRequest("test", "DEX")

    def rolled(kept: int, spent: int, gained: int) -> PoolResult:
        return PoolResult(request, (kept,), kept, "failure" if kept < 4 else "success", GRIT_CHANGES[spent, gained])

    full = wren.with_changes(grit=5)
    assert shared(full, rolled(1, 0, 0)) is None  # below 5 it would have earned 1: its line is not theirs
    assert shared(full, rolled(6, 0, 0)) is standing and shared(full, rolled(1, 1, 1)) is standing  # spent and earned
    assert shared(wren, rolled(3, 0, 0)) is standing


def test_a_line_shared_by_a_heros_grit_states_prints_and_journals_what_each_its_own_does(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A batch whose hero's Grit goes up and down from 1 to 5 draws a statement again by the hero standing for them
    all (`SheetKeeping.shared`), its line ending with the hero's own suffix: output, sheet and journal are those
    of lines kept by each hero, and more lines are drawn again."""
    lines = "".join(f"{line}\n" for line in ("DEX", "WIL +1b grit", "save STR dis", "init", "STR", "atk d6",
                                           "d20", "init ambush", "INT -1B", "atk d12 rushed")) * 150
    runs = []
    for sharing in (False, True):
        monkeypatch.setattr(modes, "SHARED_LINES", sharing)
        runs.append(sheet_batch(tmp_path / f"run-{sharing}", lines, monkeypatch, True, grit=4, seed=7))
    assert runs[0][:4] == runs[1][:4]
    out = runs[0][0]
    assert all(f"Wren: Grit {grit}\n" in out for grit in range(1, 6))  # the hero went through every state it shares
    assert runs[1][4] < runs[0][4] - 50  # the states' lines were drawn again by the one hero standing for them


def test_a_dice_line_beside_a_sheet_reads_the_hero_only_when_it_names_an_attribute(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`d20+5` beside a batch's sheet is rolled with no hero in its context (kept by text whatever the hero's Grit
    does); `1d20 + DEX` is given the hero the held run holds, and adds its DEX."""
    from crux_cli.core.ruleset import Context
    from crux_cli.running import runner as runner_module

    heroes: dict[str, list[Any]] = {}
    real = Context

    def context(roller: Any, hero: Any, text: str) -> Any:
        heroes.setdefault(text, []).append(hero)
        return real(roller, hero, text)

    monkeypatch.setattr(runner_module, "Context", context)
    out = sheet_batch(tmp_path / "run", "d20+5\n1d20 + DEX\nWIL +1b grit\n" * 3, monkeypatch, True, grit=3,
                      seed=1)[0]
    assert heroes["d20+5"] and all(hero is None for hero in heroes["d20+5"])
    assert heroes["1d20 + DEX"] and all(hero is not None and hero.name == "Wren" for hero in heroes["1d20 + DEX"])
    assert out.count("+ 2 [DEX]") == 3  # Wren's DEX modifier


def test_a_change_met_again_is_made_again_without_its_engine_and_announced_as_rolled(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A roll that changes its hero (Grit spent, Grit earned) is drawn again from the same hero and faces: the
    engine is pure, so it gives the same answer and hero after (running.sheet_roll `changed_again`). The write is
    announced before it is made, as a rolled change's is (state.journal `note_write`, the intent a kill settles),
    and output, sheet and journal are those of every line rolled."""
    from crux_cli.running import sheet_roll
    from crux_cli.state.journal import Journal

    lines = "".join(f"{line}\n" for line in ("WIL +1b grit", "save STR dis", "DEX", "save INT adv -2B",
                                           "atk d12 rushed resist")) * 200
    again, announced = [0], [0]
    made_again, announce = sheet_roll.changed_again, Journal.note_write

    def counted_again(*args: Any) -> Any:
        shown = made_again(*args)
        again[0] += shown is not None
        return shown

    def counted_announce(self: Journal, *args: Any, **named: Any) -> None:
        announced[0] += 1
        announce(self, *args, **named)

    monkeypatch.setattr(sheet_roll, "changed_again", counted_again)
    monkeypatch.setattr(Journal, "note_write", counted_announce)
    runs, announcements = [], []
    for redrawn in (False, True):
        announced[0] = 0
        runs.append(sheet_batch(tmp_path / f"run-{redrawn}", lines, monkeypatch, redrawn, grit=3, seed=11))
        announcements.append(announced[0])
    assert runs[0][:4] == runs[1][:4]
    changes = sum(1 for line in runs[0][0].splitlines() if re.search(r"Wren: Grit \d+ → \d+$", line))
    assert changes > 250 and announcements == [changes, changes]  # each change announced, drawn again or rolled
    assert again[0] > 80  # changes met again were made again from their hero and faces
    assert runs[1][4] < runs[0][4] - again[0]  # and not answered by the runner


def test_a_line_of_a_heros_own_beside_shared_ones_is_drawn_again_as_they_are(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """At 5 Grit a kept 1 with nothing spent is a line of the hero's own (below 5 it would earn Grit, seed 001
    §3.1), not shared: its draws are learnt with the shared lines', so it is drawn again too. `save STR dis` keeps
    the lower of 2d6 (a 1 in 11 rolls of 36): 300 lines hold 36 ways, each rolled once or twice, the rest drawn
    again."""
    lines = "save STR dis\n" * 300
    runs = [sheet_batch(tmp_path / f"run-{redrawn}", lines, monkeypatch, redrawn, grit=5, seed=3)
            for redrawn in (False, True)]
    assert runs[0][:4] == runs[1][:4]
    assert "[1, " in runs[0][0] or ", 1]" in runs[0][0]  # kept 1s were rolled, at full Grit (nothing earned)
    assert "Grit 5 →" not in runs[0][0] and runs[0][4] == 300
    assert runs[1][4] < 80  # with them always rolled, some 37 ways and 90 kept 1s


@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_a_shared_line_is_its_body_then_its_heros_suffix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         colour: bool) -> None:
    """A line shared by a hero's Grit states is kept as the answer's text without its suffix (render.text
    `answer_line(sheet=False)`) and ends with its own hero's suffix. A suffix that is not printable as it is
    (colours) leaves the whole line to the renderer, whose end is then cut off: the output is that of lines kept
    each by its own hero, in colour or not, whatever the hero's name is written in."""
    lines = "".join(f"{line}\n" for line in ("DEX", "WIL +1b grit", "save STR dis", "STR", "atk d6")) * 80
    for name in ("Wren", "Ærwyn Þórsdóttir"):
        runs = []
        for sharing in (False, True):
            monkeypatch.setattr(modes, "SHARED_LINES", sharing)
            runs.append(sheet_batch(tmp_path / f"run-{name.isascii()}-{sharing}", lines, monkeypatch, True,
                                    grit=4, seed=5, name=name, color="always" if colour else "never"))
        assert runs[0][:4] == runs[1][:4]
        out = runs[0][0]
        assert ("\x1b[" in out) is colour and out.count(name) > 300
        assert runs[1][4] < runs[0][4]  # lines were shared


def test_an_answer_line_is_its_text_without_the_sheet_then_the_suffix() -> None:
    from crux_cli.core.style import Palette
    from crux_cli.render.text import answer_line
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.rulesets.crux.sheet_render import sheet_suffix

    runner = make_runner(Settings(seed=2))
    answer = runner.answer("DEX +1b")
    hero = Hero(name="Wren", attributes={"DEX": Attribute(2, 1)}, grit=3)
    on_sheet = answer.replace(sheet=SheetUpdate("hero.toml", hero, hero))
    for palette in (Palette(False), Palette(True)):
        assert answer_line(on_sheet, palette) == f"{answer_line(on_sheet, palette, sheet=False)} · " \
            f"{sheet_suffix(on_sheet, palette)}"
        assert answer_line(on_sheet, palette, sheet=False) == answer_line(answer, palette)


def test_a_batch_on_a_sheet_keeps_twice_the_lines_before_dropping_them(tmp_path: Path) -> None:
    """A line on a sheet is kept by its hero too (the one standing for its Grit, its own, a change by the hero
    before), so the same statements make more lines: a batch on a sheet keeps SHEET_LINES times REMEMBERED_LINES
    before it drops them all; without a sheet, or with JSON output (nothing remembered), as before."""
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.state.sheet import new_sheet_text

    sheet = tmp_path / "hero.toml"
    sheet.write_text(new_sheet_text(Hero(name="Wren", attributes={"DEX": Attribute(2, 1)}, grit=2)))
    limits = []
    for chosen in (Settings(seed=1), Settings(seed=1, sheet=str(sheet)), Settings(seed=1, sheet=str(sheet), json=True)):
        remembered = modes.remembering(make_runner(chosen), Output(chosen, io.StringIO(), io.StringIO(), environ={}))[0]
        limits.append(remembered.limit if remembered is not None else None)
    assert limits == [modes.REMEMBERED_LINES, modes.SHEET_LINES * modes.REMEMBERED_LINES, None]
    assert modes.SHEET_LINES == 2
