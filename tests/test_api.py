"""The Python API (crux_cli.api): its page's examples run, and it answers as the command does."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import crux_cli

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "man" / "crux-python.7"
ESCAPES = {r"\e": "\\", r"\-": "-", r"\&": ""}


def unescape(text: str) -> str:
    for escape, plain in ESCAPES.items():
        text = text.replace(escape, plain)
    return text


def page_examples() -> str:
    """Every literal block of the page that holds `>>>` examples, in order, as one doctest."""
    blocks = re.findall(r"^\.Bd -literal[^\n]*\n(.*?)^\.Ed$", PAGE.read_text(encoding="utf-8"), re.M | re.S)
    return "\n".join(unescape(block) for block in blocks if ">>>" in block)


def test_the_pages_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = page_examples()
    assert examples.count(">>>") >= 20
    monkeypatch.chdir(tmp_path)  # the sheet example writes wren.toml here
    test = doctest.DocTestParser().get_doctest(examples, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} examples of {PAGE.name} failed (above)"


def test_importing_the_api_loads_neither_click_nor_prompt_toolkit() -> None:
    probe = ("import sys, crux_cli\n"
             "crux_cli.roll('DEX +2b', seed=3).to_json(); crux_cli.odds('atk 2d8+3')\n"
             "crux_cli.Session(seed=1).rolls('4d6kh3; save WIL')\n"
             "print(sorted(m for m in ('click', 'prompt_toolkit') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_importing_crux_cli_alone_does_not_load_the_api() -> None:
    probe = "import sys, crux_cli\nprint('crux_cli.api' in sys.modules, 'crux_cli.running.runner' in sys.modules)\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False False"


STATEMENTS = [("DEX +2b grit", "crux"), ("atk 2d8+3 heavy # goblin", "crux"), ("6x 4d6kh3", "crux"),
              ("save WIL adv; init", "crux"), ("save d8 vs 5", "stepdice"), ("check 3 trained", "d20check"),
              ("action 2 adv", "challenge"), ("(2d4+1)*3", "challenge")]


@pytest.mark.parametrize(("text", "rules"), STATEMENTS)
def test_results_print_exactly_what_the_command_prints(text: str, rules: str) -> None:
    """The API and the CLI share the runner and the renderers, so they cannot drift apart."""
    results = crux_cli.rolls(text, rules=rules, seed=11)
    command = [sys.executable, "-m", "crux_cli", "--rules", rules, "--seed", "11"]
    env = {**os.environ, "NO_COLOR": "1"}
    plain = subprocess.run([*command, text], capture_output=True, text=True, env=env, check=True)
    as_json = subprocess.run([*command, "--json", text], capture_output=True, text=True, env=env, check=True)
    assert [str(r) for r in results] == plain.stdout.splitlines()
    assert [r.to_json() for r in results] == as_json.stdout.splitlines()
    assert [r.to_dict() for r in results] == [json.loads(line) for line in as_json.stdout.splitlines()]


def test_odds_print_exactly_what_crux_odds_prints() -> None:
    result = crux_cli.odds("atk 2d8+3", at_least=10)
    command = [sys.executable, "-m", "crux_cli", "odds", "--at-least", "10", "atk 2d8+3"]
    env = {**os.environ, "NO_COLOR": "1"}
    assert str(result) + "\n" == subprocess.run(command, capture_output=True, text=True, env=env).stdout
    assert result.to_json() + "\n" == subprocess.run([*command, "--json"], capture_output=True, text=True,
                                                     env=env).stdout


def test_a_result_is_immutable_and_its_lists_are_tuples() -> None:
    r = crux_cli.roll("DEX +2b", seed=3)
    with pytest.raises(AttributeError):
        r.outcome = "failure"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.fields["outcome"] = "failure"  # type: ignore[index]
    assert r.dice == (5, 5, 1) and r == crux_cli.roll("DEX +2b", seed=3)
    assert hash(r) == hash(crux_cli.roll("DEX +2b", seed=3))
    with pytest.raises(AttributeError, match="no field 'damage'"):
        _ = r.damage


def test_odds_are_exact_fractions_that_sum_to_one() -> None:
    """Seed 001: 'roll 3d6 keep the highest … 6 success, 4-5 partial, 1-3 failure'; +2 Boons keeps the best of 3."""
    o = crux_cli.odds("DEX +2b")
    assert o.outcomes == {"failure": Fraction(1, 27), "partial": Fraction(7, 27), "success": Fraction(19, 27)}
    assert sum(o.outcomes.values()) == 1 and o.distribution is None
    with pytest.raises(KeyError, match="no outcome 'hit'"):
        o.probability("hit")


def test_a_session_shares_one_seed_across_statements() -> None:
    session = crux_cli.Session(seed=4)
    together = [session.roll("4d6kh3").total for _ in range(3)]
    assert together == [r.total for r in crux_cli.rolls("3x 4d6kh3", seed=4)]


def test_roll_refuses_a_line_with_several_answers() -> None:
    with pytest.raises(crux_cli.CruxError, match="2 answers") as caught:
        crux_cli.roll("DEX; DEX")
    assert caught.value.hint is not None and "rolls()" in caught.value.hint


def test_errors_carry_message_position_and_hint() -> None:
    with pytest.raises(crux_cli.CruxError) as caught:
        crux_cli.roll("save WIL avd")
    error = caught.value
    assert (error.text, error.position) == ("save WIL avd", 9)
    assert error.message and error.hint
    assert issubclass(crux_cli.LimitError, crux_cli.CruxError) and issubclass(crux_cli.SheetError, crux_cli.CruxError)
    with pytest.raises(crux_cli.CruxError, match="no rule set called 'nope'"):
        crux_cli.roll("DEX", rules="nope")


def test_odds_stays_the_function_once_the_odds_subpackage_is_imported() -> None:
    """crux_cli/probability/ is also a subpackage: importing it must not hide the API's odds()."""
    import crux_cli.probability.result as result_module
    from crux_cli.probability.dist import Dist

    assert result_module.Odds.__module__ == "crux_cli.probability.result"
    assert crux_cli.probability.dist.Dist is Dist
    assert crux_cli.odds("d6").mean == Fraction(7, 2)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = crux_cli.rol  # type: ignore[attr-defined]
    assert {"roll", "odds", "Session", "CruxError"} <= set(dir(crux_cli))


