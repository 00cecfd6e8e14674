"""A scripted three-round fight at the REPL with fixed dice, its ledger checked after every step;
each refusal; and a fight saved and resumed in the same state."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import refused, said

from crux_cli.core.journal_entry import JournalEntry
from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.rulesets.crux.hero import Attribute, Hero
from crux_cli.running.runner import Runner
from crux_cli.state.sheet import new_sheet_text
from crux_cli.state.store import load_hero


def make_sheet(folder: Path, name: str = "Wren", **changes) -> Path:
    hero = Hero(name=name, attack_count=1, attack_sides=8, attack_attribute="STR", grit=2, hp=10, hp_max=10,
                attributes={"STR": Attribute(modifier=1), "DEX": Attribute(), "INT": Attribute(),
                            "WIL": Attribute()}).with_changes(**changes)
    path = folder / f"{name.lower()}.toml"
    path.write_text(new_sheet_text(hero))
    return path


def ledger(session: Session) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    return {c.name: (c.actions, c.attacks, c.reactions) for c in session.fight.encounter.combatants}


def test_a_three_round_fight(tmp_path: Path):
    sheet = make_sheet(tmp_path)
    faces = [5, 3,  # initiative: Wren 5 (3 actions), Bram 3 (2 actions)
             6,  # Wren atk goblin: d8 6, +1 STR = 7, heavy armour halves the dice → 3
             7, 4,  # second attack, rushed: 2d8 keep lowest 4 → heavy → 2
             5, 3,  # third: rushed 2 and +1 Boon from Bram's Help = net -1: keep lowest 3, a minion dies (area 3)
             4,  # the goblin attacks Wren: d6 4 → 4 damage on her sheet
             2,  # a rat bites Wren: d4 2
             8, 5,  # round 2: Wren crits the goblin: 8 explodes 5 → 13 + 1, ignoring armour
             ]
    session = Session(Runner(source=ScriptedSource(faces)))
    said(session, f"/load {sheet}")
    said(session, "fight")
    said(session, "hero Bram")
    said(session, "enemy goblin hp 7 heavy atk d6")
    said(session, "minions rats 6 atk d4")
    assert [c.name for c in session.fight.encounter.order()] == ["Wren", "Bram", "goblin", "rats"]

    said(session, "init")
    assert ledger(session) == {"Wren": (3, 0, ()), "Bram": (2, 0, ()), "goblin": (3, 0, ()), "rats": (3, 0, ())}

    assert "3 damage" in said(session, "atk goblin")
    assert session.fight.encounter.find("goblin").hp == 4 and ledger(session)["Wren"] == (2, 1, ())

    out = said(session, "atk goblin")
    assert "rushed" in out and "2 damage" in out
    assert session.fight.encounter.find("goblin").hp == 2 and ledger(session)["Wren"] == (1, 2, ())

    said(session, "react Bram help Wren")
    assert ledger(session)["Bram"] == (1, 0, ("help",)) and session.fight.encounter.find("Wren").helped == 1

    out = said(session, "atk rats area 3")
    assert "3 of rats killed, 3 left" in out
    assert ledger(session)["Wren"] == (0, 3, ()) and session.fight.encounter.find("Wren").helped == 0

    assert "0 actions left" in refused(session, "atk goblin")  # no die was rolled for it
    assert "used Help this round" in refused(session, "react Bram help Wren")

    said(session, "next")  # Bram
    said(session, "next")  # goblin
    assert session.fight.encounter.active().name == "goblin"
    assert "4 damage" in said(session, "atk Wren")
    assert load_hero(sheet).hp == 6  # through Wren's sheet
    assert "no actions left" in refused(session, "react Wren defend")

    said(session, "next")  # rats
    said(session, "atk Wren")
    assert load_hero(sheet).hp == 4

    out = said(session, "next")  # round 2: Wren has 3 again; Bram keeps his unused action to react with
    assert "round 2" in out
    assert ledger(session)["Wren"] == (3, 0, ()) and ledger(session)["Bram"] == (1, 0, ())

    out = said(session, "atk goblin")
    assert "crit" in out and session.fight.encounter.find("goblin").down
    status = said(session, "status")
    assert "round 2, Wren's turn" in status and "HP 4/10" in status and "3 standing" in status

    said(session, f"save {tmp_path / 'fight.toml'}")
    resumed = Session(Runner(source=ScriptedSource([])))
    out = said(resumed, f"load {tmp_path / 'fight.toml'}")
    assert resumed.fight.encounter == session.fight.encounter
    assert "round 2, Wren's turn" in out


def test_dying_allows_one_action(tmp_path: Path):
    sheet = make_sheet(tmp_path, hp=0, dying=True, wounds=1)
    session = Session(Runner(source=ScriptedSource([5])))
    said(session, f"/load {sheet}")
    said(session, "fight")
    said(session, "enemy orc hp 9")
    said(session, "init")
    assert ledger(session)["Wren"][0] == 1
    said(session, "move")
    assert "Dying: one action a turn" in refused(session, "atk orc")


def test_damage_while_dying_goes_through_the_sheet(tmp_path: Path):
    sheet = make_sheet(tmp_path, hp=0, dying=True, wounds=1)
    session = Session(Runner(source=ScriptedSource([])))
    said(session, f"/load {sheet}")
    said(session, "fight")
    said(session, "damage Wren 3 crit")
    assert load_hero(sheet).wounds == 4  # 3 Wounds from a crit while Dying


@pytest.mark.parametrize(("line", "words"), [
    ("init", "a fight needs at least one hero"),
    ("enemy goblin 7", "enemy NAME hp N"),
    ("minions rats many", "minions NAME COUNT"),
])
def test_refusals_while_setting_up(line: str, words: str):
    session = Session(Runner(source=ScriptedSource([])))
    said(session, "fight")
    assert words in refused(session, line)


def test_dazed_costs_an_action_and_then_ends(tmp_path: Path):
    sheet = make_sheet(tmp_path, conditions=("dazed",))
    session = Session(Runner(source=ScriptedSource([])))
    said(session, f"/load {sheet}")
    said(session, "fight")
    said(session, "hero Bram")
    said(session, "init ambush")
    assert ledger(session)["Wren"][0] == 2  # three from the ambush, less one for Dazed
    assert "dazed" not in load_hero(sheet).conditions


@pytest.mark.parametrize("broken", [
    "format = 2\ncombatant = 5\n", "format = 2\nround = 'x'\n", "format = 2\nround = inf\n",
    "format = 2\n[[combatant]]\nname = 5\nside = 'hero'\n", "format = 2\n[[combatant]]\nside = 'hero'\n",
    "format = 2\n[[combatant]]\nname = 'orc'\nside = 'enemy'\nhp = 'lots'\n",
    "format = 2\n[[combatant]]\nname = 'orc'\nside = 'enemy'\n[[combatant]]\nname = 'Orc'\nside = 'enemy'\n",
])
def test_loading_a_malformed_encounter_file_is_refused_and_the_session_goes_on(tmp_path: Path, broken: str):
    path = tmp_path / "fight.toml"
    path.write_text(broken)
    session = Session(Runner(source=ScriptedSource([])))
    out = refused(session, f"load {path}")
    assert str(path) in out and "internal error" not in out
    assert session.fight is None or not session.fight.encounter.combatants
    assert said(session, "fight").startswith("a fight begins")


def test_a_fight_saved_in_one_folder_resumes_with_the_same_sheets_from_another(tmp_path: Path, monkeypatch):
    campaign, elsewhere = tmp_path / "campaign", tmp_path / "elsewhere"
    campaign.mkdir()
    elsewhere.mkdir()
    make_sheet(campaign)
    monkeypatch.chdir(campaign)
    session = Session(Runner(source=ScriptedSource([])))
    said(session, "fight")
    said(session, "hero wren.toml")
    said(session, "enemy goblin hp 7")
    said(session, "save fight.toml")
    monkeypatch.chdir(elsewhere)
    make_sheet(elsewhere)  # a different Wren here must not take the damage
    resumed = Session(Runner(source=ScriptedSource([])))
    said(resumed, "load ../campaign/fight.toml")
    said(resumed, "damage Wren 3")
    assert load_hero(campaign / "wren.toml").hp == 7 and load_hero(elsewhere / "wren.toml").hp == 10


# -- every combatant whole: a hero held in memory through save, load and a resume ---------------------

ZED_FACES = [6,  # Zed's initiative: 3 actions
             6, 4,  # the goblin crits Zed: 6 explodes 4 → 10 damage: 0 HP, a Wound, Dying
             5, 3]  # a rushed second attack: keep lowest 3 → 3 damage while Dying: +2 Wounds


def zed_dying(faces: list[int] | None = None) -> Session:
    session = Session(Runner(source=ScriptedSource(list(faces or ZED_FACES))))
    for line in ("fight", "hero Zed", "enemy goblin hp 7 atk d6", "init", "next", "atk Zed", "atk Zed",
                 "cond add Zed prone"):
        said(session, line)
    return session


def zed(session: Session) -> Hero:
    return session.fight.heroes["Zed"]


def test_a_hero_held_in_memory_keeps_hp_wounds_dying_conditions_and_grit_through_save_and_load(tmp_path):
    session = zed_dying()
    held = zed(session)
    assert (held.hp, held.wounds, held.dying, held.conditions) == (0, 3, True, ("prone",))
    shown = said(session, "status")
    said(session, f"save {tmp_path / 'f.toml'}")
    assert "hp = 0, hp_max = 0" not in (tmp_path / "f.toml").read_text()

    resumed = Session(Runner(source=ScriptedSource([1, 1])))
    out = said(resumed, f"load {tmp_path / 'f.toml'}")
    assert zed(resumed) == held and resumed.fight == session.fight  # the whole fight, Zed unchanged
    assert shown in out  # the same status, line for line
    assert "Wounds 3/6" in said(resumed, "show Zed") and zed(resumed).dying


def test_the_fallen_and_the_damage_tally_survive_a_load_for_the_summary(tmp_path):
    session = zed_dying()
    said(session, f"save {tmp_path / 'f.toml'}")
    resumed = Session(Runner(source=ScriptedSource([6, 6])))
    said(resumed, f"load {tmp_path / 'f.toml'}")
    said(resumed, "next")  # Zed's turn: Dying, 1 action
    out = said(resumed, "damage goblin 7")
    assert "the fight is won" in out and "fell: Zed, goblin" in out and "Zed: dealt 0, took 13" in out


def kept_in(session: Session, name: str) -> Session:
    """The session journals to the state store as session `name`, and keeps its fight there."""
    from crux_cli.state.autosave import Autosave
    from crux_cli.state.db import state_dir
    from crux_cli.state.journal import Journal

    session.journal = Journal(state_dir(), name)
    session.autosave = Autosave.start(session.journal)
    return session


def kept_fight(session: Session) -> str | None:
    """The fight the store keeps for this session (encounter-file text), if any."""
    store = session.journal.connected()
    return next((ledger for name, ledger, _ in store.fights() if name == session.journal.session), None)


def gone(session: Session) -> None:
    """The session's process ends without a goodbye (killed, or its terminal closed)."""
    session.autosave.close()
    session.journal.close()


