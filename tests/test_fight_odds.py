"""`odds …` in a fight: the odds of the roll the fight would make, with everything it would add."""

from __future__ import annotations

from test_fight_rules import fighting
from test_repl_fight import said

from crux_cli.running.runner import Runner


def odds_of(statement: str) -> str:
    """The plain odds of a statement, as `odds …` outside a fight prints them."""
    from crux_cli.core.style import PLAIN
    from crux_cli.running.output import odds_lines

    return "\n".join(odds_lines(Runner().odds(statement), PLAIN, False))


def test_odds_atk_names_the_target_and_takes_its_armour_resistance_and_conditions() -> None:
    session = fighting([5, 5, 4], "hero Wren", "enemy ogre hp 30 heavy resist atk 2d6", "init")
    said(session, "cond add ogre prone")
    out = said(session, "odds atk ogre d8")
    assert "ogre is prone: +1 Boon to a melee attack against them" in out
    assert "Wren → ogre: atk d8 +1b heavy resist" in out
    assert odds_of("atk d8 +1b heavy resist") in out  # exactly the odds of that statement
    assert session.fight.encounter.find("Wren").actions == 3  # nothing rolled, nothing spent
    # the attack the fight then rolls is the statement the odds were of
    assert "Wren → ogre: atk d8 +1b heavy resist" in said(session, "atk ogre d8")


def test_odds_atk_counts_rushed_from_the_ledger_and_help_waiting() -> None:
    """§7.3 "Each additional attack in that same turn is rushed"; §6.2 Help "+1 Boon on a roll"."""
    session = fighting([5, 5, 4], "hero Wren", "hero Bram", "enemy ogre hp 30 atk d6", "init")
    said(session, "atk ogre d8")
    assert "Wren → ogre: atk d8 rushed 1" in said(session, "odds atk ogre d8")
    assert "Wren → ogre: atk d8 rushed 2" in said(session, "odds atk ogre d8 rushed 2")  # the GM's count
    said(session, "react Bram help Wren")
    assert "Wren → ogre: atk d8 rushed 1 help" in said(session, "odds atk ogre d8")


def test_odds_atk_from_an_enemy_with_defend_and_interpose_waiting() -> None:
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy ogre hp 30 atk 2d6", "init")
    said(session, "react Bram defend Wren")
    said(session, "react Bram interpose Wren")
    out = said(session, "odds atk Wren by ogre")
    assert "Bram interposes: the attack on Wren hits Bram" in out
    assert "ogre → Bram: atk 2d6 -1B" in out and odds_of("atk 2d6 -1B") in out
    assert session.fight.encounter.find("Wren").defended == 1  # odds use nothing up


def test_odds_of_a_save_as_the_combatant_and_a_restrained_enemys_dex_save() -> None:
    """§10.3 "Restrained ⛓️ | Speed 0; Banes on attacks and DEX saves" — enemies too."""
    session = fighting([5, 2, 3], "hero Wren", "enemy ogre hp 30 atk 2d6", "init", "cond add ogre restrained")
    out = said(session, "odds save ogre DEX")
    assert "ogre is restrained: +1 Bane on a DEX save" in out and "ogre: save DEX -1B" in out
    assert "failure  5/9" in out
    assert "restrained" not in said(session, "odds save ogre STR")
    out = said(session, "save ogre DEX")  # the roll: the lower of 2 and 3
    assert "ogre: save DEX -1B: full effect (2)" in out


def test_odds_naming_nobody_in_a_fight_are_the_plain_odds() -> None:
    session = fighting([5], "hero Wren", "enemy ogre hp 30", "init")
    assert said(session, "odds atk d8") == odds_of("atk d8")


def test_odds_of_a_minion_groups_attack_count_its_maximum_as_a_plain_hit() -> None:
    """§11: "Minions do not gain Grit and usually do not crit." — the odds as the roll has it: no crit row."""
    session = fighting([5], "hero Wren", "minions rats 3 atk d4", "minions wolves 2 atk d4 crits", "init")
    out = said(session, "odds atk Wren by rats")
    assert "rats are minions: their max is a plain hit" in out
    assert "hit   3/4" in out and "crit    0" in out
    assert "mean damage = 9/4" in out  # (2 + 3 + 4) / 4, no explosion
    assert "crit  1/4" in said(session, "odds atk Wren by wolves")  # these crit


def test_odds_in_a_json_session_are_one_record_of_the_statement_the_fight_made() -> None:
    import json

    from crux_cli.core.rng import ScriptedSource
    from crux_cli.repl.session import Session

    session = Session(Runner(source=ScriptedSource([5])), json=True)
    for line in ("fight", "hero Wren", "enemy orc hp 9 heavy atk d6", "init"):
        session.handle(line)
    [record] = session.handle("odds atk orc d8")
    assert json.loads(record)["input"] == "atk d8 heavy"
