"""`crux join LINK`: the usual session (history, completion, colours, toolbar) at someone else's table.

Every statement goes to the table, which rolls it and answers everyone (this terminal prints the
answer as it comes back, with the others' lines as they come); a few commands stay here: `/hero NAME`
(roll as that hero), `/privacy public|gm|blind|self`, `/help`, `/quit`. The connection comes back by
itself after a loss, missing nothing (table/client.py).
"""

from __future__ import annotations

import os
import secrets
import sys
from typing import TYPE_CHECKING, Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.patch_stdout import patch_stdout

from crux_cli.core.style import PLAIN, Palette, wants_colour
from crux_cli.repl.app import create_prompt
from crux_cli.repl.history import open_history
from crux_cli.repl.session import Session
from crux_cli.running.config import Config
from crux_cli.running.settings import Settings, make_runner
from crux_cli.table.client import TableClient
from crux_cli.table.frames import PRIVACY, printable

if TYPE_CHECKING:
    from prompt_toolkit.history import History
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

HELP = ("at a table: each statement is rolled by the table and answered to everyone",
        "/hero NAME        roll as NAME (their sheet applies); /hero alone: who you roll as, and the heroes",
        "/privacy WHO      public (everyone), gm (you and the GM), blind (the GM; you see it was rolled), self",
        "/quit             leave the table (Ctrl-D too); the table goes on")


class Joined:
    """This terminal at the table: what it prints of the frames that come, and its few own commands."""

    def __init__(self, link: str, palette: Palette, write: Any) -> None:
        # 16 random bytes of this player's, mixed into the table's dice as they join (issue 35, crux-verify(7))
        self.client = TableClient(link, self.frame, self.status, salt=secrets.token_hex(16))
        self.palette = palette
        self.write = write
        self.privacy = "public"
        self.acting: str | None = None
        self.hero: str | None = None  # who this terminal was last told it rolls as
        self.asked = False  # `/hero NAME` sent: its answer is said even when the hero stays the same
        self.commitment: str | None = None  # the table's seed commitment, as last shown

    def frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "entry":
            self.entry(frame)
        elif kind == "log":
            entries = frame.get("entries") or []
            for entry in entries[-10:]:
                self.entry(entry)
        elif kind in ("refused", "error"):
            self.say(*(printable(str(line)) for line in frame.get("lines") or [frame.get("message", "")]))
        elif kind == "fight":
            self.turn(frame.get("fight"))
        elif kind == "joined":
            hero = frame.get("hero")
            if hero != self.hero or self.asked:  # a reconnection joins again: said when it changes, or was asked
                self.hero, self.asked = hero, False
                self.say(self.palette.dim(f"you roll as {printable(str(hero))}" if hero
                                          else "you roll as nobody: plain dice"))
            self.show_commitment(frame.get("commitment"))

    def entry(self, entry: dict[str, Any]) -> None:
        """An entry of the shared log: its lines, after who said what (unless it is this terminal's answer).
        Every text from the table is made printable first: a player's escape sequence never reaches this terminal."""
        lines = [printable(str(line)) for line in entry.get("lines") or ()]
        if entry.get("id") is None:  # someone else's (or said before): who said what
            who, text = printable(str(entry.get("who", ""))), printable(str(entry.get("text", "")))
            lines = [self.palette.dim(f"{who}: {text}" if text else who), *lines]
        self.say(*lines)

    def turn(self, fight: dict[str, Any] | None) -> None:
        acting = fight.get("acting") if fight else None
        if acting != self.acting and acting is not None and fight is not None:
            mine = self.client.hero is not None and str(acting).lower() == self.client.hero.lower()
            turn = "your turn" if mine else f"{printable(str(acting))}'s turn"
            self.say(self.palette.dim(f"round {fight.get('round')}: {turn}"))
        self.acting = acting

    def status(self, what: str) -> None:
        if what == "lost":
            self.say(self.palette.dim("the table is gone: reconnecting…"))
        elif what == "connected" and self.client.welcome:
            self.say(self.palette.dim(f"at the table ({self.client.welcome.get('rules')} rules)"))
            self.show_commitment(self.client.welcome.get("commitment"))
        elif what == "refused":
            self.say("the table refused this link")

    def show_commitment(self, commitment: Any) -> None:
        """The table's seed commitment (issue 35), when it has one, once each time it changes (a new seed)."""
        if isinstance(commitment, str) and commitment and commitment != self.commitment:
            self.commitment = commitment
            self.say(self.palette.dim(f"seed commitment {printable(commitment)}: the dice were fixed before anyone "
                                      "rolled (check it with crux log --verify once the session ends)"))

    def say(self, *lines: str) -> None:
        self.write("".join(f"{line}\n" for line in lines))

    def command(self, line: str) -> bool:
        """A command of this terminal's own (True), or a line for the table (False)."""
        words = line.split()
        name = words[0].lower() if words else ""
        if name == "/hero":
            if len(words) > 1:
                self.asked = True
                self.client.join(" ".join(words[1:]) or None)
            else:
                self.say(*self.heroes())
        elif name == "/privacy" and len(words) == 2 and words[1].lower() in PRIVACY:
            self.privacy = words[1].lower()
            self.say(self.palette.dim(f"your rolls are {self.privacy} from now on"))
        elif name in ("/help", "/?"):
            self.say(*HELP)
        elif name in ("/privacy", "/hero"):
            self.say("/privacy takes one of: " + ", ".join(PRIVACY))
        else:
            return False
        return True

    def heroes(self) -> list[str]:
        heroes = self.client.welcome.get("heroes") or []
        return [f"you roll as {self.client.hero or 'nobody (plain dice)'}",
                "heroes at this table: " + (printable(", ".join(map(str, heroes))) or "none yet")]

    def toolbar(self) -> StyleAndTextTuples:
        fight = self.client.fight
        where = fight.get("summary", "") if fight else "no fight"
        state = "" if self.client.ready.is_set() else " · reconnecting…"
        return [("class:toolbar", f" at the table as {self.client.hero or 'nobody'} · {self.privacy} · {where}"
                                  f"{state}   /help · Ctrl-D leaves ")]


