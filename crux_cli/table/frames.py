"""The table's frames (PROTOCOL.md): a client's frame read and checked, and what each viewer may see.

Pure: no sockets, no store. Every text stays text: nothing here makes or escapes HTML (the page puts
each text in as text), and nothing a client sends is trusted beyond its checked fields.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from crux_cli.core.limits import MAX_INPUT
from crux_cli.core.record import Record

PROTOCOL = 1
PRIVACY = ("public", "gm", "blind", "self")
MAX_FRAME = 8192  # bytes of one frame: more closes the connection (1009)
MAX_TEXT = MAX_INPUT  # characters of a statement, as at the prompt
MAX_SALT = 64  # bytes of a player's salt (issue 35), sent as hex: at most 128 characters
MAX_NAME = 100
PER_SECOND, BURST = 10.0, 30  # frames a connection may send: more closes it (1008)
HISTORY = 200  # entries of the shared log sent on (re)connecting
HIDDEN = ("(rolled blind: the GM sees it)",)
LIMITS = {"max_frame_bytes": MAX_FRAME, "max_text_chars": MAX_TEXT, "per_second": PER_SECOND, "burst": BURST}


class FrameError(Exception):
    """A frame the protocol does not allow: answered with an `error` frame, the connection stays."""


class Hello(Record):
    since: int | None = None


class Join(Record):
    hero: str | None = None
    salt: bytes | None = None  # the player's salt, decoded from its hex


class Say(Record):
    text: str
    privacy: str = "public"
    id: int | None = None


class Ping(Record):
    id: int | None = None


class Numbers(Record):
    """The GM shows enemies' HP to players as numbers (True) or in words (False): the GM's page's box."""

    show: bool


Frame = Hello | Join | Say | Ping | Numbers


def read_frame(text: str | bytes) -> Frame:
    """A client's frame as a value; FrameError names what is wrong with it."""
    if not isinstance(text, str):
        raise FrameError("frames are JSON text, not binary")
    try:
        data = json.loads(text)
    except ValueError:
        raise FrameError("a frame is one JSON object") from None
    if not isinstance(data, dict):
        raise FrameError("a frame is one JSON object")
    kind = data.get("type")
    reader = READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise FrameError(f"unknown frame type: {str(kind)[:40]!r}")
    return reader(data)


def _optional(data: dict[str, Any], key: str, kind: type, limit: int | None = None) -> Any:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise FrameError(f"'{key}' must be {'a string' if kind is str else 'a whole number'}")
    if limit is not None and isinstance(value, str) and len(value) > limit:
        raise FrameError(f"'{key}' is longer than {limit} characters")
    return value


def _hello(data: dict[str, Any]) -> Hello:
    return Hello(since=_optional(data, "since", int))


def _join(data: dict[str, Any]) -> Join:
    hero = _optional(data, "hero", str, MAX_NAME)
    return Join(hero=hero or None, salt=_salt(_optional(data, "salt", str)))


def _salt(text: str | None) -> bytes | None:
    """A player's salt: hex digits, an even number of them, at most MAX_SALT bytes (None: no salt)."""
    if not text:
        return None
    if len(text) > 2 * MAX_SALT:
        raise FrameError(f"'salt' is at most {MAX_SALT} bytes ({2 * MAX_SALT} hex digits)")
    if len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise FrameError("'salt' must be hex digits, two for each byte (the page sends 32: 16 random bytes)")
    return bytes.fromhex(text)


def _say(data: dict[str, Any]) -> Say:
    text = data.get("text")
    if not isinstance(text, str):
        raise FrameError("'say' needs its 'text': the statement")
    privacy = data.get("privacy", "public")
    if privacy not in PRIVACY:
        raise FrameError("'privacy' is one of " + ", ".join(PRIVACY))
    return Say(text=text, privacy=privacy, id=_optional(data, "id", int))


def _ping(data: dict[str, Any]) -> Ping:
    return Ping(id=_optional(data, "id", int))


def _numbers(data: dict[str, Any]) -> Numbers:
    show = data.get("show")
    if not isinstance(show, bool):
        raise FrameError("'show' must be true or false")
    return Numbers(show=show)


