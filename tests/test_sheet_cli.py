"""Character sheets from the `crux` command: making one, rolling with one, keeping Grit, HP,
Wounds and conditions on it, refusing bad ones (in this process), and many processes at once
(the installed console script, as players run it).
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import crux_here

from crux_cli.state.sheet import parse_sheet
from crux_cli.state.store import load_hero

CRUX = Path(sys.executable).parent / "crux"  # the installed console script, as a player runs it


def test_crux_is_installed_beside_the_test_python() -> None:
    assert CRUX.exists(), f"install crux into this environment: pip install -e '.[test]' ({CRUX})"


def crux(*args: str, sheet: Path | None = None, stdin: str | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return crux_here(*(["--sheet", str(sheet)] if sheet else []), *args, stdin=stdin, env=env)


def roll_json(*args: str, sheet: Path) -> dict:
    done = crux("--json", *args, sheet=sheet)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def wren(tmp_path: Path) -> Path:
    path = tmp_path / "wren.toml"
    done = crux("sheet", "new", str(path), "--name", "Wren", "--attr", "DEX=+2/1", "--attr", "WIL=-1/-2",
                "--attr", "STR=+3/0", "--adv", "INT", "--dis", "STR", "--attack", "d8", "--attack-attr", "DEX",
                "--hp", "12", "--hit-dice", "2", "--hit-die", "d10")
    assert done.returncode == 0, done.stderr
    return path


def set_status(path: Path, **values: object) -> None:
    """Edit the sheet's [status] values by hand, as a player would."""
    lines = []
    for line in path.read_text().splitlines():
        key = line.split("=")[0].strip()
        if key in values:
            value = values.pop(key)
            rendered = json.dumps(value) if not isinstance(value, bool) else str(value).lower()
            line = f"{key} = {rendered}" + ("   #" + line.split("#", 1)[1] if "#" in line else "")
        lines.append(line)
    assert not values, f"no such keys: {values}"
    path.write_text("\n".join(lines) + "\n")


# --- sheet new and check ---------------------------------------------------------------------------

def test_sheet_new_writes_a_commented_valid_sheet_from_flags(wren: Path) -> None:
    text = wren.read_text()
    hero = parse_sheet(text)
    assert hero.name == "Wren"
    assert (hero.attribute("DEX").modifier, hero.attribute("DEX").rating) == (2, 1)
    assert (hero.advantaged_save, hero.disadvantaged_save) == ("INT", "STR")
    assert (hero.attack_sides, hero.attack_attribute, hero.hp_max, hero.hit_dice, hero.hit_die) == (8, "DEX", 12, 2, 10)
    assert text.count("# ") >= 10
    assert crux("sheet", "check", str(wren)).stdout.strip() == f"{wren}: a valid sheet for Wren"


def test_sheet_new_asks_when_told_to(tmp_path: Path) -> None:
    path = tmp_path / "ash.toml"
    answers = "Ash\n1/0\n2/1\n0/0\n-1/-1\nDEX\nWIL\n2d6\nSTR\n15\n3\nd12\n"
    done = crux("sheet", "new", str(path), "--ask", stdin=answers)
    assert done.returncode == 0, done.stderr
    hero = load_hero(path)
    assert (hero.name, hero.attribute("DEX").rating, hero.attribute("WIL").modifier) == ("Ash", 1, -1)
    assert (hero.attack_count, hero.attack_sides, hero.attack_attribute) == (2, 6, "STR")
    assert (hero.hp_max, hero.hit_dice_max, hero.hit_die, hero.disadvantaged_save) == (15, 3, 12, "WIL")