def run_join(settings: Settings, *, input: Input | None = None, output: Output | None = None,
             history: History | None = None) -> int:
    """Join the table at `settings.table.link` until /quit or Ctrl-D."""
    assert settings.table is not None and settings.table.link is not None
    terminal = output is None and sys.stdout.isatty()
    palette = settings.palette(wants_colour(terminal, settings.no_color, dict(os.environ))) if terminal else PLAIN
    with patch_stdout(raw=True):
        joined = Joined(settings.table.link, palette, _stdout)
        client = joined.client
        client.hero = settings.table.hero or None  # joined as they connect, with their salt
        client.start()
        try:
            take_turns(joined, settings, history, input, output)
        finally:
            client.stop()
    return 0


def take_turns(joined: Joined, settings: Settings, history: History | None, input: Input | None,
               output: Output | None) -> None:
    """Read a line and send it to the table, until /quit or Ctrl-D."""
    rules = str(joined.client.welcome.get("rules") or "crux")
    local = Settings(rules=rules, no_color=settings.no_color, config=settings.config)
    session = Session(lambda: make_runner(local), joined.palette, rules_name=rules)  # colours and Tab only
    if history is None:
        history, warning = open_history()
        if warning:
            joined.say(warning)
    config = settings.config or Config()
    prompt = create_prompt(session, history, settings.no_color, input, output, config)
    prompt.bottom_toolbar = joined.toolbar
    while True:
        try:
            line = prompt.prompt()
        except EOFError:
            return
        except KeyboardInterrupt:
            continue
        if not line.strip():
            continue
        if line.strip().lower() in ("/quit", "/exit", "/q"):
            return
        if joined.command(line.strip()):
            continue
        try:
            answered = joined.client.say(line, joined.privacy)
        except KeyboardInterrupt:  # Ctrl-C while waiting: the table may still answer, and it prints when it does
            joined.say("not waiting for that answer")
            continue
        if answered is None:
            joined.say("the table did not answer: it may be reconnecting, try again in a moment")


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
