"""The shared table in real terminals (issue 34): `crux serve` (the GM's REPL) and `crux join` beside it, each
in a pseudo-terminal of its own, on loopback; a kill -9 of the server, and the same links after a restart."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pexpect
import pytest
from helpers import terminal
from helpers.terminal import PROMPT, answered
from websockets.sync.client import connect

from crux_cli.table.client import socket_url

pytestmark = pytest.mark.slow


def serve(environ: dict[str, str]) -> tuple[pexpect.spawn, dict[str, str]]:
    """`crux serve` in a terminal, and its links (what it said before its prompt: `child.shown`)."""
    gm = terminal.start(environ, "serve", timeout=20)
    shown = gm.before
    links = {"player": re.search(r"player link (\S+)", shown), "gm": re.search(r"GM link\s+(\S+)", shown)}
    assert links["player"] and links["gm"], shown
    gm.shown = shown
    return gm, {role: found.group(1) for role, found in links.items() if found}


def join(environ: dict[str, str], link: str, hero: str | None = None) -> pexpect.spawn:
    player = terminal.start(environ, "join", link, *(["--hero", hero] if hero else []), prompt=None, timeout=20)
    player.expect_exact("at the table")
    player.expect(r"seed commitment ([0-9a-f]{64})")  # shown as it connects (issue 35)
    player.commitment = player.match.group(1)
    if hero:
        player.expect_exact(f"you roll as {hero}")
    player.expect_exact(PROMPT)
    return player


def test_two_players_join_from_their_terminals_and_the_table_rolls(environ: dict[str, str]) -> None:
    gm, links = serve(environ)
    for line, said in (("fight", "a fight begins"), ("hero Wren", "Wren joins"), ("hero Ash", "Ash joins"),
                       ("enemy ogre hp 20", "ogre (20 HP")):
        answered(gm, line, said)
    wren, ash = join(environ, links["player"], "Wren"), join(environ, links["player"], "Ash")
    committed = re.search(r"seed commitment ([0-9a-f]{64})", gm.shown)
    assert committed and wren.commitment == ash.commitment == committed.group(1)  # the GM's, as the table opened
    answered(wren, "DEX +1b", "net +1")  # rolled by the table, as Wren
    ash.expect_exact("Wren: DEX +1b")
    gm.expect_exact("Wren at the table: DEX +1b")
    answered(ash, "enemy rat hp 3", "'enemy' is the GM's to say at this table")
    answered(gm, "init", "round 1")
    wren.expect_exact("your turn")
    answered(ash, "atk ogre", "is Wren's to say, not yours")
    answered(wren, "atk ogre", "Wren")
    gm.expect_exact("Wren at the table: atk ogre")
    for child in (wren, ash, gm):
        assert terminal.leave_now(child) == 0


def test_a_wrong_link_is_refused_in_plain_words(environ: dict[str, str]) -> None:
    gm, links = serve(environ)
    for link, said in ((links["player"] + "x", "the table refused this link"),
                       ("http://127.0.0.1:9/nothing", "not a table's link")):
        child = terminal.start(environ, "join", link, prompt=None, timeout=20)
        child.expect_exact(said)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2
    assert terminal.leave_now(gm) == 0


def test_kill_9_of_the_server_loses_nothing_and_everyone_comes_back(environ: dict[str, str],
                                                                     tmp_path: Path) -> None:
    gm, links = serve(environ)
    for line, said in (("fight", "a fight begins"), ("hero Wren", "Wren joins"), ("enemy ogre hp 20", "ogre"),
                       ("init", "round 1"), ("damage ogre 12", "ogre")):
        answered(gm, line, said)
    wren = join(environ, links["player"], "Wren")
    answered(wren, "d20", "d20:")
    gm.kill(signal.SIGKILL)
    gm.close()
    wren.expect_exact("the table is gone: reconnecting")
    again, relinked = serve(environ)
    assert relinked == links  # the same links work
    assert "a fight was left running (round 1, Wren's turn" in again.shown
    answered(again, "y", "HP 8/20")
    wren.expect_exact("at the table")
    answered(wren, "d6", "d6:")
    with connect(socket_url(links["player"])) as page:  # a page coming back sees the same state
        page.send(json.dumps({"type": "hello"}))
        frames = [json.loads(page.recv(timeout=10)) for _ in range(3)]
    log, fight = frames[1], frames[2]["fight"]
    texts = [entry["text"] for entry in log["entries"]]
    assert texts.index("damage ogre 12") < texts.index("d20") < texts.index("d6")  # the log from before the kill
    assert fight["round"] == 1 and fight["order"][1]["state"] == "bloodied"
    for child in (wren, again):
        assert terminal.leave_now(child) == 0
