"""An encounter saved and resumed is the same encounter; a broken file is refused, never half loaded."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux import encounter as fight
from crux_cli.rulesets.crux.fight_file import parse_fight
from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
from crux_cli.state.encounter import load_fight, save_fight


def save_encounter(path: str | os.PathLike[str], encounter: fight.Encounter, sheets: dict[str, str]) -> None:
    """Write an encounter with its heroes' sheet files, as a fight that holds nothing else is saved."""
    save_fight(path, FightState(encounter, frozen_map(sheets)))


def parse_encounter(text: str, shown: str) -> tuple[fight.Encounter, dict[str, str], int]:
    """The encounter of a file's text, its heroes' sheet files and the file's format."""
    state, version = parse_fight(text, shown)
    return state.encounter, dict(state.sheets), version


def load_encounter(path: str | os.PathLike[str]) -> tuple[fight.Encounter, dict[str, str]]:
    """The ledger of the fight saved at `path`, and its heroes' sheet files as paths from the current folder."""
    state = load_fight(path)
    assert isinstance(state, FightState)
    return state.encounter, dict(state.sheets)


def a_fight() -> fight.Encounter:
    e = fight.Encounter()
    e = fight.add_hero(e, "Wren").encounter
    e = fight.add_hero(e, "Bram").encounter
    e = fight.add_enemy(e, "goblin", 7, "heavy", resist=True).encounter
    e = fight.add_minions(e, "rats", 6).encounter
    e = fight.start(e, {"Wren": 2, "Bram": 1}).encounter
    e = fight.act(e, "attack").encounter
    e = fight.react(e, "Bram", "help", ally="Wren").encounter
    return fight.hit_enemy(e, "rats", 3).encounter


