"""The fight words as a GM meets them: names with spaces, Tab, acting for anyone, removing, late joiners,
aliases, pastes, errors outside a fight, and rule sets without fights."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from test_repl_fight import make_sheet, refused, said

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.completer import CruxCompleter
from crux_cli.repl.lexer import fragments
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner


def fighting(faces: list[int] | None = None, *lines: str) -> Session:
    session = Session(Runner(source=ScriptedSource(faces or [])))
    for line in ("fight", *lines):
        said(session, line)
    return session


def offered(session: Session, text: str) -> list[tuple[str, str]]:
    completions = CruxCompleter(session).get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [(c.text, c.display_meta_text) for c in completions]


@pytest.mark.parametrize("typed", ['"Bram Ironfoot"', "Bram Ironfoot", "bram", "IRON", "iron", "Ironf"])
def test_a_name_with_spaces_is_quoted_written_whole_or_given_by_a_unique_beginning(typed: str) -> None:
    session = fighting([], 'hero "Bram Ironfoot"', "hero Wren", "enemy goblin hp 9")
    assert "Bram Ironfoot: heal 1" in said(session, f"heal {typed} 1")
    assert "Bram Ironfoot: damage 2" in said(session, f"damage {typed} 2")


def test_an_ambiguous_beginning_lists_the_candidates() -> None:
    session = fighting([], 'hero "Old Man Harker"', 'hero "Old Tom"', "enemy goblin hp 9")
    out = refused(session, "heal old 1")
    assert "'old' could be Old Man Harker or Old Tom" in out and "quote it whole" in out
    assert "Old Tom: heal 1" in said(session, "heal tom 1")


@pytest.mark.parametrize("line", ["enemy d6 hp 5", "hero grit", "enemy 12 hp 3", "minions atk 3", "hero prone",
                                  "enemy next hp 4", 'hero "2d6"'])
def test_names_that_read_as_other_words_are_refused(line: str) -> None:
    assert "cannot name a combatant" in refused(fighting(), line)


def test_tab_offers_the_combatants_standing_first_with_their_hp() -> None:
    session = fighting([5, 6], 'hero "Bram Ironfoot"', "enemy goblin hp 9", "minions rats 2", "init",
                       "damage goblin 9")
    assert offered(session, "atk ") == [("rats", "2 standing"), ("goblin", "down")]  # not Bram, who attacks
    assert offered(session, "damage r") == [("rats", "2 standing")]
    assert offered(session, "heal Iron") == [('"Bram Ironfoot"', "HP 10/10")]
    assert [w for w, _ in offered(session, "cond add ")][:1] == ['"Bram Ironfoot"']
    assert offered(session, "react Bram ") == [("defend", "Defend"), ("interpose", "Interpose"),
                                               ("opportunity", "Opportunity Attack"), ("help", "Help")]
    assert offered(session, "react Bram h") == [("help", "Help")]
    assert offered(session, "react Bram help r") == []  # §6.2 "Give an ally +1 Boon on a roll"
    assert offered(session, "react Bram opportunity ") == [("rats", "2 standing")]  # the goblin is down
    assert offered(session, "react rats defend ") == [("rats", "2 standing")]  # "Protect yourself or an ally"
    assert offered(session, "save Bram ") == [("STR", ""), ("DEX", ""), ("INT", ""), ("WIL", "")]


def test_tab_offers_files_after_hero_save_and_load(tmp_path: Path) -> None:
    make_sheet(tmp_path, "Wren")
    session = fighting([], "hero Bram")
    for word in ("hero", "save", "load"):
        assert "ren.toml" in [w for w, _ in offered(session, f"{word} {tmp_path}/w")], word


def test_fight_words_and_names_are_coloured() -> None:
    session = fighting([], 'hero "Bram Ironfoot"', "enemy goblin hp 9")
    styles = dict((text, style) for style, text in fragments("atk goblin", session.runner.rules,
                                                               marked=session.fight_marks()))
    assert styles["goblin"] == "class:name" and styles["atk"] == "class:keyword"
    assert session.fight_marks()["ironfoot"] == "class:name" and session.fight_marks()["next"] == "class:keyword"


def test_acting_for_the_active_combatant_or_the_one_named(tmp_path: Path) -> None:
    sheet = make_sheet(tmp_path, "Wren")
    session = Session(Runner(source=ScriptedSource([5, 5, 4, 3, 2])))
    said(session, f"/load {sheet}")
    for line in ("fight", "hero Bram", "enemy goblin hp 9", "init"):
        said(session, line)
    assert said(session, "DEX").startswith("Wren: DEX")  # Wren's turn: she rolls
    assert said(session, "save Bram STR").startswith("Bram: save STR")  # named: Bram rolls
    assert "goblin: prone" in said(session, "cond add goblin prone")  # an enemy carries a condition
    assert "prone" in said(session, "status").split("goblin")[1]
    assert "goblin: save DEX" in said(session, "save goblin DEX")  # an enemy saves with plain dice
    assert "goblin heals 0" in said(session, "heal goblin 3")
    assert "Bram: cond add dazed" in said(session, "cond add Bram dazed")


def test_a_combatant_added_by_mistake_is_removed() -> None:
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy goblin hp 9", "enemy gobin hp 9", "init")
    assert "gobin leaves the fight" in said(session, "remove gobin")
    assert [c.name for c in session.fight.encounter.order()] == ["Wren", "Bram", "goblin"]
    out = said(session, "remove Wren")  # her turn: it passes to the next
    assert "Bram's turn" in out and session.fight.encounter.active().name == "Bram"
    said(session, "next")
    out = said(session, "remove goblin")  # the last in the order: a new round begins
    assert "round 2" in out and session.fight.encounter.active().name == "Bram"


def test_a_late_joiner_rolls_initiative_and_the_turn_stays_put() -> None:
    session = fighting([5, 3], "hero Wren", "enemy goblin hp 9", "init", "next")
    assert session.fight.encounter.active().name == "goblin"
    out = said(session, "hero Bram")  # joins after init: rolls for round-1 actions
    assert "Bram: init: 2 actions (3)" in out and "Bram joins the fight with 2 actions" in out
    assert session.fight.encounter.active().name == "goblin"  # heroes come first, but the turn stays
    said(session, "enemy orc hp 5")
    assert session.fight.encounter.find("orc").actions == 3


def test_the_fight_ends_when_it_is_won_unless_the_gm_goes_on() -> None:
    session = fighting([5, 4], "hero Wren", "enemy goblin hp 3", "init")
    out = said(session, "atk goblin d6")
    assert "the fight is won after 1 round" in out and "Wren: dealt 4, took 0" in out and "fell: goblin" in out
    assert "no fight is running" in refused(session, "next")
    said(session, "fight on")
    said(session, "enemy orc hp 4")
    assert "orc" in said(session, "status")


@pytest.mark.parametrize("name", ["next", "atk", "status", "help", "load", "fight", "remove"])
def test_an_alias_cannot_shadow_a_fight_word_a_statement_or_a_command(name: str) -> None:
    session = Session(Runner(source=ScriptedSource([])))
    assert "already" in refused(session, f"/alias {name} = DEX")


def test_the_saved_fight_says_how_to_resume_it(tmp_path: Path) -> None:
    session = fighting([], "hero Wren")
    said(session, f"save {tmp_path / 'f.toml'}")
    first = (tmp_path / "f.toml").read_text().splitlines()[0]
    assert "`load FILE`" in first and "/load" not in first


@pytest.mark.parametrize("line", ["status", "next", "save x.toml", "react Wren defend", "remove goblin"])
def test_fight_words_outside_a_fight_say_no_fight_is_running(line: str) -> None:
    out = refused(Session(Runner(source=ScriptedSource([]))), line)
    assert "no fight is running" in out and "`fight` starts one" in out


def test_a_pasted_block_runs_line_by_line() -> None:
    session = fighting()
    out = session.handle("hero Wren\nenemy goblin hp 7 atk d6\r\nminions rats 3")
    assert [c.name for c in session.fight.encounter.combatants] == ["Wren", "goblin", "rats"]
    assert not any("invisible" in line for line in out)


def test_a_rule_set_without_fights_refuses_them_in_a_plain_sentence() -> None:
    session = Session(Runner(rules="stepdice", source=ScriptedSource([3])))
    out = refused(session, "fight")
    assert "the stepdice rules have no fights" in out and "/rules crux" in out
    assert session.fight is None
    session = fighting([], "hero Wren", "enemy orc hp 4")
    said(session, "/rules stepdice")
    assert "have no fights" in refused(session, "status")
    session.runner.source = ScriptedSource([3])
    assert "Direct Damage" in said(session, "atk d6")  # a stepdice statement, not a Crux attack


def test_status_pads_wide_names_by_the_columns_a_terminal_draws() -> None:
    """A name of wide characters (two columns each) lines up with the others: padded by columns, not characters."""
    from crux_cli.core.columns import width

    session = fighting([5, 5], "hero 龍之介", "hero Wren", "enemy orc hp 9", "init")
    lines = [line for line in said(session, "status").splitlines()[1:]]
    starts = [width(line[:line.index("action")]) for line in lines]
    assert len(set(starts)) == 1, lines


def test_an_enemys_line_shows_resistance_vulnerability_and_grit_left() -> None:
    session = fighting([5], "hero Wren", "enemy orc hp 9 heavy resist grit 2", "enemy imp hp 3 vuln", "init")
    out = said(session, "status")
    assert "HP 9/9 · heavy · resist · Grit 2" in out and "HP 3/3 · unarmoured · vuln" in out


def test_tab_after_atk_offers_the_other_side_first_and_never_the_attacker() -> None:
    session = fighting([5, 5], "hero Wren", "hero Bram", "enemy orc hp 9", "minions rats 2", "init")
    assert [w for w, _ in offered(session, "atk ")] == ["orc", "rats", "Bram"]
    said(session, "next")
    said(session, "next")  # the orc's turn
    assert [w for w, _ in offered(session, "atk ")] == ["Wren", "Bram", "rats"]


def test_a_newcomer_may_not_hide_a_name_already_in_and_accents_need_not_be_typed() -> None:
    """`enemy bram` beside the hero Bramwell would make `atk bram` strike the enemy, silently: refused.
    `atk zoe` finds Zoë."""
    session = fighting([5, 5], "hero Bramwell", 'enemy "Zoë" hp 5')
    assert "'bram' begins Bramwell's name" in refused(session, "enemy bram hp 4")
    said(session, "enemy goblin archer hp 3")
    assert "begins goblin archer's name" in refused(session, "enemy arch hp 3")
    said(session, "init")
    assert "Bramwell → Zoë" in said(session, "atk zoe")


@pytest.mark.parametrize(("typed", "meant"), [("nxt", "next"), ("stauts", "status"), ("reakt", "react")])
def test_an_unknown_word_in_a_fight_is_matched_against_the_fight_words_too(typed: str, meant: str) -> None:
    session = fighting([5], "hero Wren", "enemy orc hp 4", "init")
    out = refused(session, typed)
    assert f"'{typed}' is not a fight word" in out and f"did you mean '{meant}'?" in out