def test_a_hero_held_in_memory_survives_the_autosave_and_a_resume():
    session = kept_in(zed_dying(), "first")
    said(session, "status")
    said(session, "cond add goblin prone")  # a fight word: the fight is kept in the store
    held, fight = zed(session), session.fight
    assert "held = {" in kept_fight(session)
    gone(session)

    resumed = kept_in(Session(Runner(source=ScriptedSource([]))), "second")
    assert "resume it?" in resumed.resume_offer()[0]
    said(resumed, "y")
    assert resumed.fight == fight and zed(resumed) == held


def test_undo_right_after_a_resume_keeps_the_fight_and_its_autosave():
    session = kept_in(zed_dying(), "first")
    said(session, "cond add goblin prone")
    fight = session.fight
    gone(session)

    resumed = kept_in(Session(Runner(source=ScriptedSource([]))), "second")
    resumed.resume_offer()
    said(resumed, "y")
    assert said(resumed, "undo") == "nothing to undo in this session"
    assert resumed.fight == fight and kept_fight(resumed) is not None
    said(resumed, "cond remove goblin prone")  # a word after the resume is undone as ever
    assert "took back: cond remove goblin prone" in said(resumed, "undo")
    assert resumed.fight == fight and kept_fight(resumed) is not None


class Entries:
    """A journal that keeps its entries in a list (what the session hands any journal)."""

    def __init__(self) -> None:
        self.entries: list[JournalEntry] = []

    def append(self, entry: JournalEntry) -> JournalEntry:
        self.entries.append(entry)
        return entry.replace(id=str(len(self.entries)))

    def take_warnings(self) -> list[str]:
        return []

    def begin_word(self, statement: str) -> None:
        pass

    def end_word(self) -> None:
        pass

    def watch(self, runner: object) -> None:
        pass

    def together_or_warn(self):
        import contextlib

        return contextlib.nullcontext()

    def who(self, statement: str) -> str | None:
        return next(e.who for e in reversed(self.entries) if e.statement == statement)