def test_save_and_resume_give_the_same_state(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "fight.toml"
    save_encounter(path, a_fight(), {"Wren": "wren.toml"})
    assert load_encounter(path) == (a_fight(), {"Wren": str(tmp_path.resolve() / "wren.toml")})
    assert path.read_text().startswith("# A crux encounter")


def test_sheets_are_kept_relative_to_the_encounter_file_not_to_the_folder_crux_ran_in(tmp_path, monkeypatch):
    campaign, elsewhere = tmp_path / "campaign", tmp_path / "elsewhere"
    (campaign / "heroes").mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.chdir(campaign)
    save_encounter("fight.toml", a_fight(), {"Wren": "heroes/wren.toml"})
    assert 'sheet = "heroes/wren.toml"' in (campaign / "fight.toml").read_text()
    monkeypatch.chdir(elsewhere)  # resumed from another folder: still the same sheet
    _, sheets = load_encounter("../campaign/fight.toml")
    assert Path(sheets["Wren"]).resolve() == (campaign / "heroes" / "wren.toml").resolve()


def test_an_older_file_keeps_its_paths_as_they_were_written(tmp_path):
    path = tmp_path / "fight.toml"
    path.write_text("format = 1\nround = 0\nturn = 0\n[[combatant]]\nname = 'Wren'\nside = 'hero'\n"
                    "sheet = 'wren.toml'\n")
    assert load_encounter(path)[1] == {"Wren": "wren.toml"}


def test_an_encounter_file_is_private_to_its_owner(tmp_path):
    path = tmp_path / "fight.toml"
    save_encounter(path, a_fight(), {})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_errors_about_an_encounter_file_call_it_one(tmp_path):
    with pytest.raises(SheetError, match="no such encounter file") as caught:
        load_encounter(tmp_path / "missing.toml")
    assert "sheet" not in caught.value.message and "sheet new" not in (caught.value.hint or "")
    os.mkfifo(tmp_path / "pipe.toml")
    with pytest.raises(SheetError, match=r"is a named pipe \(FIFO\), not an encounter file"):
        load_encounter(tmp_path / "pipe.toml")


def test_a_resumed_fight_goes_on_the_same_way(tmp_path):
    path = tmp_path / "fight.toml"
    save_encounter(path, a_fight(), {})
    resumed, _ = load_encounter(path)
    assert fight.next_turn(resumed) == fight.next_turn(a_fight())


def test_saving_again_replaces_the_file_whole(tmp_path):
    path = tmp_path / "fight.toml"
    save_encounter(path, a_fight(), {})
    later = fight.next_turn(a_fight()).encounter
    save_encounter(path, later, {})
    assert load_encounter(path)[0] == later
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_broken_file_is_refused(tmp_path):
    path = tmp_path / "fight.toml"
    path.write_text("format = 1\n[[combatant]]\nname = 'x'\nside = 'hero'\nbogus = 1\n")
    with pytest.raises(SheetError, match="unknown key 'bogus'"):
        load_encounter(path)
    path.write_text("round = [\n")
    with pytest.raises(SheetError, match="not a valid encounter"):
        load_encounter(path)
    with pytest.raises(SheetError, match="no such"):
        load_encounter(tmp_path / "missing.toml")


GOOD = """format = 2
round = 1
turn = 0

[[combatant]]
name = "Wren"
side = "hero"
sheet = "wren.toml"

[[combatant]]
name = "goblin"
side = "enemy"
hp = 7
hp_max = 7
armour = "heavy"
"""


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        ("format = 2\nround = 0\nturn = 0\ncombatant = 5\n", 4, "`combatant` must be a list of [[combatant]]"),
        ("format = 2\ncombatant = [1, 2]\n", 2, "`combatant` must be a list of [[combatant]]"),
        ("format = 2\n[[combatant]]\nside = 'hero'\n", 2, "a combatant has no `name`"),
        ("format = 2\n[[x]]\nname = 'Wren'\n", 2, "unknown key `x`"),
        ("round = 1\n", None, "not a crux encounter file"),
        (("round = 1", "round = \"x\""), 2, "`round` must be a whole number, not 'x'"),
        (("round = 1", "round = inf"), 2, "`round` must be a whole number, not inf"),
        (("round = 1", "round = -1"), 2, "`round` is -1"),
        (("round = 1", "round = 1.5"), 2, "must be a whole number"),
        (("name = \"Wren\"", "name = 5"), 6, "`name` must be a text"),
        (("name = \"Wren\"\n", ""), 5, "a combatant has no `name`"),
        (("side = \"enemy\"", "side = \"dragon\""), 12, "`side` must be one of hero, enemy"),
        (("hp = 7", "hp = \"lots\""), 13, "`hp` must be a whole number, not 'lots'"),
        (("hp = 7", "hp = 8"), 13, "`hp` is 8; it must be from 0 to 7"),
        (("name = \"goblin\"", "name = \"wren\""), 11, "two combatants are named 'wren'"),
        (("turn = 0", "turn = 2"), 3, "turn 2 is not a combatant's"),
        (("armour = \"heavy\"", "armour = 3"), 15, "`armour` must be one of"),
        (("armour = \"heavy\"", "reactions = [\"dance\"]"), 15, "`reactions` must list"),
        (("armour = \"heavy\"", "actions = 9"), 15, "`actions` is 9; it must be from 0 to 3"),
        (("armour = \"heavy\"", "down = \"yes\""), 15, "`down` must be true or false"),
        (("armour = \"heavy\"", "attack = \"d6; DEX\""), 15, "`attack` must be dice"),
        (("armour = \"heavy\"", "sheet = \"goblin.toml\""), 15, "only a hero has a sheet"),
        (("sheet = \"wren.toml\"", "sheet = \"wren\\u0000.toml\""), 8, "`sheet` must be a text"),
        (("sheet = \"wren.toml\"", "sheet = 7"), 8, "`sheet` must be a text"),
        (("format = 2", "format = 4"), 1, "not a crux encounter file"),
        (("round = 1", "round = 1\nfallen = [3]"), 3, "`fallen` must list the names"),
        (("round = 1", "round = 1\nover = 1"), 3, "`over` must be true or false"),
        (("sheet = \"wren.toml\"", "held = 5"), 8, "`held` must be a table"),
        (("sheet = \"wren.toml\"", "held = { hp = 11 }"), 8, "`hp` is 11; it must be from 0 to 10"),
        (("sheet = \"wren.toml\"", "held = { wounds = 7 }"), 8, "`wounds` is 7; it must be from 0 to 6"),
        (("sheet = \"wren.toml\"", "held = { grit = 6 }"), 8, "`grit` is 6"),
        (("sheet = \"wren.toml\"", "held = { conditions = [\"on fire\"] }"), 8, "`conditions` must list"),
        (("sheet = \"wren.toml\"", "held = { charm = 3 }"), 8, "unknown key 'charm' in `held`"),
        (("sheet = \"wren.toml\"", "sheet = \"wren.toml\"\nheld = {}"), 9, "only a hero without a sheet"),
        (("armour = \"heavy\"", "held = { hp = 1 }"), 15, "only a hero without a sheet"),
        (("format = 2", "format = true"), 1, "not a crux encounter file"),
        (("round = 1", "round = 1\ncolour = \"red\""), 3, "unknown key `colour`"),
        (("round = 1", "round = " + "9" * 5000), None, "a number too long"),
    ],
)
def test_a_malformed_encounter_file_is_refused_with_line_and_reason(tmp_path, change, line, reason):
    path = tmp_path / "fight.toml"
    if isinstance(change, str):
        path.write_text(change)
    else:
        old, new = change
        assert old in GOOD
        path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(SheetError) as caught:
        load_encounter(path)
    assert reason in caught.value.message
    assert caught.value.path == str(path) and caught.value.line == line, caught.value.message


