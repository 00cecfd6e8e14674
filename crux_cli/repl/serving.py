"""The GM's session shared at the table (issue 34): `crux serve` and `/serve`.

`SessionHost` is the session as the table uses it (`table.host.TableHost`): a player's statement is
checked (their own hero's words only), run by the session as the GM's own lines are (journal, undo,
autosave), echoed on the GM's terminal, and its plain lines handed back for every page. The GM's
prompt and the table take turns through one lock, so statements reach the session one at a time.
`Sharing` holds what is served; the REPL's loop hands it each line the GM types (`handle`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from prompt_toolkit.patch_stdout import patch_stdout

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.state.db import state_dir
from crux_cli.table.frames import printable
from crux_cli.table.host import ERROR, GM_ONLY, NOT_YOURS, Said
from crux_cli.table.hub import Hub
from crux_cli.table.keeping import Keeping
from crux_cli.table.server import TableServer

if TYPE_CHECKING:
    from crux_cli.core.ruleset import SheetHero
    from crux_cli.repl.commands import Invocation
    from crux_cli.repl.session import Session
    from crux_cli.running.settings import TableAsked

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ANYONE, GM = "anyone", "gm"
TERMINAL_ONLY = ("/quit", "/exit", "/q", "/serve", "/pager", "/history")  # the GM's own terminal's commands


def plain(said: list[str]) -> tuple[str, ...]:
    """Lines as the terminal prints them, without colour: what every page shows."""
    return tuple(ANSI.sub("", line) for part in said for line in part.split("\n"))


class Refusal(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class SessionHost:
    """The session as the table sees it; every method takes the session's lock."""

    def __init__(self, session: Session, lock: threading.RLock, echo: Callable[[list[str]], None]) -> None:
        self.session = session
        self.lock = lock
        self.echo = echo  # the GM's terminal: a player's line and its answer, as the GM's own are printed
        self.salts: set[bytes] = set()  # the players' salts mixed into the dice (issue 35)

    @property
    def rules_name(self) -> str:
        return self.session.rules_name

    def say(self, text: str, hero: str | None, gm: bool, who: str | None = None) -> Said:
        with self.lock:
            try:
                line = self.terminal_only(text) if gm else self.checked(text, hero)
            except Refusal as refusal:
                return Said(lines=(str(refusal),), refused=refusal.reason)
            return self.run(line, hero, gm, text, who)

    def run(self, line: str, hero: str | None, gm: bool, typed: str, who: str | None = None) -> Said:
        """`line` run by the session as `hero`; its journal entry names `who` said it (else as the GM's own)."""
        session = self.session
        kind = self.kind_of(line)
        fight_before, refusals = session.fight, session.refusals
        with self.rolling_as(hero, kind == "roll" and (hero is not None or not gm)), session.said_by(who):
            out = session.handle(line)
        shown = hero or ("GM" if gm else "a player")
        self.echo([session.palette.dim(f"{shown} at the table: {printable(typed)}"), *out])
        refused = session.refusals > refusals and kind != "word"
        public = kind == "word" or (kind != "command" and fight_before != session.fight)
        return Said(lines=plain(out), kind=kind, refused=ERROR if refused else "", changed=public or hero is not None,
                    public=public)

    def kind_of(self, line: str) -> str:
        statement = lines.code(line).strip()
        if lines.odds_body(statement) is not None:
            return "odds"
        if statement.startswith("/"):
            return "command"  # the GM's session commands: their answers are the GM's alone (links, the journal)
        return "word" if self.session.claims(line) else "roll"

    # -- whose words ---------------------------------------------------------------------------------

    @staticmethod
    def terminal_only(text: str) -> str:
        """The GM's line from the GM link, unless it is one of the commands that act on the GM's terminal
        itself (leaving the session, serving), which only the prompt takes."""
        head = text.strip().split()[0].lower() if text.strip() else ""
        if head in TERMINAL_ONLY:
            raise Refusal(GM_ONLY, f"'{head}' works at the GM's prompt, not from a page")
        return text

    def checked(self, text: str, hero: str | None) -> str:
        """The line a player may run (their hero named where the fight needs it), or a Refusal."""
        if self.session.pending is not None:
            raise Refusal(GM_ONLY, "the GM's session is waiting for the GM's answer: try again in a moment")
        body, comment = lines.split_comment(text)
        parts = []
        for part in lines.split_statements(body):
            statement = self.session.expand_statement(part.strip())
            who, statement = self.whose(statement, hero)
            word = statement.split()[0] if statement.split() else statement
            if who == GM:
                raise Refusal(GM_ONLY, f"'{word}' is the GM's to say at this table")
            if who != ANYONE and (hero is None or who.lower() != hero.lower()):
                mine = f"you roll as {hero}" if hero else "choose your hero first"
                raise Refusal(NOT_YOURS, f"'{statement}' is {who}'s to say, not yours ({mine})")
            parts.append(statement)
        return "; ".join(parts) + (f" # {comment}" if comment else "")

    def whose(self, statement: str, hero: str | None) -> tuple[str, str]:
        """(whose word `statement` is: ANYONE, GM or a hero's name, the statement to run)."""
        head = statement.split()[0].lower() if statement.split() else ""
        if statement.startswith("/") or head in ("undo", "redo"):
            return GM, statement
        if lines.odds_body(statement) is not None or not self.session.claims(statement):
            return ANYONE, statement  # odds, or a roll of the rule set: as the player's hero
        table_line = getattr(self.session.fighting.rules(), "table_line", None)
        if table_line is None:  # a rule set that does not say whose its fight words are: the GM's
            return GM, statement
        who, line = table_line(statement, self.session.fight, hero)
        return str(who), str(line)

    # -- rolling as a hero ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def rolling_as(self, hero: str | None, swap: bool) -> Iterator[None]:
        """The session's runner rolls as `hero` (their sheet, or their values held by name), or as nobody,
        for one statement; the GM's own sheet comes back after it."""
        if not swap:
            yield
            return
        runner = self.session.runner
        saved = runner.sheet, runner.hero
        name, sheet, held = self.where(hero)
        runner.sheet, runner.hero = sheet, held
        try:
            yield
        finally:
            after = runner.hero
            runner.sheet, runner.hero = saved
            if name is not None and held is not None and after is not None and after != held:
                fighting = self.session.fighting
                fighting.held = MappingProxyType({**fighting.party, name: after})
                fighting.keep_party()

    def where(self, hero: str | None) -> tuple[str | None, str | None, SheetHero | None]:
        """(the hero's name, their sheet file or None, their values held by name or None)."""
        if hero is None:
            return None, None, None
        fight = self.session.fight
        for name, path in (fight.sheets.items() if fight is not None else ()):
            if name.lower() == hero.lower():
                return name, os.path.expanduser(path), None
        party = self.session.fighting.party
        held = next((n for n in party if n.lower() == hero.lower()), None)
        return held, None, party[held] if held is not None else None

    # -- what pages show -------------------------------------------------------------------------------

    def fight(self) -> dict[str, Any] | None:
        with self.lock:
            fight = self.session.fight
            if fight is None:
                return None
            view = getattr(self.session.fighting.rules(), "table_view", None)
            if view is not None:
                return dict(view(fight, self.session.fighting))
            order = [{"name": name, "side": "", "acting": name == fight.acting()} for name in fight.names()]
            return {"round": None, "acting": fight.acting(), "summary": fight.summary(), "over": fight.over,
                    "order": order}

    def heroes(self) -> tuple[str, ...]:
        with self.lock:
            fight = self.session.fight
            names = [*(fight.sheets if fight is not None else ()), *(getattr(fight, "heroes", None) or ())]
            names += list(self.session.fighting.party)
            return tuple(dict.fromkeys(names))

    def words(self) -> tuple[str, ...]:
        with self.lock:
            session = self.session
            fight = session.fight
            found = [*sorted(session.runner.rules.keywords), *session.fight_words(), "odds"]
            found += list(fight.names()) if fight is not None else []
            return tuple(dict.fromkeys(found))

    # -- issue 35: the seed's commitment shown to every player, each player's salt mixed in at join ------------

    def commitment(self) -> str | None:
        """The commitment of the seed the session's dice are drawn from (crux-verify(7)), or None when they are
        drawn otherwise. Asking makes the session's generator, so its commitment is kept before its first roll."""
        with self.lock:
            return self.session.runner.commitment() or None

    def salt(self, who: str, salt: bytes) -> str | None:
        """A player's salt, mixed into the dice from the next statement on and kept in the session's record under
        `who`; the commitment to show them (which a salt does not change). A salt mixed in already (a page that
        reconnects sends its salt again) is not mixed twice."""
        with self.lock:
            if salt not in self.salts:
                self.salts.add(salt)
                return self.session.runner.add_salt(salt, who) or None
            return self.session.runner.commitment() or None