def test_the_journals_who_is_whoever_rolled_or_was_changed_not_the_active_combatant(tmp_path):
    sheet = make_sheet(tmp_path)
    session = Session(Runner(source=ScriptedSource([5, 5, 3, 4, 2, 6, 3, 1, 1])))
    session.journal = journal = Entries()
    said(session, f"/load {sheet}")
    for line in ("fight", "hero Bram", "enemy ogre hp 20 atk d6", "init"):
        said(session, line)
    assert session.fight.acting() == "Wren"
    said(session, "atk ogre")
    assert journal.who("atk ogre") == "Wren"  # the attacker rolled
    said(session, "save Bram STR")
    assert journal.who("save Bram STR") == "Bram"  # not Wren, whose turn it is
    said(session, "damage Bram 2")
    assert journal.who("damage Bram 2") == "Bram"
    said(session, "cond add ogre prone")
    assert journal.who("cond add ogre prone") == "ogre"  # changed in the ledger, nobody rolled
    said(session, "enemy rat hp 2")
    assert journal.who("enemy rat hp 2") == "rat"
    said(session, "move")
    assert journal.who("move") == "Wren"


def test_saving_over_a_heros_sheet_is_refused_though_the_fight_read_it(tmp_path):
    sheet = make_sheet(tmp_path)
    session = Session(Runner(source=ScriptedSource([])))
    said(session, "fight")
    said(session, f"hero {sheet}")
    before = sheet.read_bytes()
    assert "is not a crux encounter" in refused(session, f"save {sheet}")
    assert sheet.read_bytes() == before


