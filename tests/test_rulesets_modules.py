"""The rule-set modules end to end in process: parse → compile → roll (scripted) → text and JSON; odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from crux_cli import rulesets
from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.core.ruleset import Context, RuleSet
from crux_cli.core.style import PLAIN, Palette
from crux_cli.render.odds_json import odds_to_json
from crux_cli.render.odds_text import render_odds
from crux_cli.running.read import parse_statement

KINDRED = ("stepdice", "d20check", "challenge")


def answer(rules: str, text: str, *faces: int):
    module = rulesets.load(rules)
    source = ScriptedSource(faces)
    result = module.run(parse_statement(text, module), Context(Roller(source), None, text))
    assert source.left == 0, "every scripted face should be used"
    return module, result


def test_every_rule_set_is_registered_with_the_shared_shape() -> None:
    for name in KINDRED:
        ruleset = rulesets.load(name)
        assert isinstance(ruleset, RuleSet)
        assert name == ruleset.name
        assert rulesets.BUILT_IN[name][1] == ruleset.summary
        assert ruleset.keywords and ruleset.odds is not None


def test_the_registry_names_the_sheet_file_each_built_in_rule_set_keeps() -> None:
    """`SHEET_FILES` lets a sheet be read without loading its rules (optional, for speed): what it names is what the
    rule set's facet gives, and a rule set it leaves out is asked."""
    assert set(rulesets.SHEET_FILES) <= set(rulesets.BUILT_IN)
    for name in rulesets.BUILT_IN:
        keeping = rulesets.load(name).sheet
        file = keeping.file() if keeping is not None and keeping.file is not None else None
        assert rulesets.sheet_file(name) is file, name
        assert name not in rulesets.SHEET_FILES or file is not None, name


@pytest.mark.parametrize(("rules", "text", "faces", "line"), [
    ("stepdice", "save d8 vs d6 enhanced", (3, 9, 5), "win (9) · enhanced: d8 3, d12 9 keep higher vs d6 5"),
    ("stepdice", "save d8", (4,), "tie (4) · d8 4 vs 4"),
    ("stepdice", "save 0 enhanced", (), "lose · the attribute die is at 0: an automatic loss, no roll"),
    ("stepdice", "step d12 up", (), "d12 · d12 stepped up 1 · the track ends at d12"),
    ("stepdice", "step d4 down", (), "0 · d4 stepped down 1"),
    ("stepdice", "attack d6 d8 armor 1 grit 3 str d8", (6, 8, 3),
     "4 Direct Damage · 3 Grit lost · highest 8 of d6 6, d8 8 · armor 1 → 7 · Grit 3 → 0 · "
     "STR save d8 3 vs 4: lose → Critical Damage and incapacitated, STR d8 → d6"),
    ("stepdice", "attack d6 armor 5", (3,), "deflected · no damage gets past the armor · highest 3 of d6 3 · "
                                            "armor 3 (capped from 5) → 0"),
    ("stepdice", "attack d6 grit 4", (4,), "dodged · 4 Grit lost, no Direct Damage · highest 4 of d6 4 · "
                                           "Grit 4 → 0"),
    ("stepdice", "attack d8", (5,), "5 Direct Damage · highest 5 of d8 5 · make a STR save vs 5 "
                                    "(add str DIE to roll it)"),
    ("stepdice", "death marked", (5,), "deal (5) · Death offers you a deal. If you accept the terms, return to "
                                       "life. · already Marked by Death: a deal on 2–6 · if you accept: back to "
                                       "life, now Marked by Death"),
    ("d20check", "check 4 trained favored", (9, 3), "pass (12 vs 12) · d20 9 + d6 3 favored = 12 · "
                                                    "Difficulty 12 = 20 − 2×4 trained"),
    ("d20check", "check 0 hindered", (20, 6), "crit (14 vs 20) · a natural 20: +1 Luck · d20 20 − d6 6 hindered "
                                              "= 14 · Difficulty 20 = 20 − 0"),
    ("d20check", "check 4 favored hindered", (15,), "fail (15 vs 16) · d20 15 · Difficulty 16 = 20 − 4"),
    ("d20check", "damage 2d6+1 armor 2", (3, 4), "6 damage · 2d6 [3, 4] + 1 = 8 · armor 2 → 6"),
    ("d20check", "damage 2d6 armor 2 immune weak", (1, 2, 3),
     "6 damage · 3d6 [1, 2, 3] = 6 · weak: an extra die, ignores armor 2 and immune"),
    ("d20check", "damage d6 immune", (6,), "unharmed · 1d6 [6] = 6 · immune"),
    ("challenge", "action 2 adv major", (6, 2, 6), "critical (6) · 3d6 [6, 2, 6] · major risk: A success with "
                                                   "increased reward. Gain +1 XP."),
    ("challenge", "action 1 dis", (6, 6), "strong hit (6) · 0 dice: 2d6 [6, 6] keep lowest, no critical · "
                                          "moderate risk: A success, and you realize what was at stake."),
    ("challenge", "fortune 1", (4,), "weak hit (4) · 1d6 [4] · Mixed result / Minor. Partial reward."),
    ("challenge", "resist 3", (6, 6, 1), "critical (6) · 3d6 [6, 6, 1] · You avoid all consequences and you are "
                                         "now in control of the situation. Gain 1 grit back. · "
                                         "Grit: 1 marked, 1 back (net 0)"),
])
def test_text_lines(rules: str, text: str, faces: tuple[int, ...], line: str) -> None:
    module, result = answer(rules, text, *faces)
    assert module.describe(result, PLAIN) == line


