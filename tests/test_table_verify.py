"""A shared table's rolls anyone can verify (issues 34 and 35): the seed's commitment shown to every player as
they connect, each player's salt mixed in as they join, every table statement journaled under who said it, and
the session's record exported and checked by `crux log --verify` and by the independent verifier
(tests/verify_alone.py). Real clients on loopback, as tests/test_table.py has them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_table import Page, fight_of, links, table  # noqa: F401 (fixtures used by name)

from crux_cli.core.rng import DiceStream
from crux_cli.repl.joining import Joined
from crux_cli.repl.serving import Sharing
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings, TableAsked, make_runner
from crux_cli.table.client import TableClient

ALONE = Path(__file__).resolve().parent / "verify_alone.py"
ANN_SALT, BOB_SALT = "00112233445566778899aabbccddeeff", "f0e1d2c3b4a5968778695a4b3c2d1e0f"


def crux(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_STATE_HOME=str(state), NO_COLOR="1")
    env.pop("CRUX_SESSION", None)
    return subprocess.run([sys.executable, "-m", "crux_cli", *args], capture_output=True, text=True, env=env)


def checked(state: Path, path: Path, lines: list[str]) -> tuple[subprocess.CompletedProcess[str],
                                                                 subprocess.CompletedProcess[str]]:
    """`crux log --verify` and the independent verifier, on `lines`."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    ours = crux(state, "log", "--verify", str(path))
    alone = subprocess.run([sys.executable, str(ALONE), str(path)], capture_output=True, text=True)
    return ours, alone


def joined(page: Page, hero: str | None, salt: str) -> dict[str, Any]:
    page.send(type="join", hero=hero, salt=salt)
    return page.next("joined")


@pytest.fixture
def journaled(own_state_dir: Path) -> Iterator[Sharing]:
    """A GM's session as `crux serve` opens it: fresh dice (no --seed), its journal kept in the store."""
    settings = Settings()
    session = Session(make_runner(settings))
    session.journal = settings.journal()
    sharing = Sharing(session, TableAsked())
    session.sharing = sharing
    yield sharing
    sharing.stop()
    session.journal.close()


def played(sharing: Sharing) -> tuple[list[dict[str, Any]], str]:
    """Two players who join with their salts, rolls from both and from the GM (prompt and page), the session
    ended: the pages' welcomes and joined frames, and the session's id."""
    fight_of(sharing, "hero Wren")
    found = sharing.server.links()
    wren, other, gm = Page(found["player"]), Page(found["player"]), Page(found["gm"])
    frames = [wren.welcome, other.welcome, gm.welcome, joined(wren, "Wren", ANN_SALT), joined(other, None, BOB_SALT)]
    for page, text in ((wren, "DEX +1b"), (other, "2d6+1"), (gm, "1d8"), (wren, "3d20")):
        assert page.say(text)["type"] == "entry", text
    said = sharing.handle("4d6kh3")  # at the GM's prompt
    assert sharing.session.refusals == 0, said
    for page in (wren, other, gm):
        page.close()
    journal = sharing.session.journal
    assert journal is not None
    sharing.stop()
    journal.close()  # the session ends: its seed may be revealed
    return frames, journal.session


def test_a_shared_table_with_players_salts_verifies_with_crux_and_alone(journaled: Sharing, own_state_dir: Path,
                                                                        tmp_path: Path) -> None:
    frames, session = played(journaled)
    commitment = frames[0]["commitment"]
    assert isinstance(commitment, str) and len(commitment) == 64
    assert all(frame["commitment"] == commitment for frame in frames)  # every page, and each join, shows it
    export = crux(own_state_dir, "log", "--export", "--session", session)
    assert export.returncode == 0, export.stderr
    lines = export.stdout.splitlines()
    record = [json.loads(line) for line in lines]
    assert record[0]["type"] == "commit" and record[0]["commit"] == commitment  # what the pages were shown
    assert [(line["salt"], line["who"]) for line in record if line["type"] == "salt"] == \
        [(ANN_SALT, "Wren"), (BOB_SALT, f"player {bob_id(record)}")]
    assert record[-1]["type"] == "reveal"
    ours, alone = checked(own_state_dir, tmp_path / "record.jsonl", lines)
    assert ours.returncode == 0 and ours.stdout.startswith("verified: 5 rolls"), ours.stderr
    assert (alone.returncode, alone.stdout) == (0, ours.stdout)

    at = next(n for n, line in enumerate(record) if line["type"] == "entry" and line["statement"] == "2d6+1")
    changed = json.loads(lines[at])
    changed["dice"][0][0][1] = changed["dice"][0][0][1] % 6 + 1  # one face of the player's roll
    ours, alone = checked(own_state_dir, tmp_path / "changed.jsonl", [*lines[:at], json.dumps(changed),
                                                                       *lines[at + 1:]])
    assert ours.returncode == 1 and f"line {at + 1}:" in ours.stderr, ours.stderr
    assert alone.returncode == 1 and alone.stderr.startswith(f"line {at + 1}:"), alone.stderr