class Sharing:
    """A served session: the host, the table's server, its links; `handle` runs the GM's own lines."""

    def __init__(self, session: Session, asked: TableAsked) -> None:
        self.session = session
        self.lock = threading.RLock()
        self.host = SessionHost(session, self.lock, self.echo)
        self.keeping: Keeping = Keeping(state_dir())
        try:
            self.keeping.hold()
            self.hub: Hub = Hub(self.host, self.keeping)
            self.server: TableServer = self.serve(asked)
            self.server.start()
            self.keeping.set_meta("table:port", str(self.server.port))
            self.commitment = self.host.commitment()  # the dice committed to as the table opens (issue 35)
        except BaseException:
            self.keeping.close()
            raise
        self.privacy = "public"  # the GM's own lines at the prompt (/serve privacy gm: to the GM's page only)
        self.above_prompt_on = False
        self.stopped = False

    def above_prompt(self) -> contextlib.AbstractContextManager[Any]:
        """While the GM's prompt waits, players' lines print above it (prompt-toolkit's patch_stdout)."""
        self.above_prompt_on = True
        return patch_stdout(raw=True)

    def serve(self, asked: TableAsked) -> TableServer:
        """The server on the port asked for; with none asked (0), the port this table had last, when it is free,
        so the links of a table served again (after a kill -9, too) are the same links."""
        tokens = self.keeping.tokens()
        last = self.keeping.meta("table:port")
        if asked.port == 0 and last is not None and last.isdigit():
            with contextlib.suppress(CruxError):
                return TableServer(self.hub, tokens, asked.host, int(last), asked.cert, asked.key)
        return TableServer(self.hub, tokens, asked.host, asked.port, asked.cert, asked.key)

    def echo(self, said: list[str]) -> None:
        sys.stdout.write("".join(line + "\n" for line in said))
        sys.stdout.flush()

    def handle(self, line: str) -> list[str]:
        """A line the GM typed: answered as ever, and shared with the table."""
        session = self.session
        with self.lock:
            fight_before, refusals = session.fight, session.refusals
            kind = "word" if session.pending is not None else self.host.kind_of(line) if line.strip() else ""
            out = session.handle(line)
            changed = fight_before != session.fight or kind == "word"
        if kind in ("roll", "word") and session.refusals == refusals:
            self.hub.from_gm(line.strip(), plain(out), kind, changed, self.privacy)
        elif changed:  # a session command (`/undo`, `/load`): the GM's own answer, and the fight as it is now
            self.hub.refresh()
        return out

    def links(self) -> list[str]:
        links = self.server.links()
        said = [f"the table is served: player link {links['player']}",
                f"                     GM link     {links['gm']}"]
        commitment = self.host.commitment()
        if commitment is not None:  # what every player is shown as they connect
            said.append(f"                     seed commitment {commitment}")
        return said + network_warning(self.server.host, self.server.cert is not None)

    def setting(self, words: list[str], call: Invocation) -> list[str]:
        """`/serve stop`, `/serve numbers on|off`, `/serve privacy public|gm`."""
        if words == ["stop"]:
            self.stop()
            self.session.sharing = None
            return ["the table is closed: its pages wait, and reconnect when it is served again"]
        if len(words) == 2 and words[0] == "numbers" and words[1] in ("on", "off"):
            self.hub.numbers = words[1] == "on"
            self.hub.refresh()
            return [f"enemies' HP shown to players {'as numbers' if self.hub.numbers else 'in words'}"]
        if len(words) == 2 and words[0] == "privacy" and words[1] in ("public", "gm"):
            self.privacy = words[1]
            shared = "with everyone" if words[1] == "public" else "with the GM only"
            return [f"the lines typed here are shared {shared}"]
        raise call.error(f"/serve does not take '{' '.join(words)}'", words[0],
                         "/serve, /serve stop, /serve numbers on|off, /serve privacy public|gm")

    def stop(self) -> None:
        """Stop serving (once: the session's end stops it again)."""
        if not self.stopped:
            self.stopped = True
            self.server.stop()
            self.keeping.close()


def network_warning(host: str, tls: bool) -> list[str]:
    """What serving beyond this machine means, said plainly when the table is served there."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return []
    said = [f"warning: served on {host}: anyone on the network who has a link is at the table (the links are the "
            "only key: share them privately)"]
    if not tls:
        said.append("  the links travel in clear: add TLS (crux serve --cert FILE --key FILE) or serve behind a "
                    "reverse proxy with HTTPS (man crux-table)")
    return said
