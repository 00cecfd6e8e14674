"""The shared table (issue 34) with real clients on loopback: the GM's session served in this process
(repl/serving.py), pages played by WebSocket clients (PROTOCOL.md), every roll made by the table."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from crux_cli.repl.serving import Sharing
from crux_cli.repl.session import Session
from crux_cli.running.settings import Settings, TableAsked, make_runner
from crux_cli.table.client import socket_url
from crux_cli.table.keeping import Keeping, TableBusy


class Page:
    """One page of the table, as a browser's script would drive it."""

    def __init__(self, link: str, hello: bool = True) -> None:
        self.ws: ClientConnection = connect(socket_url(link), max_size=None).__enter__()  # closed by `close`
        self.welcome: dict[str, Any] = {}
        self.log: dict[str, Any] = {}
        self.fight: dict[str, Any] = {}
        if hello:
            self.hello()

    def send(self, **frame: Any) -> None:
        self.ws.send(json.dumps(frame))

    def next(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next frame of type `kind` (frames of other types before it are passed over)."""
        while True:
            frame = json.loads(self.ws.recv(timeout=timeout))
            if frame["type"] == kind:
                return frame

    def hello(self, since: int | None = None) -> None:
        self.send(type="hello", since=since)
        self.welcome, self.log, self.fight = self.next("welcome"), self.next("log"), self.next("fight")

    def join(self, hero: str) -> None:
        self.send(type="join", hero=hero)
        assert self.next("joined")["hero"].lower() == hero.lower()

    def say(self, text: str, privacy: str = "public", id: int = 1) -> dict[str, Any]:
        """The answer to `text`: its entry, or its refusal."""
        self.send(type="say", text=text, privacy=privacy, id=id)
        while True:
            frame = json.loads(self.ws.recv(timeout=10))
            if frame["type"] in ("entry", "refused") and frame.get("id") == id:
                return frame

    def nothing_more(self, kind: str = "entry") -> bool:
        """No frame of `kind` comes before a ping's answer (frames are sent in order)."""
        self.send(type="ping", id=99)
        while True:
            frame = json.loads(self.ws.recv(timeout=10))
            if frame["type"] == kind:
                return False
            if frame["type"] == "pong":
                return True

    def closed_with(self) -> int | None:
        try:
            while True:
                self.ws.recv(timeout=10)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def table(own_state_dir: Path) -> Iterator[Sharing]:
    session = Session(make_runner(Settings(seed=7)))
    sharing = Sharing(session, TableAsked())
    session.sharing = sharing
    yield sharing
    sharing.stop()


@pytest.fixture
def links(table: Sharing) -> dict[str, str]:
    return table.server.links()


def fight_of(table: Sharing, *lines: str) -> None:
    for line in ("fight", *lines):
        said = table.handle(line)
        assert table.session.refusals == 0, said


def test_a_players_roll_reaches_every_page_with_its_breakdown(links: dict[str, str]) -> None:
    wren, ash, gm = Page(links["player"]), Page(links["player"]), Page(links["gm"])
    assert (wren.welcome["role"], gm.welcome["role"]) == ("player", "gm")
    answer = wren.say("2d6+1")
    assert answer["type"] == "entry" and answer["text"] == "2d6+1" and answer["who"] == "someone"
    assert "2d6" in answer["lines"][0] and "[" in answer["lines"][0]  # the breakdown, as the terminal prints it
    for other in (ash, gm):
        seen = other.next("entry")
        assert seen["lines"] == answer["lines"] and "id" not in seen


def test_the_gms_own_lines_at_the_prompt_reach_the_pages(table: Sharing, links: dict[str, str]) -> None:
    page = Page(links["player"])
    said = table.handle("3d6")
    entry = page.next("entry")
    assert entry["who"] == "GM" and entry["text"] == "3d6" and entry["lines"] == [line for line in said]


def test_a_player_rolls_as_the_hero_they_chose_and_sees_the_fight(table: Sharing, links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20", "init")
    page = Page(links["player"])
    assert "Wren" in page.welcome["heroes"]
    page.join("wren")  # any case: the hero's own name comes back
    order = page.fight["fight"]["order"]
    assert [c["name"] for c in order] == ["Wren", "ogre"] and order[0]["acting"]
    assert order[1]["state"] == "unhurt" and "hp" not in order[1]  # an enemy's HP in words for players
    assert "hp" in order[0] and "grit" in order[0]
    answer = page.say("atk ogre")
    assert answer["type"] == "entry" and answer["kind"] == "word" and answer["who"] == "Wren"
    assert page.next("fight")["fight"]["round"] == 1


def test_the_gm_page_sees_enemies_numbers_and_players_see_them_when_the_gm_says(table: Sharing,
                                                                                 links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20", "init", "damage ogre 12")
    gm, player = Page(links["gm"]), Page(links["player"])
    ogre = gm.fight["fight"]["order"][1]
    assert (ogre["hp"], ogre["state"]) == (8, "bloodied")
    assert "hp" not in player.fight["fight"]["order"][1]
    table.setting(["numbers", "on"], None)  # type: ignore[arg-type]
    assert player.next("fight")["fight"]["order"][1]["hp"] == 8


@pytest.mark.parametrize("line", ["enemy rat hp 3", "undo", "/seed 3", "end", "init", "damage ogre 5"])
def test_a_player_saying_a_gm_word_is_refused_and_nothing_changes(table: Sharing, links: dict[str, str],
                                                                 line: str) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20")
    before = table.session.fight
    page = Page(links["player"])
    page.join("Wren")
    answer = page.say(line)
    assert answer["type"] == "refused" and answer["reason"] in ("gm only", "not yours")
    assert table.session.fight == before
    assert page.nothing_more()


def test_a_player_acts_for_their_own_hero_only(table: Sharing, links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "hero Ash", "enemy ogre hp 20", "init")
    ash = Page(links["player"])
    ash.join("Ash")
    refused = ash.say("atk ogre")  # Wren's turn
    assert refused["type"] == "refused" and refused["reason"] == "not yours" and "Wren" in refused["lines"][0]
    assert ash.say("damage Wren 3", id=2)["reason"] == "not yours"
    rolled = ash.say("DEX +1b", id=3)  # a roll names its hero: rolled as Ash, not as whoever acts
    assert rolled["type"] == "entry" and rolled["who"] == "Ash" and "Ash" in " ".join(rolled["lines"])
    plain = Page(links["player"])
    assert plain.say("atk ogre")["reason"] == "not yours"  # no hero chosen: plain dice only


def test_the_gm_link_may_say_the_gms_words(table: Sharing, links: dict[str, str]) -> None:
    gm = Page(links["gm"])
    assert gm.say("fight")["type"] == "entry"
    assert gm.say("enemy rat hp 3", id=2)["type"] == "entry"
    assert table.session.fight is not None and "rat" in table.session.fight.names()


def test_privacy_as_foundry_has_it(links: dict[str, str]) -> None:
    roller, other, gm = Page(links["player"]), Page(links["player"]), Page(links["gm"])
    mine = roller.say("d20", privacy="gm")
    assert not mine["hidden"] and gm.next("entry")["privacy"] == "gm" and other.nothing_more()
    blind = roller.say("d20", privacy="blind", id=2)
    assert blind["hidden"] and blind["lines"] == ["(rolled blind: the GM sees it)"]
    seen = gm.next("entry")
    assert not seen["hidden"] and "d20" in seen["lines"][0] and other.nothing_more()
    own = roller.say("d20", privacy="self", id=3)
    assert not own["hidden"] and gm.nothing_more() and other.nothing_more()
    odds = roller.say("odds d20", id=4)
    assert odds["kind"] == "odds" and gm.nothing_more() and other.nothing_more()


def test_a_reconnecting_page_gets_what_it_missed(table: Sharing, links: dict[str, str]) -> None:
    page = Page(links["player"])
    first = page.say("d6")
    page.close()
    table.handle("d8")
    table.handle("d10")
    again = Page(links["player"], hello=False)
    again.hello(since=first["seq"])
    assert [e["text"] for e in again.log["entries"]] == ["d8", "d10"]


def test_a_wrong_or_missing_token_gets_a_bare_refusal(links: dict[str, str]) -> None:
    base = links["player"].rsplit("/t/", 1)[0]
    for url in (base + "/t/wrong", links["player"] + "x"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url)
        assert refused.value.code == 403 and refused.value.read() == b""
        with pytest.raises(InvalidStatus) as closed, connect(socket_url(url)):
            pass
        assert closed.value.response.status_code == 403
    for path in ("/", "/t/", "/static/../../etc/passwd", "/static/%2e%2e%2fetc%2fpasswd", "/static/x.js"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + path)
        assert missing.value.code == 404 and missing.value.read() == b""


def test_the_page_comes_with_a_strict_content_security_policy(links: dict[str, str]) -> None:
    with urllib.request.urlopen(links["player"]) as answer:
        assert answer.status == 200
        assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_malformed_frames_get_an_error_and_the_connection_stays(links: dict[str, str]) -> None:
    page = Page(links["player"], hello=False)
    page.send(type="say", text="d6")  # before hello
    assert "hello" in page.next("error")["message"]
    page.hello()
    for bad in ("not json", "[1, 2]", '{"type": "nope"}', '{"type": "say"}', '{"type": "say", "text": 3}',
                '{"type": "say", "text": "d6", "privacy": "loud"}', '{"type": "join", "hero": ["x"]}'):
        page.ws.send(bad)
        assert page.next("error")["message"]
    page.ws.send(b"\x00\x01")
    assert "binary" in page.next("error")["message"]
    assert page.say("d4")["type"] == "entry"


def test_a_statement_over_the_limit_is_refused(links: dict[str, str]) -> None:
    page = Page(links["player"])
    assert page.say("d6+" * 400)["type"] == "refused"


def test_an_oversized_frame_closes_that_connection_only(links: dict[str, str]) -> None:
    big, other = Page(links["player"]), Page(links["player"])
    big.ws.send(json.dumps({"type": "say", "text": "x" * 9000}))
    assert big.closed_with() == 1009
    assert other.say("d6")["type"] == "entry"


def test_a_flood_closes_that_connection_only(links: dict[str, str]) -> None:
    flood, other = Page(links["player"]), Page(links["player"])
    for _ in range(200):
        try:
            flood.send(type="ping")
        except ConnectionClosed:
            break
    assert flood.closed_with() == 1008
    assert other.say("d6")["type"] == "entry"


def test_two_gms_cannot_hold_one_table(table: Sharing) -> None:
    other = Keeping(table.keeping.folder)
    with pytest.raises(TableBusy):
        other.hold()
    other.close()


def test_the_links_stay_the_same_when_the_table_is_served_again(table: Sharing, links: dict[str, str]) -> None:
    table.stop()
    again = Sharing(table.session, TableAsked())
    try:
        relinked = again.server.links()
        assert [link.rsplit("/t/", 1)[1] for link in relinked.values()] == \
               [link.rsplit("/t/", 1)[1] for link in links.values()]
    finally:
        again.stop()


def test_names_reach_the_pages_as_text_never_as_html(table: Sharing, links: dict[str, str]) -> None:
    """The page puts every text in as text; the server sends it as it is, escaped by nobody but JSON."""
    name = "<img src=x onerror=alert(1)>"
    fight_of(table, f'hero "{name}"', "enemy ogre hp 5")
    page = Page(links["player"])
    assert page.fight["fight"]["order"][0]["name"] == name and name in page.welcome["heroes"]
    assert all("&lt;" not in entry["text"] for entry in page.log["entries"])


def test_the_gm_starts_and_stops_serving_from_the_prompt(own_state_dir: Path) -> None:
    session = Session(make_runner(Settings(seed=3)))
    said = session.handle("/serve")
    assert session.sharing is not None and "player link http://127.0.0.1:" in said[0]
    link = said[0].split()[-1]
    assert Page(link).say("d6")["type"] == "entry"
    assert session.handle("/serve numbers on") == ["enemies' HP shown to players as numbers"]
    assert "not take" in " ".join(session.handle("/serve louder"))
    session.handle("/serve stop")
    assert session.sharing is None
    assert "not served" in " ".join(session.handle("/serve stop"))


def test_serving_beyond_this_machine_says_the_links_are_the_only_key() -> None:
    from crux_cli.repl.serving import network_warning

    assert network_warning("127.0.0.1", False) == []
    said = " ".join(network_warning("0.0.0.0", False))
    assert "only key" in said and "--cert" in said and "reverse proxy" in said
    assert "--cert" not in " ".join(network_warning("0.0.0.0", True))


def test_cert_and_key_go_together() -> None:
    from click.testing import CliRunner

    from crux_cli.cli import crux

    result = CliRunner().invoke(crux, ["serve", "--cert", __file__])
    assert result.exit_code != 0 and "--cert and --key go together" in str(result.exception or result.output)


def test_the_gm_link_cannot_end_the_gms_session_or_its_serving(table: Sharing, links: dict[str, str]) -> None:
    gm = Page(links["gm"])
    for number, line in enumerate(("/quit", "/serve stop", "/exit"), 1):
        assert gm.say(line, id=number)["type"] == "refused"
    assert not table.session.done and not table.stopped
    assert gm.say("/seed 5", id=9)["type"] == "entry"  # the GM's other commands work from the page


def test_a_joined_players_roll_keeps_the_privacy_asked(table: Sharing, links: dict[str, str]) -> None:
    fight_of(table, "hero Wren", "enemy ogre hp 20")
    wren, other, gm = Page(links["player"]), Page(links["player"]), Page(links["gm"])
    wren.join("Wren")
    table.handle("end")  # no fight: a roll of the rule set as Wren
    other.next("entry")
    gm.next("entry")
    for number, privacy in enumerate(("gm", "blind", "self"), 1):
        answer = wren.say("1d6", privacy=privacy, id=number)
        assert answer["privacy"] == privacy
    assert other.nothing_more()


def test_a_connection_that_never_says_hello_is_closed(links: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.table import server

    monkeypatch.setattr(server, "HELLO_WITHIN", 0.3)
    silent = Page(links["player"], hello=False)
    assert silent.closed_with() == 1008
    assert Page(links["player"]).say("d6")["type"] == "entry"


def test_with_a_certificate_the_links_are_https_and_the_page_talks_tls(own_state_dir: Path, tmp_path: Path) -> None:
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("openssl makes the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    session = Session(make_runner(Settings(seed=1)))
    sharing = session.sharing = Sharing(session, TableAsked(cert=str(cert), key=str(key)))
    try:
        link = sharing.server.links()["player"]
        assert link.startswith("https://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(link, context=trusted) as answer:
            assert answer.status == 200
        with connect(socket_url(link), ssl=trusted) as page:
            assert socket_url(link).startswith("wss://")
            page.send(json.dumps({"type": "hello"}))
            assert json.loads(page.recv(timeout=10))["type"] == "welcome"
    finally:
        sharing.stop()


def test_the_gms_session_commands_are_never_shown_to_players(table: Sharing, links: dict[str, str]) -> None:
    """`/serve` at the prompt shows the GM link: no page but the GM's may ever see a command's answer."""
    player, gm = Page(links["player"]), Page(links["gm"])
    table.handle("/serve")
    table.handle("/log")
    assert gm.say("/log", id=5)["privacy"] == "gm"
    table.handle("d4")
    assert player.next("entry")["text"] == "d4"  # the first entry a player gets is the roll after them
    assert links["gm"].rsplit("/", 1)[1] not in json.dumps(player.log)


def test_a_players_escape_sequence_never_reaches_a_terminal(table: Sharing, links: dict[str, str],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from crux_cli.table.frames import printable

    assert printable("d6 \x1b[2J\u202e") == "d6 \\x1b[2J\\u202e" and printable("Wren é") == "Wren é"
    Page(links["player"]).say("d6 # \x1b]0;owned\x07")
    echoed = capsys.readouterr().out  # the GM's terminal
    assert "\x1b]0" not in echoed and "\x07" not in echoed and "\\x1b]0;owned\\x07" in echoed
