"""`crux log --stats` tells the truth (issue 36): a fight's and a sheet's rolls are counted (their dice are in
the journal's answers), a die or statement rolled a few times is "too few to tell", and the many tests of one
report are corrected together (Holm), so a fair evening is not flagged by chance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import crux_here

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner
from crux_cli.running.stats import MIN_EXPECTED, answer_dice, chi_square, holm
from crux_cli.state.journal import Journal


def stats_of(*args: str) -> dict:
    result = crux_here("log", "--stats", "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def faces_of(stats: dict) -> dict[str, dict[str, int]]:
    return {face["die"]: face["counts"] for face in stats["faces"]}


def test_stats_after_a_scripted_fight_count_the_fights_dice() -> None:
    faces = [5, 3,  # initiative: Wren 5, Bram 3
             6,  # Wren atk ogre d8: 6
             4, 2,  # her second attack, rushed: 2d8 keep lowest
             1,  # Bram's save STR: d6 1
             3, 5,  # the ogre's atk 2d6 on Bram
             2, 6]  # a plain 2d6 rolled in the fight
    session = Session(Runner(source=ScriptedSource(faces)))
    session.journal = Journal.open()
    for line in ("fight", "hero Wren", "hero Bram", "enemy ogre hp 30 atk 2d6", "init", "atk ogre d8",
                 "atk ogre d8", "next", "save STR", "next", "atk Bram", "2d6"):
        out = session.handle(line)
        assert not any(text.startswith("crux: error") for text in out), (line, out)
    session.journal.close()
    stats = stats_of()
    counted = faces_of(stats)
    assert counted["d8"] == {"1": 0, "2": 1, "3": 0, "4": 1, "5": 0, "6": 1, "7": 0, "8": 0}
    assert counted["d6"] == {"1": 1, "2": 1, "3": 2, "4": 0, "5": 2, "6": 1}  # init, save, the ogre, 2d6
    assert stats["rolls"] == 2 + 2 + 1 + 1 + 1 == stats["kept_whole"] and stats["plain"] == 0
    assert all(face["too_few"] and face["fair"] is None for face in stats["faces"])  # a handful: too few
    text = crux_here("log", "--stats").stdout
    assert "7 rolls counted (0 plain, 7 with a sheet or a hero or in a fight)" in text
    assert "too few to tell" in text and "fair  [" not in text


def test_a_sheets_one_shot_rolls_are_counted_and_their_outcomes_left_to_the_plain_ones(tmp_path: Path) -> None:
    sheet = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Ann", "--attr", "DEX=+0/2", stdin="").returncode == 0
    crux_here("--sheet", str(sheet), "--seed", "4", "-", stdin="DEX\n" * 40)  # 3d6 keep highest: her rating
    crux_here("--seed", "5", "-", stdin="DEX\n" * 40)
    stats = stats_of()
    assert stats["rolls"] == 80 and stats["plain"] == 40 and faces_of(stats)["d6"] and \
        sum(faces_of(stats)["d6"].values()) == 40 * 3 + 40
    [dex] = stats["outcomes"]
    assert dex["rolled"] == 40  # the plain rolls' outcomes only: her rating changes the odds of `DEX`


def test_rolls_whose_dice_the_journal_does_not_show_are_named_in_the_head_line(tmp_path: Path) -> None:
    sheet = tmp_path / "ann.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Ann", stdin="").returncode == 0
    session = Session(Runner(sheet=str(sheet), source=ScriptedSource([5, 4])))
    session.journal = Journal.open()
    for line in ("damage 5", "rest field 1", "DEX"):  # the Hit Die's sides are the sheet's, not the answer's
        session.handle(line)
    session.journal.close()
    stats = stats_of()
    assert stats["left_out"] == {"rest field": 1} and stats["rolls"] == 1
    text = crux_here("log", "--stats").stdout
    assert "left out: 1 roll whose dice the journal does not show (rest field 1)" in text


@pytest.mark.parametrize(("answer", "dice"), [
    ({"kind": "test", "rules": "crux", "dice": [2, 5]}, [(6, [2, 5])]),
    ({"kind": "attack", "rules": "crux", "sides": 8, "primary": {"dice": [8, 3]}, "dice": [2], "explosions": [7]},
     [(8, [8, 3, 2, 7])]),
    ({"kind": "dice", "rules": "crux", "terms": [{"notation": "4d6kh3", "dice": [
        {"value": 1, "kept": False, "dropped": True}, {"value": 6, "kept": True}]}, {"notation": "+2"}]},
     [(6, [1, 6])]),
    ({"kind": "dice", "terms": [{"notation": "d6!!", "dice": [{"value": 9, "kept": True, "parts": [6, 3]}]}]},
     [(6, [6, 3])]),
    ({"kind": "damage", "rules": "crux", "amount": 3}, []),  # rolls nothing
    ({"kind": "rest field", "rules": "crux", "dice": [5]}, None),  # the Hit Die's sides are not in it
    ({"kind": "check", "rules": "omens", "dice": [3]}, None),  # a rule set's answer not read here
    ({"kind": "test", "rules": "crux", "dice": [7]}, None),  # not a d6's face: not faces crux wrote
])
def test_the_dice_an_answer_kept_whole_shows(answer: dict, dice: list | None) -> None:
    assert answer_dice(answer) == dice


def test_too_few_to_tell_below_the_stated_minimum() -> None:
    assert chi_square([3, 2, 1, 0, 0, 0], [1.0] * 6)[2] is None  # six rolls of a d6: too few
    assert chi_square([5] * 6, [MIN_EXPECTED] * 6)[2] == pytest.approx(1.0)  # 30 rolls: each face expected 5
    assert chi_square([1, 0], [0.9, 0.1])[2] is None  # one roll of a statement


def test_holm_adjusts_each_p_value_for_the_others() -> None:
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.2]) == [0.2]


def test_a_fair_evening_of_many_dice_and_statements_is_not_flagged_by_chance() -> None:
    """Forty statements and six dice tested at 0.01 each flag a fair evening about a third of the time; with
    Holm's correction the whole report is flagged under 1 % of the time. A p-value of 0.004 among 46 tests
    is chance, not a loaded die."""
    from crux_cli.running.stats import judged

    rows = [{"p": 0.004}, *({"p": 0.5} for _ in range(45))]
    judged(rows, "fair")
    assert rows[0]["p_holm"] == pytest.approx(0.184) and rows[0]["fair"]
    assert all(row["fair"] for row in rows)


def test_a_run_counted_by_kind_adds_what_the_loop_adds(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Tally.add_grouped` (each distinct roll of a run read once, issue 38) adds exactly what `add_run`'s loop
    adds roll by roll: faces, rolls, plain rolls and outcomes, with items of every shape (a hero's, a rule set's
    own, faces that do not read), and with the outcomes' window filling in the middle of a run."""
    import random

    from crux_cli.running import stats

    draw = random.Random(38)
    shapes = [[0, [6, 2, 2, 5]], [1, [6, 4, 1, 2, 3, 4]], [2, [8, 2, 7, 1, 6, 1, 4]], [0, [6, 2, 2, 5], 0],
              [1, {"rules": "crux", "faces": [6, 1, 6]}], [1, {"faces": [6, 1, 6], "hero": {"name": "Wren"}}],
              [0, [6, 2, 9, 5]], [7, [6, 1, 3]], [0, [6, 3]], [0, "faces"], 5, {"x": 1}, [0, [6.0, 1, 3]],
              [0, [-3, 1, 2]], [True, [6, 1, 2]], [2, [2, 1, 2]]]
    statements = ["DEX +1b", "4d6kh3", "atk 2d8+3 heavy"]

    def counted(grouped_from: int, plain_before: int, runs: list[list]) -> tuple:
        monkeypatch.setattr(stats, "GROUPED_FROM", grouped_from)
        tally = stats.Tally()
        tally.plain = plain_before
        for items in runs:
            tally.add_run("crux", None, statements, items)
        return tally.faces, tally.rolls, tally.plain, tally.outcomes, tally.left_out

    for _ in range(30):
        runs = [[draw.choice(shapes) for _ in range(draw.choice((3, 40, 300, 1024)))]
                for _ in range(draw.randint(1, 4))]
        before = draw.choice((0, stats.OUTCOMES_FROM - 500, stats.OUTCOMES_FROM - 10, stats.OUTCOMES_FROM))
        assert counted(16, before, runs) == counted(1 << 30, before, runs)


def test_outcomes_as_likely_as_each_other_are_listed_in_one_order_whatever_the_hash_seed() -> None:
    """`crux log --stats` listed a statement's outcomes of equal odds (an attack's crit and miss) in a set's
    order, which changes from process to process: two runs over one journal printed different reports."""
    import os
    import subprocess
    import sys

    probe = ("from collections import Counter\nfrom crux_cli.running.stats import outcome_report\n"
             "print(list(outcome_report('crux', 'atk 2d8+3 heavy', Counter(hit=5, miss=1))['counts']))")
    orders = {subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert len(orders) == 1, orders
