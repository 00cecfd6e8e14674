"""A scripted four-round fight that follows the GM, through the session with fixed dice: heroes with spaces
in their names, Tab completion of names, acting for combatants whose turn it is not, a condition on an
enemy, a prone target, Help on a save, a hero dropping to Dying mid-turn, minions, and the summary."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from test_repl_fight import make_sheet, refused, said

from crux_cli.core.rng import ScriptedSource
from crux_cli.repl.completer import CruxCompleter
from crux_cli.repl.session import Session
from crux_cli.repl.toolbar import toolbar_fragments
from crux_cli.running.runner import Runner
from crux_cli.state.store import load_hero

FACES = [
    6, 3,  # initiative: Bram 6 (3 actions), Harker 3 (2 actions)
    5, 2,  # round 1, Bram at the prone goblin: 2d8 keep highest 5, +1 STR = 6
    1, 5,  # Harker's turn: Bram's DEX save with Harker's Help, 2d6 keep highest 5
    4,  # Harker kills a rat
    4, 5,  # the prone goblin at Bram: 2d6 keep lowest 4
    3, 5,  # the goblin at Harker, rushed: keep lowest 3
    4, 1,  # a rat's 4 on a d4: a plain hit (the explosion rolled is set aside)
    1, 3,  # a rat misses, rushed: no Grit line for minions
    4,  # round 2: Bram at the goblin, 4 + 1 = 5
    2,  # the goblin at Harker
    3,  # a rat at Harker
    5,  # round 3: Bram kills a rat
    3, 6,  # Dying Bram's one action: rushed, keep lowest 3 + 1, a rat dies
    4,  # Harker downs the goblin
    2,  # a rat at Dying Bram: 2 Wounds
    2,  # round 4: Bram's STR save while Dying fails: 1 extra Wound
    5,  # Harker kills the last rat: the fight is won
]


def names_offered(session: Session, text: str) -> list[tuple[str, str]]:
    completions = CruxCompleter(session).get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [(c.text, c.display_meta_text) for c in completions]


def toolbar(session: Session, width: int) -> str:
    return "".join(text for _, text in toolbar_fragments(session, width))


def test_a_four_round_fight_that_follows_the_gm(tmp_path: Path) -> None:
    sheet = make_sheet(tmp_path, "Bram Ironfoot")
    source = ScriptedSource(FACES)
    session = Session(Runner(source=source))
    said(session, f"/load {sheet}")
    assert "Bram Ironfoot joins" in said(session, "fight")
    said(session, 'hero "Old Man Harker"')
    said(session, "enemy goblin hp 14 atk d6")
    assert "their max is a plain hit" in said(session, "minions rats 4 atk d4")
    said(session, "init")

    # round 1, Bram's turn
    said(session, "cond add goblin prone")  # a condition on an enemy, named after the word
    assert names_offered(session, "atk gob") == [("goblin", "HP 14/14")]
    assert names_offered(session, "react Ol")[0] == ('"Old Man Harker"', "HP 10/10")
    out = said(session, "atk gob")
    assert "goblin is prone: +1 Boon to a melee attack against them" in out and "6 damage" in out
    said(session, "react Old help Bram")
    said(session, "move")  # rolls nothing: the Help waits
    assert session.fight.encounter.find("Bram Ironfoot").helped == 1
    said(session, "next")

    # Harker's turn: Bram saves (he is not the active one) and takes the Help
    out = said(session, "save Bram Ironfoot DEX")
    assert "Bram Ironfoot: +1 Boon from Help" in out and "Bram Ironfoot: save DEX help: resisted (5)" in out
    assert "1 of rats killed, 3 left" in said(session, "atk rats")
    said(session, "next")

    # the goblin's turn: prone, its own melee attack is hindered
    assert "goblin is prone: +1 Bane on the attack" in said(session, "atk Bram")
    said(session, "cond remove goblin prone")
    said(session, "atk old")
    said(session, "next")

    # the rats' turn: minions do not crit and earn no Grit
    out = said(session, "atk Bram")
    assert "rats are minions: their max is a plain hit" in out and "crit" not in out.replace("not a crit", "")
    out = said(session, "atk Bram")
    assert "miss" in out and "Grit" not in out.split("Bram Ironfoot: damage")[0]
    assert load_hero(sheet).hp == 2
    assert "round 2" in said(session, "next")

    # round 2: Bram heals Harker, whose turn it is not
    assert "HP 7 → 9" in said(session, "heal Old 2")
    said(session, "atk goblin")
    said(session, "next")
    said(session, "react Bram defend")  # from what Bram left on his own turn
    said(session, "move")
    said(session, "next")
    said(session, "atk Harker")
    said(session, "next")
    said(session, "atk Harker")
    said(session, "next")

    # round 3: Bram drops to Dying in the middle of his turn
    said(session, "atk rats")
    out = said(session, "damage Bram 9")
    assert "Bram Ironfoot drops to Dying: 1 action left" in out
    assert session.fight.encounter.find("Bram Ironfoot").actions == 1
    said(session, "atk rats")
    assert "Dying: one action a turn" in refused(session, "move")
    narrow, wide = toolbar(session, 80), toolbar(session, 120)
    assert "Bram Ironfoot" in narrow and "0 actions" in narrow and "dying" in narrow and len(narrow) <= 80
    assert len(wide) <= 120 and "rules crux" in wide
    said(session, "next")
    assert "goblin takes 4: 0/14 HP · down" in said(session, "atk goblin")
    said(session, "next")
    said(session, "atk Bram")  # damage while Dying: 2 Wounds
    assert load_hero(sheet).wounds == 3
    said(session, "next")

    # round 4: a failed STR save while Dying is 1 more Wound; Harker ends it
    assert "failed STR save while Dying: Wounds 3 → 4" in said(session, "save STR")
    said(session, "next")
    out = said(session, "atk rats")
    assert "the fight is won after 4 rounds" in out
    assert "fell: Bram Ironfoot, goblin, rats" in out
    assert "Old Man Harker: dealt" in out and "`fight on` goes on" in out
    assert source.left == 0
    assert "the fight is won after 4 rounds" in said(session, "status")  # the summary again, after a win
    assert "the fight goes on" in said(session, "fight on")