def test_colour_only_paints_the_outcome_word() -> None:
    module, result = answer("challenge", "fortune 1", 6)
    coloured = module.describe(result, Palette(True))
    assert "\x1b[32mstrong hit\x1b[0m" in coloured
    assert module.describe(result, PLAIN) in coloured.replace("\x1b[32m", "").replace("\x1b[1m", "").replace(
        "\x1b[0m", "")


def test_stepdice_attack_json() -> None:
    module, result = answer("stepdice", "attack d6 d8 armor 5 grit 1 str d4", 2, 8, 4)
    assert module.to_json(result) == {
        "kind": "attack", "mode": "normal", "attack_dice": ["d6", "d8"], "dice": [2, 8],
        "rolls": [{"die": "d6", "face": 2}, {"die": "d8", "face": 8}], "highest": 8, "armor": 3,
        "armor_given": 5, "damage": 5, "grit": {"spent": 1, "gained": 0, "before": 1, "after": 0}, "direct": 4,
        "outcome": "direct",
        "save": {"kind": "save", "die": "d4", "mode": "normal", "vs": 4, "dice": [4],
                 "rolls": [{"die": "d4", "face": 4}], "kept": 4, "opposing": None, "target": 4,
                 "outcome": "tie", "automatic": False},
        "consequence": "critical", "str": "d4", "str_after": "0", "attribute": "STR",
    }


def test_stepdice_save_and_step_and_death_json() -> None:
    module, result = answer("stepdice", "save d8 vs d6", 2, 5)
    record = module.to_json(result)
    assert (record["vs"], record["dice"], record["kept"], record["opposing"], record["target"],
            record["outcome"]) == ("d6", [2], 2, {"die": "d6", "face": 5}, 5, "lose")
    module, result = answer("stepdice", "step d8 down 2")
    assert module.to_json(result) == {"kind": "step", "die": "d8", "steps": -2, "result": "d4",
                                      "stopped": False, "dice": []}
    module, result = answer("stepdice", "death", 1)
    assert module.to_json(result)["outcome"] == "taken"


def test_d20check_json() -> None:
    module, result = answer("d20check", "check 4 trained favored", 20, 1)
    assert module.to_json(result) == {"kind": "check", "stat": 4, "trained": True, "favor": "favored",
                                      "difficulty": 12, "dice": [20, 1], "d20": 20, "favor_die": 1, "total": 21,
                                      "outcome": "crit", "luck": 1}
    module, result = answer("d20check", "damage 1d8 armor 1 weak", 2, 3)
    record = module.to_json(result)
    assert (record["dice"], record["armor"], record["armor_given"], record["damage"], record["reason"]) == (
        [2, 3], 0, 1, 5, "weak")