def test_odds_count_the_exact_fractions_their_result_holds() -> None:
    """An OddsResult gives every value as a Fraction (and to_json writes them), so the odds limit
    weighs the API's odds as it weighs `crux odds --json`, not as the rounded text."""
    from crux_cli.running.runner import Runner

    assert Runner().odds("150d6!").result.distribution is not None  # the text shows it rounded
    with pytest.raises(crux_cli.LimitError) as refused:
        crux_cli.odds("150d6!")
    assert "without --json" in (refused.value.hint or "")
    exact = crux_cli.odds("100d6!")  # within the limit with every fraction written
    assert sum(exact.distribution.values()) + exact.leftover == 1
    assert json.loads(exact.to_json())["depth"] == 17


@pytest.mark.parametrize("seed", ["abc", "3", 1.5, True, False, [1]])
def test_a_seed_that_is_not_a_whole_number_is_refused_as_the_command_refuses_it(seed: object) -> None:
    for call in (lambda: crux_cli.roll("d6", seed=seed), lambda: crux_cli.rolls("d6", seed=seed),  # type: ignore[arg-type]
                 lambda: crux_cli.Session(seed=seed)):  # type: ignore[arg-type]
        with pytest.raises(crux_cli.CruxError, match="the seed must be a whole number") as refused:
            call()
        assert refused.value.hint
    assert crux_cli.roll("d6", seed=-7).seed == -7  # what `crux --seed -7` takes


@pytest.mark.parametrize("repeat", [0, -1, 1.0, True])
def test_repeat_is_a_whole_number_from_one(repeat: object) -> None:
    with pytest.raises(crux_cli.CruxError, match="repeat must be a whole number"):
        crux_cli.rolls("d6", repeat=repeat)  # type: ignore[arg-type]


