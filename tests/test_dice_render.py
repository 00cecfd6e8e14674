"""Dice answers as text and JSON: every die shown, dropped and rerolled dice marked, labels and indexes."""

from __future__ import annotations

import json

from helpers import crux_here

from crux_cli.core.rng import ScriptedSource
from crux_cli.core.style import PLAIN, Palette
from crux_cli.render.jsonl import record
from crux_cli.render.text import answer_line
from crux_cli.running.runner import Runner


def answers(text: str, faces: list[int], repeat: int = 1):
    source = ScriptedSource(faces)
    out = Runner(source=source, seed=None, repeat=repeat).execute(text)
    assert source.left == 0
    return out


def line(text: str, faces: list[int]) -> str:
    return answer_line(answers(text, faces)[0], PLAIN)


def test_text_shows_the_total_then_every_die_with_dropped_ones_struck():
    assert line("4d6kh3", [2, 4, 4, 5]) == "4d6kh3: 13 · 4d6kh3 [~~2~~, 4, 4, 5]"


def test_text_shows_arithmetic_labels_and_the_comment():
    assert line("roll 2d20kl1 + 5 [fire] # goblin", [7, 15]) == \
        "roll 2d20kl1 + 5 [fire]: 12 · 2d20kl1 [7, ~~15~~] + 5 [fire]  # goblin"
    assert line("(2d4+1)*3", [2, 3]) == "(2d4+1)*3: 18 · (2d4 [2, 3] + 1) * 3"


def test_text_marks_explosions_rerolls_compounding_and_successes():
    assert line("d6!", [6, 2]) == "d6!: 8 · 1d6! [6!, 2]"
    assert line("d6rr1", [1, 3]) == "d6rr1: 3 · 1d6rr1 [~~1~~r, 3]"
    assert line("d6!!", [6, 6, 1]) == "d6!!: 13 · 1d6!! [13!!(6+6+1)]"
    assert line("3d10>=8", [8, 2, 9]) == "3d10>=8: 2 successes · 3d10>=8 [8*, 2, 9*]"
    assert line("4dF", [1, 2, 3, 3]) == "4dF: 1 · 4dF [-1, 0, +1, +1]"


def test_text_for_countdowns():
    assert line("Cd8", [4]) == "Cd8: holds · Cd8 [4] · Cd8 again next time"
    assert line("Cd8", [1]) == "Cd8: shrinks · Cd8 [1] · Cd6 next time"
    assert line("Cd4", [1]) == "Cd4: ends · Cd4 [1] · the countdown is over"


def test_text_numbers_repeated_answers():
    lines = [answer_line(a, PLAIN) for a in answers("2x d6", [3, 4])]
    assert lines == ["2x d6 #1: 3 · 1d6 [3]", "2x d6 #2: 4 · 1d6 [4]"]


def test_colour_dims_dropped_dice_only_when_asked():
    coloured = answer_line(answers("2d6kh1", [2, 5])[0], Palette(True))
    assert "\x1b[2m~~2~~\x1b[0m" in coloured


def test_json_carries_total_terms_dice_and_labels():
    fields = record(answers("2d20kl1 + 5 [fire] + 1d6 [cold]", [7, 15, 4])[0])
    assert fields["kind"] == "dice" and fields["total"] == 16 and fields["rules"] == "crux"
    assert fields["expression"] == "2d20kl1 + 5 [fire] + 1d6 [cold]"
    assert fields["terms"] == [
        {"notation": "2d20kl1", "value": 7,
         "dice": [{"value": 7, "kept": True}, {"value": 15, "kept": False, "dropped": True}]},
        {"notation": "1d6", "value": 4, "dice": [{"value": 4, "kept": True}], "label": "cold"}]
    assert fields["labels"] == [{"label": "fire", "notation": "5", "value": 5},
                                {"label": "cold", "notation": "1d6", "value": 4}]


def test_json_flags_rerolls_explosions_compounding_and_successes():
    dice = record(answers("2d6rr1!>=5", [1, 5, 2, 3])[0])["terms"][0]["dice"]
    assert dice == [{"value": 1, "kept": False, "rerolled": True}, {"value": 5, "kept": True, "exploded": True},
                    {"value": 2, "kept": True, "added": True}, {"value": 3, "kept": True}]
    compound = record(answers("d6!!", [6, 2])[0])["terms"][0]["dice"]
    assert compound == [{"value": 8, "kept": True, "exploded": True, "parts": [6, 2]}]
    term = record(answers("2d10>=8", [9, 1])[0])["terms"][0]
    assert term["successes"] == 1 and [d["success"] for d in term["dice"]] == [True, False]


def test_json_for_countdowns_names_the_next_die():
    shrinks = record(answers("Cd8", [1])[0])
    assert shrinks == {"input": "Cd8", "kind": "countdown", "rules": "crux", "die": "Cd8", "sides": 8, "total": 1,
                       "dice": [1], "outcome": "shrinks", "next": "Cd6"}
    assert record(answers("Cd4", [1])[0])["next"] is None


def test_installed_crux_gives_one_json_object_per_repetition():
    result = crux_here("--seed", "2", "--json", "6x 4d6kh3")
    objects = [json.loads(text) for text in result.stdout.splitlines()]
    assert result.returncode == 0 and [o["index"] for o in objects] == [1, 2, 3, 4, 5, 6]
    assert all(3 <= o["total"] <= 18 and len(o["terms"][0]["dice"]) == 4 for o in objects)


def test_installed_crux_repeat_option():
    result = crux_here("--seed", "2", "--repeat", "3", "DEX +1b")
    assert result.returncode == 0 and [text.split(":")[0] for text in result.stdout.splitlines()] == [
        "DEX +1b #1", "DEX +1b #2", "DEX +1b #3"]


def test_installed_crux_reads_the_issue_examples():
    for text in ["4d6kh3", "roll 2d20kl1 + 5 [fire]", "d66", "6x 4d6kh3", "d6!", "Cd8",
                 "(2d4+1)*3 # torch damage"]:
        result = crux_here("--seed", "1", text)
        assert result.returncode == 0 and result.stdout.strip() and not result.stderr, text
