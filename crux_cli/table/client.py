"""`crux join`'s end of the connection: a WebSocket client on a thread of its own, reconnecting by itself.

Frames that arrive are handed to `on_frame` (on the client's thread); `say` sends a statement and waits
for its answer (the `entry` or `refused` frame carrying its id). After a lost connection the client
says hello again with the last `seq` it saw, and joins as its hero again: nothing is lost.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import ClientConnection, connect

from crux_cli.core.errors import CruxError
from crux_cli.table.frames import MAX_FRAME

RETRY = (0.5, 1.0, 2.0, 4.0, 8.0, 10.0)  # seconds between attempts to reconnect, the last repeated
ANSWER_WITHIN = 15.0  # seconds a statement waits for the table's answer


def socket_url(link: str) -> str:
    """The WebSocket URL of a table's link (http://HOST:PORT/t/TOKEN → ws://HOST:PORT/t/TOKEN/ws)."""
    parts = urlsplit(link.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    path = parts.path.rstrip("/")
    if scheme is None or not parts.netloc or not path.startswith("/t/") or len(path.split("/")) not in (3, 4):
        raise CruxError(f"not a table's link: {link}", hint="the GM's `crux serve` prints it: http://HOST:PORT/t/TOKEN")
    path = path if path.endswith("/ws") else path + "/ws"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


class Answer:
    """The frames answering one statement, waited for by `say`."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.frame: dict[str, Any] | None = None


class TableClient:
    def __init__(self, link: str, on_frame: Callable[[dict[str, Any]], None],
                 on_status: Callable[[str], None], salt: str | None = None) -> None:
        self.url = socket_url(link)
        self.on_frame = on_frame
        self.on_status = on_status  # "connected", "lost", "refused"
        self.hero: str | None = None
        self.salt = salt  # this player's salt (hex), sent as they join: mixed into the table's dice (issue 35)
        self.next = 0  # the `seq` after the last entry seen: `since` on reconnecting
        self.welcome: dict[str, Any] = {}
        self.fight: dict[str, Any] | None = None
        self.connection: ClientConnection | None = None
        self.ids = itertools.count(1)
        self.waiting: dict[int, Answer] = {}
        self.stopped = threading.Event()
        self.ready = threading.Event()  # welcomed on the connection now open
        self.refused = False
        self.thread = threading.Thread(target=self.run, name="crux-join", daemon=True)

    def start(self, wait: float = 10.0) -> None:
        """Connect (waiting up to `wait` seconds for the table's welcome), then stay connected."""
        self.thread.start()
        self.ready.wait(wait)
        if self.refused:
            raise CruxError("the table refused this link", hint="ask the GM for the link `crux serve` printed")
        if not self.ready.is_set():
            raise CruxError(f"no table answers at {self.url.rsplit('/t/', 1)[0]}",
                            hint="is the GM's `crux serve` running, and the address reachable from here?")

    def run(self) -> None:
        for attempt in itertools.count():
            if self.stopped.is_set():
                return
            try:
                with connect(self.url, max_size=None, open_timeout=5, close_timeout=1) as connection:
                    self.connection = connection
                    self.greet(connection)
                    for message in connection:
                        self.received(json.loads(message))
            except InvalidStatus:
                self.refused = True
                self.ready.set()
                self.on_status("refused")
                return
            except (OSError, WebSocketException, TimeoutError, ValueError):
                pass
            self.connection = None
            if self.stopped.is_set():
                return
            if self.ready.is_set():
                self.ready.clear()
                self.on_status("lost")
            self.fail_waiting()
            self.stopped.wait(RETRY[min(attempt, len(RETRY) - 1)])

    def greet(self, connection: ClientConnection) -> None:
        connection.send(json.dumps({"type": "hello", "since": self.next}))
        if self.hero is not None or self.salt is not None:
            connection.send(json.dumps({"type": "join", "hero": self.hero, "salt": self.salt}))

    def received(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "welcome":
            self.welcome = frame
        elif kind == "log":
            self.next = max(self.next, int(frame.get("next") or 0))
        elif kind == "entry":
            self.next = max(self.next, int(frame.get("seq") or 0))
        elif kind == "fight":
            self.fight = frame.get("fight")
        elif kind == "joined":
            self.hero = frame.get("hero")
        asked = frame.get("id")
        self.on_frame(frame)
        if kind == "fight" and not self.ready.is_set():
            self.ready.set()  # the welcome, the log and the fight: the table is all here
            self.on_status("connected")
        if isinstance(asked, int) and asked in self.waiting and kind in ("entry", "refused", "error", "joined"):
            answer = self.waiting.pop(asked)
            answer.frame = frame
            answer.done.set()

    def send(self, frame: dict[str, Any]) -> bool:
        text = json.dumps(frame)
        connection = self.connection
        if connection is None or len(text.encode()) > MAX_FRAME:
            return False
        try:
            connection.send(text)
        except (OSError, WebSocketException):
            return False
        return True

    def say(self, text: str, privacy: str = "public") -> dict[str, Any] | None:
        """Send a statement; its answer's frame once it came (None: the table did not answer in time)."""
        asked = next(self.ids)
        answer = self.waiting[asked] = Answer()
        if not self.send({"type": "say", "text": text, "privacy": privacy, "id": asked}):
            self.waiting.pop(asked, None)
            return None
        answer.done.wait(ANSWER_WITHIN)
        self.waiting.pop(asked, None)
        return answer.frame

    def join(self, hero: str | None) -> None:
        self.hero = hero
        self.send({"type": "join", "hero": hero, "salt": self.salt})

    def fail_waiting(self) -> None:
        for answer in list(self.waiting.values()):
            answer.done.set()
        self.waiting.clear()

    def stop(self) -> None:
        self.stopped.set()
        connection = self.connection
        if connection is not None:
            connection.close()
        self.thread.join(2)
