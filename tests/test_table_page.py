"""The table's page in a real browser: Debian's chromium, driven by Playwright, against the real server.

The GM's session is served on 127.0.0.1 (port 0) as `crux serve` serves it; a player page and the GM page
are opened in headless Chromium. A roll typed on the player page shows on both with its breakdown, the
GM's words reach the player page, a hostile name is text, a wrong token is refused, and at a phone's
360 px the turn order is readable (the screenshot is kept in the test's tmp folder).

Chromium is never downloaded: Playwright launches /usr/bin/chromium (.ci/run installs it with apt-get).
A missing chromium fails these tests; it never skips them.
"""

from __future__ import annotations

import itertools
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from crux_cli.repl.serving import Sharing
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner
from crux_cli.running.settings import TableAsked

pytestmark = pytest.mark.slow  # a browser and a server per test

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOSTILE = "<img src=x onerror=alert(1)>"
WAIT = 20_000  # ms: a busy machine is slow, never wrong; a check that passes returns at once

expect.set_options(timeout=WAIT)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    assert CHROMIUM.is_file(), "chromium is not installed: .ci/run installs it (apt-get install -y chromium)"
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh user-data-dir
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=ARGS,
            viewport={"width": 1000, "height": 800})
        yield context
        context.close()


class Table:
    """The GM's session served as `crux serve` serves it, and its two links."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        self.session = Session(Runner())
        self.sharing = Sharing(self.session, TableAsked(host="127.0.0.1", port=port))
        self.session.sharing = self.sharing  # as crux serve holds it: /serve words reach it
        links = self.sharing.server.links()
        self.player, self.gm = links["player"], links["gm"]
        self.port = self.sharing.server.port

    def say(self, *lines: str) -> None:
        """Lines the GM types at the REPL."""
        for line in lines:
            out = self.sharing.handle(line)
            assert not any(text.startswith("crux: error") for text in out), out

    def stop(self) -> None:
        self.sharing.stop()


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    for kind in ("STATE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    monkeypatch.delenv("CRUX_SHEET", raising=False)
    monkeypatch.delenv("CRUX_RULES", raising=False)
    served = Table(tmp_path)
    yield served
    served.stop()


class Watched:
    """A page and what it said: console errors, uncaught exceptions, dialogs (none may fire)."""

    def __init__(self, page: Page) -> None:
        self.page, self.errors, self.dialogs = page, [], []
        page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", self.dialog)

    def dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


def opened(browser: BrowserContext, link: str, width: int = 1000) -> Watched:
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 800})
    watched = Watched(page)
    response = page.goto(link)
    assert response is not None and response.status == 200
    expect(page.locator("#status")).to_contain_text("connected")
    return watched


def join(page: Page, hero: str) -> None:
    page.get_by_label("Play as").select_option(hero)
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#joined")).to_have_text(f"rolling as {hero}")


def roll(page: Page, statement: str) -> None:
    """Type a statement and press Enter, as a keyboard user does: the box is found by its label."""
    box = page.get_by_label("Roll: type a statement")
    box.fill(statement)
    box.press("Enter")


def order_names(page: Page) -> list[str]:
    return page.locator("#order li .name").all_text_contents()


def test_a_roll_typed_on_the_player_page_shows_on_both_pages_with_its_breakdown(
        browser: BrowserContext, table: Table) -> None:
    table.say("fight", "hero Wren", "enemy goblin hp 7 heavy atk d6")
    player, gm = opened(browser, table.player), opened(browser, table.gm)
    join(player.page, "Wren")
    roll(player.page, "DEX +1b")
    answer = re.compile(r"DEX \+1b: \w+ \(\d\) · \dd6 keep highest \[[\d, ]+\] · net \+1")
    for watched in (player, gm):
        line = watched.page.locator("#log li").filter(has_text="DEX +1b:")
        expect(line.locator(".who")).to_have_text("Wren")
        expect(line.locator(".lines")).to_have_text(answer)
    expect(player.page.locator("#answer")).to_have_text(answer)  # the roller's own answer, by the box
    expect(player.page.locator("#role")).to_have_text("· player")
    expect(gm.page.locator("#role")).to_have_text("· GM")
    assert player.page.locator("#gm").is_hidden() and gm.page.locator("#gm").is_visible()
    assert player.errors == gm.errors == []


def test_odds_are_answered_on_the_page_to_the_asker_only(browser: BrowserContext, table: Table) -> None:
    player, gm = opened(browser, table.player, width=360), opened(browser, table.gm)
    roll(player.page, "odds DEX +2b")
    expect(player.page.locator("#answer")).to_contain_text("DEX +2b: exact odds")
    expect(player.page.locator("#answer")).to_contain_text("success  19/27")
    # its columns stay columns on a phone: the table scrolls in its box, the page never sideways
    assert player.page.evaluate("document.documentElement.scrollWidth") <= 360
    roll(player.page, "2d6")  # a later shared line: the odds went to nobody's log
    expect(gm.page.locator("#log li")).to_have_count(1)
    expect(gm.page.locator("#log li").first).to_contain_text("2d6:")
    assert "exact odds" not in gm.page.locator("#log").inner_text()


def test_a_refusal_shows_its_caret_by_the_box(browser: BrowserContext, table: Table) -> None:
    player = opened(browser, table.player)
    roll(player.page, "DEX -2b")
    expect(player.page.locator("#answer .refused")).to_contain_text("mixes a minus sign")
    assert "^" in player.page.locator("#answer").inner_text()
    roll(player.page, "enemy ogre hp 9")  # a GM word
    expect(player.page.locator("#answer .refused")).to_contain_text("GM")


def test_the_gms_damage_and_the_next_turn_show_on_the_player_page(browser: BrowserContext, table: Table) -> None:
    table.say("fight", "hero Wren", "hero Bram", "enemy goblin hp 8 atk d6", "init")
    player, gm = opened(browser, table.player), opened(browser, table.gm)
    goblin = player.page.locator("#order li.enemy").filter(has_text="goblin")
    expect(goblin.locator(".health")).to_have_text("unhurt")
    expect(gm.page.locator("#order li.enemy .health")).to_contain_text("HP 8/8")
    acting = player.page.locator("#order li.acting .name")
    first = acting.inner_text()
    roll(gm.page, "damage goblin 5")
    expect(goblin.locator(".health")).to_have_text("bloodied")  # 3 of 8: the player sees words, not numbers
    expect(player.page.locator("#log li").first).to_contain_text("goblin takes 5")
    assert "3/8" not in player.page.locator("#fight").inner_text()
    roll(gm.page, "next")
    expect(acting).not_to_have_text(first)
    expect(player.page.locator("#round")).to_contain_text(f"{acting.inner_text()}'s turn")
    hero = player.page.locator("#order li.hero").first
    expect(hero.locator(".health")).to_contain_text(re.compile(r"HP 10/10 · Wounds 0(/\d+)? · Grit \d"))


def test_a_hostile_hero_name_shows_as_text_and_runs_nothing(browser: BrowserContext, table: Table) -> None:
    table.say("fight", f'hero "{HOSTILE}"', "enemy goblin hp 7")
    player = opened(browser, table.player)
    expect(player.page.locator("#order li.hero .name")).to_have_text(HOSTILE)
    expect(player.page.locator("#hero option", has_text=HOSTILE)).to_have_count(1)
    join(player.page, HOSTILE)
    roll(player.page, "2d6")
    expect(player.page.locator("#log li .who").first).to_have_text(HOSTILE)
    assert player.page.locator("img").count() == 0
    assert player.dialogs == [] and player.errors == []


def test_the_page_is_sent_with_a_strict_content_security_policy(table: Table) -> None:
    root = table.player.split("/t/")[0]
    for link in (table.player, table.gm, f"{root}/static/table.js"):
        with urllib.request.urlopen(link) as response:
            policy = response.headers["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "default-src 'none'" in policy, policy
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    for name, kind in (("table.js", "javascript"), ("table.css", "css"), ("favicon.svg", "svg")):
        with urllib.request.urlopen(f"{root}/static/{name}") as response:
            assert kind in response.headers["Content-Type"]
    for wrong in ("/static/../page/table.js", "/static/index.html", "/static/%2e%2e%2fserver.py", "/favicon.ico"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(root + wrong)
        assert refused.value.code == 404


def test_a_wrong_token_is_refused(browser: BrowserContext, table: Table) -> None:
    root, token = table.player.rsplit("/", 1)
    wrong = root + "/" + ("A" if token[0] != "A" else "B") + token[1:]
    answer = browser.request.get(wrong)
    assert answer.status == 403 and answer.body() == b""
    page = browser.new_page()
    with pytest.raises(PlaywrightError, match="ERR_HTTP_RESPONSE_CODE_FAILURE"):
        page.goto(wrong)  # the browser shows nothing of the table
    # the live connection is refused too, even to a page of the table's own origin
    page = opened(browser, table.player).page
    outcome = page.evaluate("""(url) => new Promise((done) => {
        const socket = new WebSocket(url);
        socket.onopen = () => done("open");
        socket.onclose = () => done("closed");
    })""", wrong.replace("http", "ws", 1) + "/ws")
    assert outcome == "closed"


def test_at_360_px_the_turn_order_is_readable(browser: BrowserContext, table: Table, tmp_path: Path) -> None:
    table.say("fight", "hero Wren", "hero Bramwell-of-the-long-name", "enemy goblin hp 7 heavy atk d6",
              "minions rats 4", "enemy ogre hp 20 medium", "init", "cond add Wren dazed")
    player = opened(browser, table.player, width=360)
    order = player.page.locator("#order li")
    expect(order).to_have_count(5)
    player.page.screenshot(path=str(tmp_path / "player-360.png"), full_page=True)
    assert (tmp_path / "player-360.png").stat().st_size > 0
    boxes = [item.bounding_box() for item in order.all()]
    assert all(box is not None for box in boxes)
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    for above, below in itertools.pairwise(boxes):
        assert above is not None and below is not None
        assert above["y"] + above["height"] <= below["y"] + 0.5, (above, below)  # no two rows overlap
    scrolls = player.page.evaluate("document.documentElement.scrollWidth")
    assert scrolls <= 360, "the page scrolls sideways at 360 px"
    for item in order.all():  # each part of a row inside the row
        row = item.bounding_box()
        for part in item.locator("span").all():
            box = part.bounding_box()
            assert row is not None and box is not None
            assert box["x"] >= row["x"] and box["x"] + box["width"] <= row["x"] + row["width"] + 0.5


def test_the_page_reconnects_after_the_server_restarts_and_shows_the_same_state(
        browser: BrowserContext, table: Table, tmp_path: Path) -> None:
    table.say("fight", "hero Wren", "enemy goblin hp 8", "init")
    player = opened(browser, table.player)
    join(player.page, "Wren")
    roll(player.page, "2d6")
    log = player.page.locator("#log li")
    expect(log.first).to_contain_text("2d6:")
    before, lines = order_names(player.page), log.all_inner_texts()
    session = table.session
    table.sharing.stop()
    expect(player.page.locator("#status")).to_contain_text("trying again")
    table.sharing = session.sharing = Sharing(session, TableAsked(host="127.0.0.1", port=table.port))
    assert table.sharing.server.links()["player"] == table.player  # the same links work
    expect(player.page.locator("#status")).to_contain_text("connected")
    expect(player.page.locator("#joined")).to_have_text("rolling as Wren")
    assert order_names(player.page) == before
    expect(log).to_have_count(len(lines))  # nothing doubled, nothing lost
    assert log.all_inner_texts() == lines
    roll(player.page, "DEX")
    expect(player.page.locator("#log li").first.locator(".who")).to_have_text("Wren")


def test_privacy_public_gm_blind_and_self_as_foundry_has_them(browser: BrowserContext, table: Table) -> None:
    table.say("fight", "hero Wren", "hero Bram")
    wren, bram, gm = opened(browser, table.player), opened(browser, table.player), opened(browser, table.gm)
    join(wren.page, "Wren")
    join(bram.page, "Bram")
    for statement, privacy in (("1d4", "gm"), ("1d6", "blind"), ("1d8", "self"), ("1d10", "public")):
        wren.page.get_by_label("Who sees it").select_option(privacy)
        roll(wren.page, statement)
        expect(wren.page.locator("#log li").first).to_contain_text(
            "rolled blind" if privacy == "blind" else f"{statement}:")
    for page in (bram.page, gm.page):  # the public line came last: what was to come has come
        expect(page.locator("#log li").first).to_contain_text("1d10:")

    def seen(page: Page) -> str:
        return page.locator("#log").inner_text()

    assert all(f"{s}:" in seen(wren.page) for s in ("1d4", "1d8", "1d10")) and "1d6:" not in seen(wren.page)
    assert all(f"{s}:" in seen(gm.page) for s in ("1d4", "1d6", "1d10")) and "1d8:" not in seen(gm.page)
    assert "1d10:" in seen(bram.page) and not any(f"{s}:" in seen(bram.page) for s in ("1d4", "1d6", "1d8"))
    expect(gm.page.locator("#log li", has_text="1d6:").locator(".tag")).to_have_text("blind")
    expect(wren.page.locator("#log li", has_text="1d4:").locator(".tag")).to_have_text("to the GM")
    gm.page.get_by_label("Log shows").select_option("blind")  # the GM's view of one privacy
    expect(gm.page.locator("#log li:visible")).to_have_count(1)
    expect(gm.page.locator("#log li:visible")).to_contain_text("1d6:")


def test_the_gm_may_show_enemies_hp_to_the_players(browser: BrowserContext, table: Table) -> None:
    table.say("fight", "hero Wren", "enemy ogre hp 20 medium", "init", "damage ogre 5")
    player, gm = opened(browser, table.player), opened(browser, table.gm)
    ogre = player.page.locator("#order li.enemy .health")
    expect(ogre).to_have_text("hurt")
    gm.page.get_by_label("players see enemies' HP as numbers").check()
    expect(ogre).to_have_text("HP 15/20 · hurt")
    gm.page.get_by_label("players see enemies' HP as numbers").uncheck()
    expect(ogre).to_have_text("hurt")


def test_the_box_suggests_statement_words_and_names(browser: BrowserContext, table: Table) -> None:
    table.say("fight", "hero Wren", "enemy goblin hp 7")
    player = opened(browser, table.player)
    box = player.page.get_by_label("Roll: type a statement")
    box.press_sequentially("de")
    expect(player.page.locator("#words option[value='dex']")).to_have_count(1)
    expect(player.page.locator("#words option[value='dexterity']")).to_have_count(1)
    box.fill("")
    box.press_sequentially("atk gob")
    expect(player.page.locator("#words option[value='atk goblin']")).to_have_count(1)


def test_the_seed_commitment_is_shown_when_the_session_has_one(browser: BrowserContext, table: Table) -> None:
    commitment = table.sharing.host.commitment()  # made as the table opened (issue 35): every session has one
    assert commitment is not None and re.fullmatch(r"[0-9a-f]{64}", commitment)
    player = opened(browser, table.player)
    expect(player.page.locator("#commitment-value")).to_have_text(commitment)
    table.session.runner.source = random.Random(1)  # dice drawn otherwise: no commitment to show
    player.page.reload()
    expect(player.page.locator("#status")).to_contain_text("connected")
    assert player.page.locator("#commitment").is_hidden()


def test_the_keyboard_alone_reaches_the_box_and_rolls(browser: BrowserContext, table: Table) -> None:
    player = opened(browser, table.player)
    page = player.page
    for _ in range(12):  # Tab through the page as a keyboard user does, to the box labelled for rolling
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "statement":
            break
    assert page.evaluate("document.activeElement.labels[0].textContent").startswith("Roll")
    page.keyboard.type("2d6+1")
    page.keyboard.press("Enter")
    expect(page.locator("#answer")).to_contain_text(re.compile(r"2d6\+1: \d+ · 2d6 \[\d, \d\] \+ 1"))
    expect(page.locator("#log li").first.locator(".who")).to_have_text("someone")
    assert page.evaluate("document.activeElement.id") == "statement"  # ready for the next
    assert page.get_by_label("Roll: type a statement").input_value() == ""