def test_sheet_new_never_overwrites_and_refuses_bad_flags(wren: Path) -> None:
    before = wren.read_bytes()
    done = crux("sheet", "new", str(wren), "--name", "Other")
    assert done.returncode == 2 and "already exists" in done.stderr
    assert wren.read_bytes() == before
    for flags, reason in ((["--attr", "LCK=1/1"], "unknown attribute"), (["--attr", "STR=1/5"], "-3..+3"),
                          (["--attack", "d1"], "is not a die"), (["--adv", "DEX", "--dis", "dex"], "both"),
                          (["--attack", "d" + "9" * 5000], "is not a die"),
                          (["--hit-die", "9" * 5000 + "d8"], "is not a die")):
        done = crux("sheet", "new", str(wren.with_name("x.toml")), "--name", "X", *flags)
        assert done.returncode == 2 and reason in done.stderr and "Traceback" not in done.stderr
        assert not wren.with_name("x.toml").exists()


# --- rolls with a sheet ----------------------------------------------------------------------------

def sources(record: dict) -> dict[str, int]:
    return {s["what"]: s["net"] for s in record["sources"]}


def test_rolls_use_the_sheets_ratings_saves_and_attack(wren: Path) -> None:
    assert sources(roll_json("DEX +1b", sheet=wren)) == {"DEX rating": 1, "boons": 1}
    assert roll_json("WIL", sheet=wren)["net"] == -2
    assert sources(roll_json("save INT", sheet=wren)) == {"adv": 1}
    assert sources(roll_json("save STR", sheet=wren)) == {"dis": -1}
    attack = roll_json("atk", sheet=wren)
    assert (attack["sides"], attack["count"], attack["flat"]) == (8, 1, 2)  # the sheet's d8 +DEX
    assert roll_json("atk 2d6 +STR", sheet=wren)["flat"] == 3


def test_crux_sheet_in_the_environment_works_like_the_option(wren: Path) -> None:
    done = crux("--json", "save WIL", env={"CRUX_SHEET": str(wren)})
    record = json.loads(done.stdout)
    assert record["sheet"]["path"] == str(wren) and record["net"] == -2


def test_grit_is_spent_from_the_sheet_and_refused_at_zero(wren: Path) -> None:
    set_status(wren, grit=1)
    record = roll_json("DEX grit", sheet=wren)
    assert record["grit"]["spent"] == 1
    assert record["sheet"]["grit"] == record["grit"]["gained"]  # 1 - 1 (+1 if the kept die was a 1)
    set_status(wren, grit=0)
    before = wren.read_bytes()
    done = crux("DEX grit", sheet=wren)
    assert done.returncode == 2
    assert "Wren has no Grit to spend" in done.stderr and "^" in done.stderr
    assert wren.read_bytes() == before


def test_a_kept_one_adds_grit_up_to_five_and_the_output_shows_it(wren: Path) -> None:
    grit, earned = 0, 0
    for seed in range(40):
        done = crux("--seed", str(seed), "STR -3B", sheet=wren)  # 4d6 keep lowest: a 1 about half the time
        gained = "Grit +1 earned" in done.stdout
        expected = min(5, grit + gained)
        assert load_hero(wren).grit == expected
        assert f"Wren: Grit {grit} → {expected}" in done.stdout if expected != grit else f"Wren: Grit {grit}" in \
            done.stdout
        earned += expected - grit
        grit = expected
    assert grit == 5 and earned == 5


# --- state statements ------------------------------------------------------------------------------

def test_damage_to_zero_then_while_dying_then_death(wren: Path) -> None:
    out = crux("damage 5", sheet=wren).stdout
    assert "HP 12 → 7" in out
    out = crux("damage 9", sheet=wren).stdout
    assert "dropped to 0 HP: +1 Wound, Dying" in out and "HP 7 → 0" in out and "Wounds 0 → 1" in out
    out = crux("damage 1", sheet=wren).stdout
    assert "Wounds 1 → 3" in out
    out = crux("damage 4 crit", sheet=wren).stdout
    assert "+3 Wounds" in out and "6 Wounds: dead" in out
    hero = load_hero(wren)
    assert (hero.hp, hero.wounds, hero.dead) == (0, 6, True)
    assert crux("heal 3", sheet=wren).returncode == 2


