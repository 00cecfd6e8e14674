"""Every reaction of seed 001 §6.2 in one line, each with the seed line it follows:

| Defend 🛡️ | Protect yourself or an ally from an attack |
| Interpose 🚧 | Move into harm's way for an ally |
| Opportunity Attack ⚡ | Strike someone who moves carelessly in melee or does something risky |
| Help 🤝 | Give an ally +1 Boon on a roll |
"""

from __future__ import annotations

from pathlib import Path

from test_fight_rules import fighting
from test_repl_fight import make_sheet, refused, said

from crux_cli.state.encounter import load_fight


def test_an_opportunity_attack_rolls_the_reactors_attack_and_deals_its_damage() -> None:
    """§6.2 "Opportunity Attack ⚡ | Strike someone who moves carelessly": the reacting combatant's attack,
    with everything a turn's attack has (here the target's heavy armour), and the damage applied."""
    session = fighting([5, 4], "hero Wren", "enemy orc hp 20 heavy atk d6", "init", "next")
    out = said(session, "react Wren opportunity orc d8")
    assert "Wren: Opportunity Attack · 2 left" in out
    assert "opportunity attack: Wren → orc: atk d8 heavy: hit" in out
    assert "orc takes 2: 18/20 HP" in out  # 4 on the d8, heavy armour halves the dice
    orc, wren = session.fight.encounter.find("orc"), session.fight.encounter.find("Wren")
    assert orc.hp == 18 and orc.actions == 3
    assert wren.actions == 2 and wren.reactions == ("opportunity",)
    said(session, "undo")
    assert session.fight.encounter.find("orc").hp == 20
    assert session.fight.encounter.find("Wren").actions == 3


def test_an_enemys_opportunity_attack_goes_through_the_heros_sheet(tmp_path: Path) -> None:
    """The orc strikes Wren on her own turn (she moved carelessly): its dice, her sheet's HP; a crit explodes."""
    sheet = make_sheet(tmp_path, hp=10)
    session = fighting([5, 6, 3], "enemy orc hp 20 atk d6", "init", sheet=sheet)
    out = said(session, "react orc opportunity Wren")
    assert "opportunity attack: orc → Wren: atk d6: crit · 9 damage" in out
    assert "HP 10 → 1" in out
    said(session, "undo")
    assert "hp = 10" in sheet.read_text()


def test_an_opportunity_attack_strikes_the_other_side_once_a_round() -> None:
    """§6.2 "Each type of reaction can be used at most once per round." and it strikes someone, not an ally."""
    session = fighting([5, 5, 4, 4], "hero Wren", "hero Bram", "enemy orc hp 20 atk d6", "init")
    assert "ally" in refused(session, "react Bram opportunity Wren")
    said(session, "react orc opportunity Bram")
    assert "once per round" in refused(session, "react orc opportunity Wren")
    assert "needs the one it strikes" in refused(session, "react Bram opportunity")


def test_interpose_makes_the_interposer_the_target_of_the_next_attack_on_the_ally() -> None:
    """§6.2 "Interpose 🚧 | Move into harm's way for an ally": the next attack against the ally this round
    hits the interposer instead, with the interposer's armour; then it is spent."""
    session = fighting([5, 5, 4, 4, 4], "hero Wren", "hero Bram", "enemy orc hp 20 atk d6", "init", "next")
    out = said(session, "react Wren interpose Bram")
    assert "the next attack against Bram this round hits Wren instead" in out
    said(session, "next")  # the orc's turn
    out = said(session, "atk Bram")
    assert "Wren interposes: the attack on Bram hits Wren" in out and "orc → Wren: atk d6" in out
    assert session.fight.encounter.find("Bram").interposer == ""
    out = said(session, "atk Bram")  # spent: the next one hits Bram
    assert "orc → Bram" in out
    said(session, "undo")
    said(session, "undo")
    assert session.fight.encounter.find("Bram").interposer == "Wren"
    said(session, "undo")  # next
    said(session, "undo")  # the interposition
    assert session.fight.encounter.find("Bram").interposer == ""
    assert session.fight.encounter.find("Wren").reactions == ()


def test_interpose_and_help_are_for_an_ally_only() -> None:
    """§6.2 "Help 🤝 | Give an ally +1 Boon on a roll", "Interpose 🚧 | Move into harm's way for an ally":
    an ally is another combatant on the same side, never oneself."""
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy orc hp 20", "enemy imp hp 5", "init")
    assert "cannot help themselves" in refused(session, "react Bram help Bram")
    assert "who is not an ally" in refused(session, "react orc help Wren")
    assert "cannot interpose themselves" in refused(session, "react Bram interpose Bram")
    assert "who is not an ally" in refused(session, "react Bram interpose orc")
    assert "needs the ally" in refused(session, "react Bram help")
    said(session, "react orc help imp")  # enemies help each other
    assert session.fight.encounter.find("imp").helped == 1


def test_defend_puts_a_bane_on_the_next_attack_against_the_one_defended() -> None:
    """§6.2 "Defend 🛡️ | Protect yourself or an ally from an attack": the seed leaves the size open; here it
    is +1 Bane on the next attack against them this round (grammar/encounters.md), shown in the roll."""
    session = fighting([5, 5, 6, 2], "hero Wren", "hero Bram", "enemy orc hp 20 atk d6", "init", "next", "next")
    out = said(session, "react Wren defend")  # herself
    assert "the next attack against Wren this round has +1 Bane" in out
    out = said(session, "atk Wren")
    assert "Wren is defended: +1 Bane on the attack" in out
    assert "orc → Wren: atk d6 -1B: hit · 2 damage" in out  # the lower of [6, 2]
    assert session.fight.encounter.find("Wren").defended == 0
    said(session, "undo")
    assert session.fight.encounter.find("Wren").defended == 1
    said(session, "undo")
    assert session.fight.encounter.find("Wren").defended == 0
    assert "who is not an ally" in refused(session, "react Wren defend orc")


def test_defend_and_interpose_lapse_at_the_end_of_the_round() -> None:
    """§6.2 "Each type of reaction can be used at most once per round": what they answer is this round's."""
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy orc hp 20 atk d6", "init")
    said(session, "react Bram defend Wren")
    said(session, "react Bram interpose Wren")
    assert "defended (+1 Bane on the next attack) · Bram interposes" in said(session, "status")
    for _ in range(3):
        said(session, "next")
    wren = session.fight.encounter.find("Wren")
    assert (wren.defended, wren.interposer) == (0, "")


def test_waiting_reactions_survive_a_save_and_load(tmp_path: Path) -> None:
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy orc hp 20 atk d6", "init")
    said(session, "react Bram defend Wren")
    said(session, "react Bram interpose Wren")
    said(session, f"save {tmp_path / 'f.toml'}")
    wren = load_fight(tmp_path / "f.toml").encounter.find("Wren")
    assert (wren.defended, wren.interposer) == (1, "Bram")
    assert "interposer" not in (tmp_path / "f.toml").read_text().split("Bram\"")[-1]


def test_each_reaction_is_journaled_with_its_roll() -> None:
    from test_repl_fight import kept_in

    from crux_cli.state.recovery import read_entries

    session = kept_in(fighting([5, 4], "hero Wren", "enemy orc hp 20 atk d6", "init"), "reacting")
    said(session, "react orc opportunity Wren")
    said(session, "react orc defend")
    entries = [e for e in read_entries() if e["statement"].startswith("react")]
    assert [e["statement"] for e in entries] == ["react orc opportunity Wren", "react orc defend"]
    assert entries[0]["who"] == "orc" and "atk d6" in str(entries[0]["answers"])