def bob_id(record: list[dict[str, Any]]) -> str:
    """The connection id in the label of the player who joined with no hero (its salt line names them)."""
    who = next(line["who"] for line in record if line["type"] == "salt" and line["salt"] == BOB_SALT)
    return str(who).removeprefix("player ")


def test_crux_log_names_who_said_each_table_statement(journaled: Sharing, own_state_dir: Path) -> None:
    _, session = played(journaled)
    shown = crux(own_state_dir, "log", "--session", session, "--json")
    assert shown.returncode == 0, shown.stderr
    who = {entry["statement"]: entry["who"] for entry in map(json.loads, shown.stdout.splitlines())}
    assert who["DEX +1b"] == who["3d20"] == "Wren"  # a player's rolls, as their hero
    assert who["2d6+1"].startswith("player ") and len(who["2d6+1"]) > len("player ")  # no hero: their connection
    assert who["1d8"] is None and who["4d6kh3"] is None  # the GM's own, from the page and the prompt, as at home
    plain = crux(own_state_dir, "log", "--session", session)
    assert "Wren" in plain.stdout and who["2d6+1"] in plain.stdout


def test_a_malformed_or_oversized_salt_gets_an_error_and_mixes_nothing(table: Sharing,  # noqa: F811
                                                                       links: dict[str, str]) -> None:  # noqa: F811
    page = Page(links["player"])
    for salt, said in (("not hex!", "hex digits"), ("abc", "hex digits"), ("ab" * 65, "at most 64 bytes")):
        page.send(type="join", hero=None, salt=salt)
        error = page.next("error")
        assert said in error["message"] and "Traceback" not in error["message"]
    assert table.host.salts == set()
    assert joined(page, None, "ab" * 64)["commitment"] == page.welcome["commitment"]  # 64 bytes: taken
    assert table.host.salts == {bytes.fromhex("ab" * 64)}


def test_a_salt_sent_again_on_reconnecting_is_mixed_once(table: Sharing, links: dict[str, str]) -> None:  # noqa: F811
    stream = table.session.runner.source
    assert isinstance(stream, DiceStream)
    first = Page(links["player"])
    joined(first, None, ANN_SALT)
    key = stream.key
    first.close()
    again = Page(links["player"])
    assert joined(again, None, ANN_SALT)["commitment"] == again.welcome["commitment"]
    assert stream.key == key  # not re-keyed: the record holds the salt once


def test_crux_join_sends_its_salt_and_shows_the_commitment(table: Sharing, links: dict[str, str]) -> None:  # noqa: F811
    said: list[str] = []
    player = Joined(links["player"], table.session.palette, said.append)
    salt = player.client.salt
    assert salt is not None and len(bytes.fromhex(salt)) == 16
    player.client.start()
    try:
        commitment = table.host.commitment()
        assert commitment is not None and any(commitment in line for line in said), said
        assert player.client.say("1d6") is not None  # answered in order: the join is in by now
        assert table.host.salts == {bytes.fromhex(salt)}
    finally:
        player.client.stop()
    assert Joined(links["player"], table.session.palette, said.append).client.salt != salt  # fresh each time


def test_a_table_client_joins_with_its_salt_whether_or_not_it_has_a_hero(table: Sharing,  # noqa: F811
                                                                         links: dict[str, str]) -> None:  # noqa: F811
    frames: list[dict[str, Any]] = []
    client = TableClient(links["player"], frames.append, lambda what: None, salt=BOB_SALT)
    client.start()
    try:
        client.join(None)  # `/hero` with no hero: the salt goes with it, mixed once
        assert client.say("1d6") is not None
        assert [f.get("commitment") for f in frames if f["type"] == "joined"] == [table.host.commitment()] * 2
        assert table.host.salts == {bytes.fromhex(BOB_SALT)}
    finally:
        client.stop()