def test_a_session_on_a_sheet_journals_its_changes_so_sheet_undo_takes_them_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from helpers import crux_here

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    crux_cli.write_sheet("wren.toml", crux_cli.new_hero("Wren", attributes={"DEX": (2, 1)}, grit=2))
    session = crux_cli.Session(sheet=tmp_path / "wren.toml", seed=5)
    assert session.roll("DEX grit").fields["sheet"]["changes"]["grit"] == (2, 1)
    assert crux_cli.read_sheet((tmp_path / "wren.toml").read_text()).grit == 1
    undone = crux_here("sheet", "undo", str(tmp_path / "wren.toml"), env={"XDG_STATE_HOME": str(tmp_path / "state")})
    assert undone.returncode == 0, undone.stderr
    assert "Grit 1 → 2" in undone.stdout
    assert crux_cli.read_sheet((tmp_path / "wren.toml").read_text()).grit == 2


def test_a_session_without_a_sheet_writes_no_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    crux_cli.Session(seed=1, hero=crux_cli.new_hero(grit=1)).roll("DEX grit")
    assert not (tmp_path / "state").exists()


def test_a_hero_held_in_memory_changes_there_and_nowhere_else(tmp_path: Path) -> None:
    wren = crux_cli.new_hero("Wren", attributes={"DEX": (2, 1), "STR": -1}, grit=2, attack="d8",
                             attack_attribute="DEX", advantaged="WIL")
    assert (wren.name, wren.attribute("DEX").modifier, wren.attribute("DEX").rating, wren.attribute("STR").modifier,
            wren.attack_sides, wren.advantaged_save) == ("Wren", 2, 1, -1, 8, "WIL")
    session = crux_cli.Session(hero=wren, seed=5)
    session.roll("DEX grit")
    assert session.hero is not None and session.hero.grit == 1 and wren.grit == 2  # a Hero is immutable
    assert crux_cli.roll("DEX", hero=wren, seed=3).fields["rules"] == "crux"
    crux_cli.write_sheet(tmp_path / "wren.toml", session.hero)
    assert crux_cli.read_sheet((tmp_path / "wren.toml").read_text()) == session.hero
    with pytest.raises(crux_cli.SheetError, match="already exists"):
        crux_cli.write_sheet(tmp_path / "wren.toml", wren)
    with pytest.raises(crux_cli.CruxError, match="not both"):
        crux_cli.Session(hero=wren, sheet=tmp_path / "wren.toml")


@pytest.mark.parametrize(("options", "words"), [({"attributes": {"LUCK": 1}}, "LUCK"), ({"hp": 0}, "hp"),
                                                ({"attack": "d0"}, "die"), ({"attributes": {"DEX": (0, 4)}}, "rating"),
                                                ({"grit": 9}, "grit")])
def test_a_hero_is_checked_as_a_sheet_is(options: dict[str, object], words: str) -> None:
    with pytest.raises(crux_cli.SheetError, match=words):
        crux_cli.new_hero(**options)  # type: ignore[arg-type]


def test_odds_compare_by_their_probabilities_not_their_text() -> None:
    assert crux_cli.odds("2d6") == crux_cli.odds("d6+d6") == crux_cli.odds("2d6", rules="stepdice")
    assert hash(crux_cli.odds("2d6")) == hash(crux_cli.odds("d6+d6"))
    assert crux_cli.odds("2d6") != crux_cli.odds("2d8")
    assert crux_cli.odds("DEX +1b") == crux_cli.odds("DEX +1b")
    assert crux_cli.odds("DEX +1b") != crux_cli.odds("DEX +2b")
    assert crux_cli.odds("2d6") != "2d6"


def test_odds_with_a_distribution_add_up_as_independent_totals() -> None:
    both = crux_cli.odds("2d6") + crux_cli.odds("1d4")
    assert both == crux_cli.odds("2d6+1d4")
    assert both.input == "2d6 + 1d4" and both.mean == Fraction(19, 2)
    assert crux_cli.odds("2d6") + 3 == crux_cli.odds("2d6+3")
    assert (crux_cli.odds("2d6") + -1).input == "2d6 - 1"
    two = sum([crux_cli.odds("atk d8"), crux_cli.odds("atk d8")])
    assert isinstance(two, crux_cli.OddsResult) and two.outcomes == {} and two.odds.label == "damage"
    one = crux_cli.odds("atk d8")
    assert two.mean is not None and one.mean is not None and abs(two.mean - 2 * one.mean) < Fraction(1, 10**9)
    with pytest.raises(TypeError, match="test odds have no total or damage"):
        crux_cli.odds("DEX") + crux_cli.odds("2d6")


