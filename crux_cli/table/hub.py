"""The table's connections: one statement at a time through the session, every answer fanned out.

`Hub` lives on the server's event loop. Each connection has a queue and a task that writes it, so a
slow page never holds up the others; statements, the store and the session run on one worker thread
(`worker`), so players' statements reach the session one at a time (the GM's REPL takes the same
lock inside the host). The GM's own lines come in through `from_gm`, from the REPL's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from crux_cli.table import frames
from crux_cli.table.frames import Entry, FrameError, Hello, Join, Numbers, Ping, Say, Viewer, frame
from crux_cli.table.host import TableHost
from crux_cli.table.keeping import Keeping, now

T = TypeVar("T")
QUEUE_LIMIT = 1000  # frames waiting for one page: more, and that page is too slow to keep (it reconnects)


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Bucket:
    """A token bucket: `PER_SECOND` frames a second on average, `BURST` at once."""

    def __init__(self, rate: float = frames.PER_SECOND, burst: int = frames.BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.at) * self.rate)
        self.at = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One page or `crux join`: who it is, and the frames waiting to be written to it."""

    def __init__(self, socket: Socket, viewer: Viewer) -> None:
        self.socket = socket
        self.viewer = viewer
        self.greeted = False
        self.bucket = Bucket()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.writer = asyncio.get_running_loop().create_task(self.write())

    def send(self, text: str) -> None:
        if self.queue.qsize() > QUEUE_LIMIT:
            self.queue.put_nowait(None)  # the writer closes it after what it already has
            return
        self.queue.put_nowait(text)

    async def write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.socket.close(1008, "too slow")
                return
            try:
                await self.socket.send_text(text)
            except Exception:  # gone: its reader ends it
                return

    def stop(self) -> None:
        if self.writer is not None:
            self.writer.cancel()