def test_a_fight_left_running_waits_when_the_session_starts_in_rules_without_fights():
    session = kept_in(zed_dying(), "first")
    said(session, "cond add goblin prone")
    fight = session.fight
    gone(session)

    elsewhere = kept_in(Session(Runner(rules="stepdice", source=ScriptedSource([]))), "second")
    assert "the stepdice rules have no fights" in elsewhere.resume_offer()[0] and elsewhere.pending is None
    gone(elsewhere)
    resumed = kept_in(Session(Runner(source=ScriptedSource([]))), "third")
    assert "resume it?" in resumed.resume_offer()[0]  # still offered, in rules with fights
    said(resumed, "y")
    assert resumed.fight == fight


def test_a_fight_is_a_value_the_words_never_change_and_a_refused_word_leaves_as_it_was():
    from crux_cli.core.errors import CruxError

    session = zed_dying()
    fights = session.runner.rules.fight_rules()
    before = session.fight
    with pytest.raises(AttributeError):
        before.over = True  # immutable
    with pytest.raises(TypeError):
        before.heroes["Zed"] = None  # and so are its maps
    after, said_lines = fights.run("cond add goblin blinded", before, session.fighting)
    assert after != before and "blinded" in after.encounter.find("goblin").conditions
    assert said_lines == ["goblin: blinded"]
    assert "blinded" not in before.encounter.find("goblin").conditions  # the value handed in is unchanged
    with pytest.raises(CruxError):
        fights.run("atk nobody", after, session.fighting)
    assert session.fight is before  # running the rules by hand touched nothing the session holds
    refused(session, "atk nobody")
    assert session.fight is before  # a refused word leaves the fight as it was