def test_the_good_file_of_those_tests_loads(tmp_path):
    path = tmp_path / "fight.toml"
    path.write_text(GOOD)
    encounter, sheets = load_encounter(path)
    assert [c.name for c in encounter.combatants] == ["Wren", "goblin"] and encounter.round == 1
    assert sheets == {"Wren": os.path.join(tmp_path.resolve(), "wren.toml")}


VALUES = st.one_of(st.integers(-2**70, 2**70), st.floats(allow_nan=True), st.booleans(),
                   st.text(max_size=12), st.lists(st.integers(-3, 3), max_size=3),
                   st.sampled_from(["hero", "enemy", "heavy", "help", "inf", "nan", "d6", ""]))


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(["round", "turn", "format", "name", "side", "hp", "hp_max", "armour", "resist",
                            "minions", "attack", "opening", "actions", "attacks", "reactions", "helped",
                            "dazed", "dying", "down", "sheet", "combatant", "bogus"]),
       value=VALUES, where=st.integers(0, 2))
def test_any_one_field_changed_loads_or_is_refused_never_crashes(key, value, where):
    import tomlkit

    document = tomlkit.parse(GOOD)
    table = document if where == 0 or key in ("round", "turn", "format") else document["combatant"][where - 1]
    try:
        table[key] = value
    except (TypeError, ValueError):  # a value TOML cannot hold
        return
    try:
        encounter, _, _ = parse_encounter(tomlkit.dumps(document), "fight.toml")
    except SheetError as error:
        assert error.message.startswith("fight.toml")
        return
    for combatant in encounter.combatants:  # what loaded is what the ledger works with
        assert isinstance(combatant.name, str) and isinstance(combatant.hp, int)
    assert encounter.order() is not None and (encounter.active() is None or encounter.combatants)


def test_a_hero_held_in_memory_the_fallen_and_a_won_fight_are_kept_whole(tmp_path):
    from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
    from crux_cli.rulesets.crux.hero import Hero
    zed = Hero(name="Bram", hp=0, wounds=3, dying=True, grit=2, hit_dice=0, conditions=("prone", "dazed"))
    state = FightState(a_fight(), frozen_map({"Wren": str(tmp_path / "wren.toml")}), frozen_map({"Bram": zed}),
                       ("rats", "Bram"), over=True)
    path = tmp_path / "fight.toml"
    save_fight(path, state)
    text = path.read_text()
    bram = text.split("[[combatant]]")[2]
    assert "held = {" in bram and "hp = 0\n" not in bram and "grit = -1" not in bram  # no enemy's fields
    assert load_fight(path) == state
    assert load_encounter(path) == (a_fight(), {"Wren": str(tmp_path / "wren.toml")})  # the ledger alone, as before


def test_a_format_2_file_still_loads_with_its_heroes_at_their_sheets_values(tmp_path):
    path = tmp_path / "fight.toml"
    path.write_text(GOOD)
    fight = load_fight(path)
    assert fight.heroes == {} and fight.fallen == () and not fight.over and fight.names() == ("Wren", "goblin")


def test_an_encounter_file_loads_in_time_linear_in_its_combatants_and_is_capped(tmp_path):

    from crux_cli.rulesets.crux.encounter import MAX_COMBATANTS

    def file_of(count: int) -> Path:
        path = tmp_path / f"fight{count}.toml"
        path.write_text("format = 3\nround = 0\nturn = 0\n" + "".join(
            f"[[combatant]]\nname = \"goblin {i}\"\nside = \"enemy\"\nhp = 7\nhp_max = 7\n" for i in range(count)))
        return path

    from helpers import counting

    def calls_for(count: int) -> int:
        with counting() as work:
            assert len(load_encounter(file_of(count))[0].combatants) == count
        return work.calls

    # linear: was 21 s for 400 (each field's line looked up afresh, quadratic)
    assert calls_for(MAX_COMBATANTS) < 2.5 * calls_for(MAX_COMBATANTS // 2)
    with pytest.raises(SheetError, match=f"more than {MAX_COMBATANTS}"):
        load_encounter(file_of(3000))
    largest = file_of(MAX_COMBATANTS)
    bad = largest.read_text().replace('name = "goblin 199"', 'name = "goblin 0"')
    largest.write_text(bad)
    with pytest.raises(SheetError, match="two combatants are named") as caught:
        load_encounter(largest)
    assert caught.value.line == 3 + 5 * 199 + 2  # still the right line


def test_a_fight_refuses_a_combatant_past_the_cap():
    from crux_cli.core.errors import CruxError
    from crux_cli.rulesets.crux.encounter import MAX_COMBATANTS

    e = fight.Encounter()
    for i in range(MAX_COMBATANTS):
        e = fight.add_enemy(e, f"g{i}", 3).encounter
    with pytest.raises(CruxError, match="at most"):
        fight.add_enemy(e, "one more", 3)