def test_the_plain_call_keeps_nothing_from_one_roll_to_the_next_but_its_speed() -> None:
    first, again = crux_cli.roll("4d6kh3", seed=1), crux_cli.roll("4d6kh3", seed=1)
    assert first == again == crux_cli.Session(seed=1).roll("4d6kh3")
    assert first.to_json() == crux_cli.Session(seed=1).roll("4d6kh3").to_json()
    assert crux_cli.roll("DEX +1b", seed=5).to_json() == crux_cli.Session(seed=5).roll("DEX +1b").to_json()
    assert crux_cli.roll("4d6kh3").seed is None
    assert len({crux_cli.roll("20d20").total for _ in range(20)}) > 1  # unseeded: fresh dice every call
    result = crux_cli.roll("d20+5", seed=2)
    assert (result.kind, result.total, result.total) == ("dice", result.fields["total"], result.fields["total"])
    assert callable(result.answer) and result.to_dict()["total"] == result.total  # methods keep their names
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(result)) == result == copy.copy(result)
    assert pickle.loads(pickle.dumps(result)).total == result.total
    with pytest.raises(crux_cli.CruxError):
        crux_cli.roll("4d6kh3", seed=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda: crux_cli.roll(b"d6"), lambda: crux_cli.roll(["d6"]), lambda: crux_cli.roll(None),
    lambda: crux_cli.rolls(b"d6; d8"), lambda: crux_cli.odds(None), lambda: crux_cli.compare(["d6", "d8"]),
    lambda: crux_cli.roll("d6", rules=["crux"]), lambda: crux_cli.roll("d6", rules=b"crux"),
    lambda: crux_cli.roll("d6", sheet=3), lambda: crux_cli.odds("d6", at_least="3"),
    lambda: crux_cli.Session(rules=3), lambda: crux_cli.Session().roll(None),
    lambda: crux_cli.read_sheet(b"name = 'x'"),
    lambda: crux_cli.write_sheet(3, crux_cli.new_hero()), lambda: crux_cli.new_hero(None),
    lambda: crux_cli.new_hero(hp="10"), lambda: crux_cli.new_hero(attributes=["DEX"]),
    lambda: crux_cli.new_hero(attributes={"DEX": "x"}), lambda: crux_cli.new_hero(attack=8),
])
def test_an_argument_of_the_wrong_type_is_a_plain_crux_error(call) -> None:
    """bytes, lists, None where a string or a number goes: a CruxError saying so, never a TypeError or an
    AttributeError from crux's inside (issue 37)."""
    with pytest.raises(crux_cli.CruxError) as refused:
        call()
    assert refused.value.message and "Error" not in refused.value.message


def test_new_hero_names_the_callers_argument_not_a_made_up_line_or_key() -> None:
    """`new_hero(hp=-3)` is refused as hp=-3: no `<new_hero>:12`, no `hp_max` the caller never wrote (issue 38)."""
    with pytest.raises(crux_cli.SheetError) as refused:
        crux_cli.new_hero(hp=-3)
    message = refused.value.message
    assert message.startswith("new_hero(hp=-3): `hp` is -3") and "hp_max" not in message
    assert "<new_hero>" not in message and refused.value.path is None and refused.value.line is None
    with pytest.raises(crux_cli.SheetError, match=r"^new_hero\(hit_dice=-1\): `hit_dice` is -1"):
        crux_cli.new_hero(hit_dice=-1)
    with pytest.raises(crux_cli.SheetError, match=r"^new_hero\(attributes=\{'DEX': \(2, 9\)\}\): `rating` is 9"):
        crux_cli.new_hero(attributes={"DEX": (2, 9)})
    with pytest.raises(crux_cli.SheetError, match=r"^new_hero\(grit=99\)"):
        crux_cli.new_hero(grit=99)
