"""The resume offer before the first prompt says where a left fight stands from its text alone
(rulesets/crux/fight_summary.py): what it says is what the fight read whole says, the rules load after the
prompt, and a fight that does not read whole is still kept as a file, found when the offer is answered."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import said
from hypothesis import given, settings
from hypothesis import strategies as st
from test_repl_fight import gone, kept_in, zed_dying

from crux_cli import rulesets
from crux_cli.core.errors import SheetError
from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.session import Session
from crux_cli.rulesets.crux.encounter import Combatant, Encounter
from crux_cli.rulesets.crux.fight_file import encounter_text, parse_fight
from crux_cli.rulesets.crux.fight_state import FightState
from crux_cli.rulesets.crux.fight_summary import summary
from crux_cli.running.runner import Runner

NAMES = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=12).filter(
    lambda name: bool(name.strip()))


@st.composite
def fights(draw: st.DrawFn) -> FightState:
    """A fight of any names (quotes, backslashes, apostrophes, any script), sides, round and turn."""
    names = draw(st.lists(NAMES, max_size=6, unique_by=lambda name: name.strip().lower()))
    combatants = tuple(Combatant(name, draw(st.sampled_from(["hero", "enemy"])), hp=3, hp_max=3) for name in names)
    turn = draw(st.integers(0, max(len(combatants) - 1, 0)))
    return FightState(Encounter(combatants, draw(st.integers(0, 12)), turn), over=draw(st.booleans()),
                      fallen=tuple(draw(st.lists(st.sampled_from(names), max_size=2))) if names else ())


@settings(max_examples=300)
@given(fight=fights())
def test_the_summary_of_a_fight_crux_wrote_is_what_the_fight_read_whole_says(fight: FightState) -> None:
    text = encounter_text(fight, {})
    try:
        whole, _ = parse_fight(text, "left.toml")
    except SheetError:  # a name the reader refuses (too long, …): the offer is then made when it reads
        return
    assert summary(text) == whole.summary()


@settings(max_examples=300)
@given(key=st.sampled_from(["round", "turn", "format", "name", "side", "hp", "over", "bogus"]),
       value=st.one_of(st.integers(-3, 9), st.booleans(), st.text(max_size=6), st.sampled_from(["hero", "enemy"])),
       where=st.integers(0, 2))
def test_a_changed_text_gives_no_summary_or_the_whole_ones_or_does_not_read(key: str, value: object,
                                                                             where: int) -> None:
    import tomlkit

    document = tomlkit.parse(encounter_text(a_fight(), {}))
    table = document if where == 0 or key in ("round", "turn", "format") else document["combatant"][where - 1]
    table[key] = value
    text = tomlkit.dumps(document)
    try:
        whole, _ = parse_fight(text, "left.toml")
    except SheetError:
        return  # said or not, answering the offer keeps it as a file (test below)
    assert summary(text) in (None, whole.summary())


def a_fight() -> FightState:
    return FightState(Encounter((Combatant("Ann", "hero"), Combatant("ogre", "enemy", hp=9, hp_max=9),
                                 Combatant("Bram", "hero")), 1, 2))


def test_a_text_of_another_shape_gives_no_summary() -> None:
    text = encounter_text(a_fight(), {})
    assert summary(text) == "round 1, ogre's turn: Ann, ogre, Bram"
    for changed in (text.replace("format = 3", "format = 4"), text.replace('name = "Ann"', 'name = """Ann"""'),
                    text.replace("[[combatant]]", "[[ combatant ]]", 1), text.replace("turn = 2", "turn = 3"),
                    text.replace('name = "Ann"', 'name = "Ann" # a comment'), text + "[elsewhere]\n",
                    text.replace('side = "enemy"', 'side = "boss"'), "# a fight left by a session that is gone\n"):
        assert summary(changed) is None, changed
    assert summary("format = 3\n") == "not begun yet: "


def test_the_registry_names_quick_readers_of_built_in_rule_sets_with_fights() -> None:
    assert set(rulesets.FIGHT_SUMMARIES) <= set(rulesets.BUILT_IN)
    for name in rulesets.BUILT_IN:
        reader = rulesets.fight_summary(name)
        assert reader is None or rulesets.load(name).fight_rules() is not None, name
    assert rulesets.fight_summary("stepdice") is None and rulesets.fight_summary("nosuch") is None


def test_the_offer_loads_neither_the_rules_nor_the_fight_and_the_answer_resumes_it(own_state_dir) -> None:
    """What the offer says is what reading the fight whole said; the rules, their fights, the ledger and a TOML
    reader wait for the prompt to be drawn (here: for the answer)."""
    session = kept_in(zed_dying(), "first")
    said(session, "cond add goblin prone")
    fight = session.fight
    gone(session)
    probe = (
        "import sys\n"
        "from crux_cli.core.style import PLAIN\n"
        "from crux_cli.repl.app import new_session, keep_journal\n"
        "from crux_cli.running.settings import Settings\n"
        "session = new_session(Settings(), PLAIN)\n"
        "keep_journal(session, Settings())\n"
        "offered = session.resume_offer()\n"
        "heavy = ('crux_cli.rulesets.crux.ruleset', 'crux_cli.rulesets.crux.fights', 'crux_cli.rulesets.crux.words',\n"
        "         'crux_cli.rulesets.crux.fight_file', 'crux_cli.state.encounter', 'tomllib')\n"
        "print(offered[-1])\n"
        "print([name for name in heavy if name in sys.modules])\n"
        "print(session.handle('n')[0])\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_STATE_HOME": str(own_state_dir)})
    assert done.returncode == 0, done.stderr
    offered, loaded, kept = done.stdout.splitlines()
    assert offered == (f"a fight was left running ({fight.summary()}): resume it? (Y/n; n keeps it as a file to "
                       "load later)")
    assert loaded == "[]"
    assert kept.startswith("the fight is kept in ") and kept.endswith("resumes it")


def left_unreadable(name: str) -> None:
    """A session gone left a fight whose summary reads but whose whole does not (a key no crux writes)."""
    session = kept_in(zed_dying(), name)
    said(session, "cond add goblin prone")
    store = session.journal.connected()
    ledger = next(text for session_name, text, _ in store.fights() if session_name == name)
    store.save_fight(name, ledger.replace('side = "enemy"', 'side = "enemy"\nbogus = 1'))
    gone(session)


def test_a_fight_that_does_not_read_whole_is_kept_as_a_file_when_the_offer_is_answered() -> None:
    from crux_cli.state.autosave import fights_dir

    for number, (reply, answered) in enumerate((("y", None), ("n", None), ("", None), ("d6", "d6: 4"))):
        left_unreadable(f"first{number}")
        later = kept_in(Session(Runner(source=ScriptedSource([4]))), f"later{number}")
        assert "resume it?" in later.resume_offer()[-1]
        out = said(later, reply)
        assert "a fight was left that does not read: kept as " in out, (reply, out)
        assert answered is None or answered in out
        assert later.fight is None and later.pending is None
        assert list(fights_dir(later.journal).glob(f"left-*first{number}.toml")), reply
        gone(later)
        again = kept_in(Session(Runner(source=ScriptedSource([]))), f"again{number}")
        assert again.resume_offer() == []  # kept as a file, no longer offered
        gone(again)