def test_heal_and_rests(wren: Path) -> None:
    crux("damage 20", sheet=wren)
    out = crux("heal 4", sheet=wren).stdout
    assert "no longer Dying" in out and load_hero(wren).hp == 4
    record = roll_json("--seed", "3", "rest field 2", sheet=wren)
    restored = sum(record["dice"])
    assert record["kind"] == "rest field" and len(record["dice"]) == 2
    assert load_hero(wren).hp == min(12, 4 + restored) and load_hero(wren).hit_dice == 0
    done = crux("rest field 1", sheet=wren)
    assert done.returncode == 2 and "only 0 Hit Dice left" in done.stderr
    crux("rest safe", sheet=wren)
    hero = load_hero(wren)
    assert (hero.hp, hero.hit_dice, hero.wounds, hero.dying) == (12, 2, 0, False)


def test_conditions_apply_their_banes_and_say_so(wren: Path) -> None:
    assert "now frightened" in crux("cond add frightened", sheet=wren).stdout
    assert sources(roll_json("INT", sheet=wren)) == {"frightened": -1}
    assert "frightened" in crux("INT", sheet=wren).stdout
    crux("cond remove frightened", sheet=wren)
    crux("cond add blinded restrained prone", sheet=wren)
    assert sources(roll_json("atk", sheet=wren)) == {"blinded": -1, "restrained": -1, "prone": -1}
    assert sources(roll_json("atk ranged", sheet=wren)) == {"blinded": -1, "restrained": -1}
    assert sources(roll_json("save DEX", sheet=wren)) == {"DEX rating": 1, "restrained": -1}
    assert sources(roll_json("save WIL", sheet=wren)) == {"WIL rating": -2}
    assert sources(roll_json("DEX", sheet=wren)) == {"DEX rating": 1}
    shown = crux("show", sheet=wren).stdout
    assert "prone: a Bane on your melee attacks" in shown and "Wren" in shown


def test_unknown_conditions_are_refused_with_a_hint(wren: Path) -> None:
    done = crux("cond add frightend", sheet=wren)
    assert done.returncode == 2 and "did you mean frightened?" in done.stderr


def test_sheet_statements_need_a_sheet() -> None:
    done = crux("damage 3")
    assert done.returncode == 2 and "none is loaded" in done.stderr and "--sheet" in done.stderr


def test_hand_edits_keep_their_comments_through_play(wren: Path) -> None:
    wren.write_text(wren.read_text().replace('name = "Wren"', 'name = "Wren"   # my hero, do not touch')
                    + "\n# end notes: owes the guild 30 gold\n")
    for statement in ("damage 3", "cond add prone", "heal 1", "rest field 1", "rest safe", "STR -3B"):
        assert crux(statement, sheet=wren).returncode == 0
    text = wren.read_text()
    assert 'name = "Wren"   # my hero, do not touch' in text and "# end notes: owes the guild 30 gold" in text
    assert "wounds = 0            # at 0 HP" in text
    assert 'conditions = ["prone"]' in text


@pytest.mark.parametrize(
    ("edit", "reason"),
    [(("grit = 0", "grit = 9"), "`grit` is 9"),
     (("INT = {", "LUCK = {"), "unknown attribute 'LUCK'"),
     (('die = "d8"', 'die = "d8'), "not valid TOML")],
)
def test_bad_sheets_are_refused_with_file_line_reason_and_left_untouched(
        wren: Path, edit: tuple[str, str], reason: str) -> None:
    text = wren.read_text().replace(*edit)
    wren.write_text(text)
    line = next(n for n, written in enumerate(text.splitlines(), 1) if written.startswith(edit[1]))
    before = wren.read_bytes()
    for statement in ("DEX grit", "damage 2", "show"):
        done = crux(statement, sheet=wren)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{wren}:{line}: " in done.stderr and reason in done.stderr
    assert crux("sheet", "check", str(wren)).returncode == 2
    assert wren.read_bytes() == before


