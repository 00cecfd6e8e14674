"""A four-round fight through a real pseudo-terminal (pexpect) and the installed `crux` command: a bracketed
paste of prepared lines, Tab completion of names with spaces, acting for someone whose turn it is not, a prone
enemy, Help on a save, a hero dropping to Dying mid-turn, minions, and the summary when it is won."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest
from helpers.terminal import PROMPT, start
from test_repl_fight import make_sheet

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def say(child: pexpect.spawn, line: str, *answers: str) -> None:
    """Send a line at the prompt, see its answers, and wait for the next prompt."""
    child.sendline(line)
    for answer in answers:
        child.expect_exact(answer)
    child.expect_exact(PROMPT)


def tab(child: pexpect.spawn, typed: str, completed: str, rest: str, *answers: str) -> None:
    """Type `typed`, press Tab and see `completed` appear, then finish the line with `rest`."""
    child.send(typed + "\t")
    child.expect_exact(completed)
    say(child, rest, *answers)


@pytest.mark.slow
def test_a_four_round_fight_at_a_real_terminal(environ: dict[str, str], tmp_path: Path) -> None:
    sheet = make_sheet(tmp_path, "Bram Ironfoot", hp=30, hp_max=30)
    child = start(environ, "repl", "--seed", "3")
    say(child, f"/load {sheet}", "Bram Ironfoot loaded")
    say(child, "fight", "Bram Ironfoot joins the fight")
    # a block of prepared lines, pasted at once, runs line by line
    child.send(f'{PASTE_START}hero "Old Man Harker"\nenemy goblin hp 40 atk d4\nminions rats 2 atk d4{PASTE_END}')
    say(child, "", "Old Man Harker joins the fight", "goblin (40 HP, unarmoured) joins the fight",
        "their max is a plain hit")
    say(child, "init ambush", "round 1", "Bram Ironfoot's turn: 3 actions")

    # round 1
    tab(child, "cond add gob", "goblin", " prone", "goblin: prone")
    tab(child, "atk gob", "goblin", "", "goblin is prone: +1 Boon to a melee attack against them")
    tab(child, "react Old", '"Old Man Harker"', " help Bram", "Bram Ironfoot has +1 Boon on their next roll")
    say(child, "next", "Old Man Harker's turn")
    say(child, "save Bram STR", "Bram Ironfoot: +1 Boon from Help", "Bram Ironfoot: save STR help:")
    say(child, "next", "goblin's turn")
    say(child, "next", "rats' turn")
    say(child, "next", "round 2")

    # round 2: Bram drops to Dying in the middle of his turn
    say(child, "move", "2 left")
    say(child, "damage Bram 99", "Bram Ironfoot drops to Dying: 1 action left")
    for _ in range(3):
        say(child, "next")
    say(child, "next", "round 3")
    for _ in range(3):
        say(child, "next")
    say(child, "next", "round 4")

    # round 4: the GM finishes the enemies off; the fight says it is won
    say(child, "heal Old 1", "Old Man Harker: heal 1")
    say(child, "damage goblin 40", "goblin takes 40: 0/40 HP · down")
    say(child, "damage rats 1", "1 of rats killed, 1 left")
    say(child, "damage rats 1", "the fight is won after 4 rounds", "fell: Bram Ironfoot, goblin, rats")
    say(child, "status", "the fight is won after 4 rounds")  # the summary again
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_a_name_only_dying_hero_survives_save_load_and_a_kill_9_resume(environ: dict[str, str],
                                                                     tmp_path: Path) -> None:
    import os
    import signal

    child = start(environ, "repl", "--seed", "3")
    say(child, "fight", "a fight begins")
    say(child, "hero Zed", "Zed joins the fight")
    say(child, "enemy goblin hp 7 atk d6", "goblin (7 HP")
    say(child, "init", "round 1")
    say(child, "damage Zed 10", "Dying no → yes")
    say(child, "damage Zed 2", "Wounds 1 → 3")
    say(child, "cond add Zed prone", "now prone")
    whole = "HP 0/10 · Wounds 3/6 · Grit "
    say(child, f"save {tmp_path / 'f.toml'}", "fight saved")
    child.sendline("status")
    child.expect_exact("round 1, ")
    child.expect_exact(PROMPT)
    status = next(line for line in child.before.splitlines() if "Zed" in line and whole in line).strip()
    assert status.endswith("dying · prone")
    os.kill(child.pid, signal.SIGKILL)  # no goodbye: the terminal is gone
    child.expect(pexpect.EOF)
    child.close()

    again = start(environ, "repl")
    assert "a fight was left running" in again.before
    say(again, "y", "fight loaded from", status)  # Zed as the kill left him
    say(again, "undo", "nothing to undo in this session")  # resuming is not taken back
    say(again, "status", status)
    say(again, f"load {tmp_path / 'f.toml'}", "a fight is running")
    say(again, "y", "fight loaded from", status)  # and the file saved before the kill holds him too
    again.sendline("/quit")
    again.expect(pexpect.EOF)