def test_challenge_json() -> None:
    module, result = answer("challenge", "action 3 major", 5, 2, 1)
    assert module.to_json(result) == {
        "kind": "action", "rating": 3, "advantage": False, "disadvantage": False, "risk": "major", "pool": 3,
        "zero_pool": False, "dice": [5, 2, 1], "kept": 5, "outcome": "weak hit",
        "text": "Technically a success, but there is a severe cost. Gain +1 XP and you must suffer the "
                "consequences accordingly.", "xp": 1}
    module, result = answer("challenge", "resist 0", 3, 6)
    record = module.to_json(result)
    assert (record["pool"], record["zero_pool"], record["kept"], record["outcome"]) == (0, True, 3, "miss")
    assert record["grit"] == {"spent": 1, "gained": 0, "net": 1, "options": [
        {"mark": 1, "effect": "reduce the consequences (half damage if taking damage)"},
        {"mark": 2, "effect": "avoid the consequences completely"}]}


# --- odds through the modules ---------------------------------------------------------------------


def odds_of(rules: str, text: str):
    module = rulesets.load(rules)
    return module.odds(parse_statement(text, module), None)


@pytest.mark.parametrize(("rules", "text", "outcomes"), [
    ("stepdice", "save d8 vs 4", {"win": Fraction(1, 2), "tie": Fraction(1, 8), "lose": Fraction(3, 8)}),
    ("stepdice", "save 0", {"win": 0, "tie": 0, "lose": 1}),
    ("stepdice", "step d8 down 2", {"d4": 1}),
    ("stepdice", "death marked", {"taken": Fraction(1, 6), "deal": Fraction(5, 6), "return": 0}),
    ("d20check", "check 4", {"crit": Fraction(1, 20), "pass": Fraction(1, 5), "fail": Fraction(3, 4)}),
    ("challenge", "resist 3", {"critical": Fraction(2, 27), "strong hit": Fraction(25, 72),
                               "weak hit": Fraction(125, 216) - Fraction(1, 8), "miss": Fraction(1, 8)}),
])
def test_odds_through_the_module(rules: str, text: str, outcomes: dict) -> None:
    odds = odds_of(rules, text)
    assert dict(odds.outcomes) == outcomes
    assert sum(p for _, p in odds.outcomes) == 1


def test_odds_render_as_fractions_percentages_and_bars() -> None:
    odds = odds_of("stepdice", "attack d6 d8 armor 1 grit 3 str d8")
    lines = render_odds(odds, PLAIN).splitlines()
    assert lines[0].split()[:3] == ["deflected", "1/48", "2.08%"]
    assert any(line.strip().startswith("mean damage") for line in lines)
    assert "█" in "\n".join(lines)
    record = odds_to_json(odds)
    assert list(record["outcomes"]) == ["deflected", "dodged", "minor", "critical", "incapacitated", "dead"]
    assert record["outcomes"]["dead"] == {"p": "0", "approx": 0.0}
    assert odds.label == "damage"
    assert sum(Fraction(v["p"]) for v in record["distribution"].values()) == 1
    assert Fraction(record["mean"]["p"]) == odds.mean


def test_odds_json_of_a_check() -> None:
    record = odds_to_json(odds_of("d20check", "check 4 trained favored"))
    assert record["outcomes"]["crit"] == {"p": "1/20", "approx": 0.05}
    assert "distribution" not in record


def test_resist_odds_json_has_the_grit_table() -> None:
    record = odds_to_json(odds_of("challenge", "resist 2"))
    assert record["outcomes"]["critical"] == {"p": "1/36", "approx": 0.02778}
    assert record["grit"] == {"0": {"p": "1/36", "approx": 0.02778}, "1": {"p": "35/36", "approx": 0.9722}}


@pytest.mark.parametrize(("rules", "union"), [("stepdice", "StepDiceStatement"), ("d20check", "D20CheckStatement"),
                                              ("challenge", "ChallengeStatement")])
def test_every_statement_has_one_row_of_handlers(rules: str, union: str) -> None:
    """A kindred rule set answers through one table by statement type: every statement of its grammar has a row,
    each row its own result type, and a value that is none of its statements is refused plainly."""
    import importlib
    import typing

    grammar = importlib.import_module(f"crux_cli.rulesets.{rules}.grammar")
    table = importlib.import_module(f"crux_cli.rulesets.{rules}.ruleset").STATEMENTS
    assert set(table.by_statement) == set(typing.get_args(getattr(grammar, union)))
    assert len(table.by_result) == len(table.by_statement)
    with pytest.raises(TypeError, match=f"not a {rules} statement"):
        table.run(object(), Context(Roller(ScriptedSource(())), None, ""))
    with pytest.raises(TypeError, match=f"not a {rules} result"):
        table.to_json(object())