# --- many crux processes on one sheet ---------------------------------------------------------------

@pytest.mark.slow
def test_fifty_crux_processes_spending_and_earning_grit_account_for_every_point(wren: Path) -> None:
    processes, rolls = 50, 10
    set_status(wren, grit=2)
    choose = random.Random(50)
    workers = []
    for seed in range(processes):
        mix = ("STR -3B\n", "STR -3B\n", "DEX grit\n", "save WIL grit\n")  # earn on a kept 1, spend
        lines = "".join(choose.choice(mix) for _ in range(rolls))
        worker = subprocess.Popen([str(CRUX), "--sheet", str(wren), "--json", "--seed", str(seed), "-"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        workers.append((worker, lines))
    for worker, lines in workers:
        assert worker.stdin is not None
        worker.stdin.write(lines)
        worker.stdin.close()
    results = [(worker.stdout.read(), worker.stderr.read(), worker.wait()) for worker, _ in workers]  # type: ignore[union-attr]
    objects = [json.loads(line) for out, _, _ in results for line in out.splitlines()]
    records = [o for o in objects if "error" not in o]  # a refused line answers on stdout with an error object
    refused = sum(err.count("no Grit to spend") for _, err, _ in results)
    assert len(records) + refused == processes * rolls
    assert sum("no Grit to spend" in o["error"]["message"] for o in objects if "error" in o) == refused
    spent = sum(r["grit"]["spent"] for r in records)
    gained = sum(r["grit"]["gained"] for r in records)
    final = load_hero(wren).grit
    assert final == 2 - spent + gained
    assert spent > 30 and gained > 30
    print(f"\n{processes} crux processes, {processes * rolls} statements: {len(records)} rolled, {refused} refused "
          f"at Grit 0; Grit 2 - {spent} spent + {gained} earned = {final} on the sheet")


@pytest.mark.slow
def test_a_crux_process_killed_mid_batch_never_leaves_a_broken_sheet(wren: Path) -> None:
    pause = random.Random(9)
    statements = "damage 1\nheal 1\ncond add prone\ncond remove prone\nSTR -3B\nrest safe\n" * 400
    for _ in range(12):
        worker = subprocess.Popen([str(CRUX), "--sheet", str(wren), "-"], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        assert worker.stdin is not None
        try:
            worker.stdin.write(statements)
            worker.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(pause.uniform(0.15, 0.4))
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        with pytest.raises(BrokenPipeError), worker.stdin:
            worker.stdin.write("x" * 65536)
        parse_sheet(wren.read_text(), str(wren))
    assert crux("sheet", "check", str(wren)).returncode == 0


def test_the_sheets_rules_key_picks_the_rule_set_unless_rules_is_given(wren: Path) -> None:
    wren.write_text(wren.read_text().replace('rules = "crux"', 'rules = "stepdice"'))
    assert crux("--json", "save d8", sheet=wren).returncode == 0
    assert "not a statement or attribute of the stepdice rules" in crux("DEX", sheet=wren).stderr
    assert crux("--rules", "crux", "DEX", sheet=wren).returncode == 0


def test_a_hero_held_in_memory_carries_grit_and_hp_from_statement_to_statement() -> None:
    from crux_cli.core.errors import CruxError
    from crux_cli.core.rng import ScriptedSource
    from crux_cli.rulesets.crux.hero import Hero
    from crux_cli.running.runner import Runner

    runner = Runner(source=ScriptedSource([4, 5]), hero=Hero(name="Mem", grit=1, hp=10, hp_max=10))
    runner.execute("DEX grit; damage 3")
    assert runner.hero is not None and (runner.hero.grit, runner.hero.hp) == (0, 7)
    with pytest.raises(CruxError, match="no Grit to spend"):
        runner.execute("DEX grit")