class Hub:
    """The table: its connections, the session behind it (`host`) and what the store keeps (`keeping`)."""

    def __init__(self, host: TableHost, keeping: Keeping, numbers: bool = False) -> None:
        self.host = host
        self.keeping = keeping
        self.numbers = numbers  # enemies' HP as numbers for players too (the GM's choice)
        self.connections: set[Connection] = set()
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crux-table")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.shown_words: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    async def worker(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` on the table's one worker thread: the session and the store, one thing at a time."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    # -- a connection's life ------------------------------------------------------------------------

    def opened(self, socket: Socket, viewer: Viewer) -> Connection:
        self.loop = asyncio.get_running_loop()
        connection = Connection(socket, viewer)
        connection.start()
        self.connections.add(connection)
        return connection

    def closed(self, connection: Connection) -> None:
        self.connections.discard(connection)
        connection.stop()

    async def received(self, connection: Connection, text: str | bytes) -> bool:
        """Answer one frame; False when the connection must close for sending too many."""
        if not connection.bucket.take():
            return False
        try:
            read = frames.read_frame(text)
            if not connection.greeted and not isinstance(read, Hello):
                raise FrameError("the first frame is 'hello'")
        except FrameError as error:
            connection.send(frame("error", message=str(error)))
            return True
        try:
            await self.answer(connection, read)
        except Exception as error:  # a bug of crux's: said to that page, and the table goes on
            if os.environ.get("CRUX_DEBUG"):
                raise
            connection.send(frame("error", message=f"the table failed: {type(error).__name__}: {error}"))
        return True

    async def answer(self, connection: Connection, read: frames.Frame) -> None:
        if isinstance(read, Hello):
            await self.hello(connection, read)
        elif isinstance(read, Join):
            await self.join(connection, read)
        elif isinstance(read, Say):
            await self.say(connection, read)
        elif isinstance(read, Ping):
            connection.send(frame("pong", id=read.id))
        elif isinstance(read, Numbers):
            await self.show_numbers(connection, read.show)

    async def show_numbers(self, connection: Connection, show: bool) -> None:
        """The GM page's box: enemies' HP as numbers for players too, or in words; a player's is refused."""
        if connection.viewer.role != "gm":
            connection.send(frame("error", message="showing enemies' HP as numbers is the GM's to say"))
            return
        self.numbers = show
        await self.send_fight()

    async def hello(self, connection: Connection, hello: Hello) -> None:
        connection.greeted = True
        welcome, entries, view = await self.worker(self.greeting, connection.viewer, hello.since)
        connection.send(welcome)
        shown = [seen for entry in entries if (seen := frames.seen_by(entry, connection.viewer)) is not None]
        connection.send(frame("log", entries=shown, next=entries[-1].seq if entries else hello.since or 0))
        connection.send(frame("fight", fight=frames.fight_for(view, connection.viewer, self.numbers)))

    def greeting(self, viewer: Viewer, since: int | None) -> tuple[str, list[Entry], dict[str, Any] | None]:
        """(on the worker) The welcome frame, the log since `since` and the fight view."""
        welcome = frame("welcome", protocol=frames.PROTOCOL, role=viewer.role, rules=self.host.rules_name,
                        heroes=list(self.host.heroes()), commitment=self.host.commitment(),
                        privacy=list(frames.PRIVACY), words=list(self.host.words()), limits=frames.LIMITS,
                        numbers=self.numbers)
        return welcome, self.keeping.since(since), self.host.fight()

    async def join(self, connection: Connection, join: Join) -> None:
        heroes = await self.worker(self.host.heroes)
        hero = next((name for name in heroes if join.hero and name.lower() == join.hero.lower()), None)
        if join.hero is not None and hero is None:
            listed = ", ".join(heroes) or "none yet: the GM adds them"
            connection.send(frame("error", message=f"there is no hero '{join.hero}' at this table; heroes: {listed}"))
            return
        connection.viewer = viewer = connection.viewer.replace(hero=hero)
        if join.salt is not None:  # mixed into the dice (issue 35), kept in the record under who joined
            commitment = await self.worker(self.host.salt, viewer.speaker or viewer.name, join.salt)
        else:
            commitment = await self.worker(self.host.commitment)
        connection.send(frame("joined", hero=hero, commitment=commitment))

    async def say(self, connection: Connection, say: Say) -> None:
        viewer = connection.viewer
        if len(say.text) > frames.MAX_TEXT:
            connection.send(frame("refused", id=say.id, text=say.text[:80], reason="error",
                                  lines=[f"a statement is at most {frames.MAX_TEXT} characters"]))
            return
        said = await self.worker(self.host.say, say.text, viewer.hero, viewer.role == "gm", viewer.speaker)
        if said.refused:
            connection.send(frame("refused", id=say.id, text=say.text, lines=list(said.lines), reason=said.refused))
            return
        privacy = say.privacy if said.kind == "roll" and not said.public else "public"
        if said.kind == "odds":
            privacy = "self"
        elif said.kind == "command":  # a session command's answer (the journal, the links) is the GM's alone
            privacy = "gm"
        entry = Entry(seq=0, at=now(), who=viewer.name, role=viewer.role, privacy=privacy, kind=said.kind,
                      text=say.text, lines=said.lines, by=viewer.identity)
        await self.publish(entry, said.changed, keep=said.kind != "odds", asker=connection, asked=say.id)

    # -- fan-out ------------------------------------------------------------------------------------

    async def publish(self, entry: Entry, changed: bool, keep: bool = True, asker: Connection | None = None,
                      asked: int | None = None) -> None:
        """Keep `entry` in the log and send it to everyone who may see it; the fight view after a change."""
        if keep:
            entry = await self.worker(self.keeping.append, entry)
            self.fan_out(entry, asker, asked)
        elif asker is not None:
            seen = frames.seen_by(entry, asker.viewer)
            if seen is not None:
                asker.send(frame("entry", **seen, id=asked))
        if changed:
            await self.send_fight()

    def fan_out(self, entry: Entry, asker: Connection | None = None, asked: int | None = None) -> None:
        made: dict[tuple[str, bool], str | None] = {}  # one frame per kind of viewer, not one per page
        for connection in list(self.connections):
            if not connection.greeted:
                continue
            viewer = connection.viewer
            key = (viewer.role, entry.by == viewer.identity)
            if connection is asker:
                seen = frames.seen_by(entry, viewer)
                text = None if seen is None else frame("entry", **seen, id=asked)
            elif key in made:
                text = made[key]
            else:
                seen = frames.seen_by(entry, viewer)
                text = made[key] = None if seen is None else frame("entry", **seen)
            if text is not None:
                connection.send(text)

    async def send_fight(self) -> None:
        view, words, heroes = await self.worker(lambda: (self.host.fight(), self.host.words(), self.host.heroes()))
        made: dict[tuple[str, bool], str] = {}
        for connection in self.greeted():
            key = (connection.viewer.role, self.numbers)
            if key not in made:
                made[key] = frame("fight", fight=frames.fight_for(view, connection.viewer, self.numbers))
            connection.send(made[key])
        if (words, heroes) != self.shown_words:
            self.shown_words = (words, heroes)
            self.send_all(frame("words", words=list(words), heroes=list(heroes)), self.greeted())

    def greeted(self) -> list[Connection]:
        return [c for c in self.connections if c.greeted]

    @staticmethod
    def send_all(text: str, connections: Iterable[Connection]) -> None:
        for connection in connections:
            connection.send(text)

    # -- from the GM's REPL (another thread) -----------------------------------------------------------

    def from_gm(self, text: str, lines: Iterable[str], kind: str, changed: bool, privacy: str = "public") -> None:
        """A line the GM typed at the REPL, answered there: into the shared log, and out to every page."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        entry = Entry(seq=0, at=now(), who="GM", role="gm", privacy=privacy, kind=kind, text=text,
                      lines=tuple(lines), by="gm")
        asyncio.run_coroutine_threadsafe(self.publish(entry, changed), loop)

    def note(self, text: str) -> None:
        """The table's own news in the log (the GM shared the session…)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            entry = Entry(seq=0, at=now(), who="table", role="gm", privacy="public", kind="note", text="",
                          lines=(text,), by="table")
            asyncio.run_coroutine_threadsafe(self.publish(entry, False), loop)

    def refresh(self) -> None:
        """Send the fight view again to every page (a setting changed), from any thread."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(self.send_fight(), loop)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
