"""An encounter saved and resumed is the same encounter."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux import encounter as fight
from crux_cli.state.encounter import load_encounter, save_encounter


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


def test_save_and_resume_give_the_same_state(tmp_path):
    path = tmp_path / "fight.toml"
    sheets = {"Wren": "wren.toml"}
    save_encounter(path, a_fight(), sheets)
    assert load_encounter(path) == (a_fight(), sheets)
    assert path.read_text().startswith("# A crux encounter")


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