def test_a_statement_typed_for_a_yes_no_question_is_answered_not_swallowed():
    """The y/N before `fight` replaces a running fight: a statement typed instead is a no, and it is answered."""
    session = Session(Runner(source=ScriptedSource([5, 4])))
    for line in ("fight", "hero Wren", "enemy orc hp 9", "init"):
        said(session, line)
    assert "start a new one?" in said(session, "fight")
    out = said(session, "DEX")
    assert "left as it was (the question wanted y or n)" in out and "Wren: DEX: partial (4)" in out
    assert session.fight.encounter.started  # the fight is still there
    said(session, "fight")
    assert said(session, "") == "left as it was"


def test_the_resume_question_takes_only_y_or_enter_as_yes():
    session = kept_in(zed_dying(), "first")
    said(session, "cond add goblin prone")
    gone(session)
    resumed = kept_in(Session(Runner(source=ScriptedSource([3]))), "second")
    assert "resume it? (Y/n" in resumed.resume_offer()[-1]
    out = said(resumed, "d6")  # a roll typed instead: answered, and the fight is not resumed
    assert "not resumed" in out and "d6: 3" in out
    assert resumed.fight is None
    gone(resumed)
    again = kept_in(Session(Runner(source=ScriptedSource([]))), "third")
    assert "resume it?" in again.resume_offer()[-1]  # offered again at the next start
    said(again, "")
    assert again.fight is not None


def test_a_sheet_and_a_fight_file_each_say_what_they_are_and_which_word_loads_them(tmp_path: Path):
    sheet = make_sheet(tmp_path, "Wren")
    session = Session(Runner(source=ScriptedSource([5])))
    for line in ("fight", "hero Bram", "enemy orc hp 4", "init", f"save {tmp_path / 'my fight.toml'}"):
        said(session, line)  # a file name with a space is one file
    assert (tmp_path / "my fight.toml").exists()
    out = refused(session, f"load {sheet}")  # no question about replacing the fight first: it is no fight
    assert "is a character sheet (Wren), not a saved fight" in out and f"`hero {sheet}`" in out
    assert session.pending is None
    out = refused(session, f"/load {tmp_path / 'my fight.toml'}")
    assert "is a saved fight, not a character sheet" in out and "(no slash) resumes the fight" in out


def test_a_pasted_blocks_refused_line_is_named_by_its_place():
    session = Session(Runner(source=ScriptedSource([4, 4])))
    out = session.handle("d6\nDEX +2q\nd6")
    assert out[1] == "pasted line 2 of 3: DEX +2q" and out[2].startswith("crux: error")
    assert out[0].startswith("d6: ") and out[-1].startswith("d6: ")


def test_the_repl_hints_at_load_where_the_command_line_has_sheet():
    out = refused(Session(Runner(seed=1)), "atk")
    assert "/load FILE" in out and "--sheet" not in out


def test_help_notation_names_the_sheet_statements_and_generic_dice():
    out = said(Session(Runner(seed=1)), "/help notation")
    for word in ("damage N", "heal N", "wound N", "rest field N", "cond add", "show", "4d6kh3", "roll 2d6"):
        assert word in out, word


def test_saving_into_a_missing_folder_says_so(tmp_path: Path):
    session = Session(Runner(seed=1))
    for line in ("fight", "hero Wren"):
        said(session, line)
    out = refused(session, f"save {tmp_path / 'nosuch' / 'f.toml'}")
    assert "there is no folder" in out and "lock" not in out


def test_a_start_writes_out_only_the_fight_it_offers_and_the_others_wait_their_turn():
    """Three sessions left a fight each: a start offers the newest and writes out that one alone (each
    written-out file costs an fsync before the first prompt); set aside, the next start offers the next."""
    from crux_cli.state.autosave import fights_dir

    for name in ("first", "second", "third"):
        session = kept_in(zed_dying(), name)
        said(session, f"cond add goblin prone # {name}")
        gone(session)
    later = kept_in(Session(Runner(source=ScriptedSource([]))), "later")
    assert "resume it?" in later.resume_offer()[-1]
    assert sorted(path.name for path in fights_dir(later.journal).glob("*.toml")) == ["third.toml"]
    assert "the fight is kept in" in said(later, "n")
    gone(later)
    again = kept_in(Session(Runner(source=ScriptedSource([]))), "again")
    assert "resume it?" in again.resume_offer()[-1]
    assert "second.toml" in [path.name for path in fights_dir(again.journal).glob("*.toml")]