READERS: dict[str, Callable[[dict[str, Any]], Frame]] = {"hello": _hello, "join": _join, "say": _say, "ping": _ping,
                                                          "numbers": _numbers}


# -- who sees what -----------------------------------------------------------------------------------

class Viewer(Record):
    """One connection as the table sees it: its role, the hero it rolls as, and its own id."""

    role: str  # "player" | "gm"
    id: str
    hero: str | None = None

    @property
    def identity(self) -> str:
        """Who rolls: the same after a reconnection when a hero is chosen (a blind roll's roller sees it made)."""
        if self.role == "gm":
            return "gm"
        return f"hero:{self.hero.lower()}" if self.hero else f"conn:{self.id}"

    @property
    def name(self) -> str:
        return "GM" if self.role == "gm" else self.hero or "someone"

    @property
    def speaker(self) -> str | None:
        """Who said a statement, as the session's journal names them: the hero they roll as, else a player's
        connection (`player ID`); None for the GM with no hero (the session's own lines)."""
        if self.hero:
            return self.hero
        return None if self.role == "gm" else f"player {self.id}"


class Entry(Record):
    """A line of the shared log: a statement and its answer, as the GM's terminal prints it."""

    seq: int
    at: str
    who: str
    role: str
    privacy: str
    kind: str  # roll | word | odds | note
    text: str
    lines: tuple[str, ...]
    by: str  # the roller's identity (Viewer.identity): not sent

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "who": self.who, "role": self.role, "privacy": self.privacy,
                "kind": self.kind, "text": self.text, "lines": list(self.lines), "hidden": False}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        return cls(seq=data["seq"], at=data["at"], who=data["who"], role=data["role"], privacy=data["privacy"],
                   kind=data["kind"], text=data["text"], lines=tuple(data["lines"]), by=data["by"])


def seen_by(entry: Entry, viewer: Viewer) -> dict[str, Any] | None:
    """The entry as `viewer` sees it (Foundry's roll modes), or None when it is not theirs to see."""
    mine = entry.by == viewer.identity
    gm = viewer.role == "gm"
    if entry.privacy == "public" or (entry.privacy == "gm" and (gm or mine)) or (entry.privacy == "self" and mine):
        return entry.as_json()
    if entry.privacy == "blind" and gm:
        return entry.as_json()
    if entry.privacy == "blind" and mine:
        return {**entry.as_json(), "lines": list(HIDDEN), "hidden": True}
    return None


# -- the fight as each role sees it --------------------------------------------------------------------

def enemy_state(hp: int, hp_max: int, down: bool) -> str:
    """An enemy's HP in words: unhurt, hurt (more than half left), bloodied (half or less), down."""
    if down or hp <= 0:
        return "down"
    if hp >= hp_max:
        return "unhurt"
    return "hurt" if 2 * hp > hp_max else "bloodied"


def fight_for(view: dict[str, Any] | None, viewer: Viewer, numbers: bool) -> dict[str, Any] | None:
    """The fight view (the host's, every number in it) as `viewer` may see it: an enemy's HP in words
    for players, unless the GM shows numbers."""
    if view is None:
        return None
    shown = numbers or viewer.role == "gm"
    order = [_combatant(c, shown) for c in view.get("order", ())]
    return {**view, "order": order, "numbers": shown}


def _combatant(combatant: dict[str, Any], shown: bool) -> dict[str, Any]:
    if combatant.get("side") != "enemy":
        return combatant
    hp, hp_max = int(combatant.get("hp", 0)), int(combatant.get("hp_max", 0))
    out = {**combatant, "state": enemy_state(hp, hp_max, bool(combatant.get("down")))}
    if not shown:
        out.pop("hp", None)
        out.pop("hp_max", None)
    return out


def frame(kind: str, /, **fields: Any) -> str:
    """A frame to send: compact JSON text, never HTML."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


def printable(text: str) -> str:
    """`text` safe to print on a terminal: a control or invisible character (an escape sequence a player typed,
    a bidi override) shown as `\\xNN` / `\\uNNNN`, never sent to the terminal as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
                   for c in text)
