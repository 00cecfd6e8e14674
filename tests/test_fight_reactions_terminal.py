"""Every reaction of seed 001 §6.2, `odds atk NAME`, an undo of each and a resume, through a real
pseudo-terminal and the installed `crux`; the sheet and the ledger are checked after each step."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pexpect
import pytest
from helpers.terminal import PROMPT, start
from test_fight_terminal import say
from test_repl_fight import make_sheet

from crux_cli.state.store import load_hero


def answer(child: pexpect.spawn, line: str, *seen: str) -> str:
    """Send a line, wait for what it must say and the next prompt; what it printed."""
    child.sendline(line)
    for text in seen:
        child.expect_exact(text)
    child.expect_exact(PROMPT)
    return child.before


def hit_for(printed: str) -> int:
    """The damage an attack line says it dealt (0 on a miss)."""
    found = re.search(r"· (\d+) damage", printed)
    return int(found.group(1)) if found else 0


@pytest.mark.slow
def test_every_reaction_odds_and_undo_at_a_real_terminal(environ: dict[str, str],
                                                        tmp_path: Path) -> None:
    environ = {**environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    sheet = make_sheet(tmp_path, "Wren", hp=100, hp_max=100)
    child = start(environ, "repl", "--seed", "5")
    say(child, "/pager off", "pager: off")
    say(child, f"/load {sheet}", "Wren loaded")
    say(child, "fight", "Wren joins the fight")
    say(child, "hero Bram", "Bram joins the fight")
    say(child, "enemy ogre hp 30 heavy atk 2d6", "ogre (30 HP, heavy) joins the fight")
    say(child, "init ambush", "round 1", "Wren's turn: 3 actions")

    # Opportunity Attack: the ogre strikes Wren on her turn; the damage goes to her sheet; undo puts it back
    printed = answer(child, "react ogre opportunity Wren", "ogre: Opportunity Attack · 2 left",
                     "opportunity attack: ogre → Wren: atk 2d6")
    assert load_hero(sheet).hp == 100 - hit_for(printed)
    say(child, "undo", "took back: react ogre opportunity Wren")
    assert load_hero(sheet).hp == 100
    say(child, "status", "ogre         3 actions")
    printed = answer(child, "react ogre opportunity Wren", "opportunity attack: ogre → Wren")
    wren_hp = 100 - hit_for(printed)
    assert load_hero(sheet).hp == wren_hp

    # Bram's turn: Wren Defends, Interposes for and Helps him, each undone once and made again
    say(child, "next", "Bram's turn: 3 actions")
    for line, said in (("react Wren defend Bram", "the next attack against Bram this round has +1 Bane"),
                       ("react Wren interpose Bram", "the next attack against Bram this round hits Wren instead"),
                       ("react Wren help Bram", "Bram has +1 Boon on their next roll")):
        say(child, line, said)
        say(child, "undo", f"took back: {line}")
        say(child, line, said)
    say(child, "status", "Wren         0 actions", "reacted: defend, interpose, help",
        "+1 Boon waiting · defended (+1 Bane on the next attack)")
    say(child, "react ogre help Bram", "ogre cannot help Bram, who is not an ally")  # §6.2 "an ally"

    # the odds of the ogre's attack on Bram: Defend's Bane, Interpose's new target; nothing spent
    say(child, "odds atk Bram by ogre", "Bram is defended: +1 Bane on the attack",
        "Wren interposes: the attack on Bram hits Wren", "ogre → Wren: atk 2d6 -1B", "exact odds", "mean damage")
    say(child, "next", "ogre's turn: 2 actions")  # round 1: what the opportunity attack left
    say(child, "odds atk Bram", "ogre → Wren: atk 2d6 -1B", "exact odds")
    before = wren_hp
    printed = answer(child, "atk Bram", "Wren interposes: the attack on Bram hits Wren", "ogre → Wren: atk 2d6 -1B")
    assert load_hero(sheet).hp == before - hit_for(printed)
    say(child, "undo", "took back: atk Bram")
    assert load_hero(sheet).hp == before
    printed = answer(child, "atk Bram", "ogre → Wren: atk 2d6 -1B")  # undone, the cover is back for the roll
    after_hit = before - hit_for(printed)
    assert load_hero(sheet).hp == after_hit

    # a kill -9, then a resume: the ledger and the sheet as they were
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    again = start(environ, "repl")
    assert "a fight was left running" in again.before
    say(again, "y", "fight loaded from", "round 1, ogre's turn", "reacted: defend, interpose, help",
        "1 action ")
    assert load_hero(sheet).hp == after_hit
    say(again, "undo", "nothing to undo in this session")
    again.sendline("/quit")
    again.expect(pexpect.EOF)
