"""Random sources and the per-statement roller that counts dice against the limit.

The engine never touches global random state: every rule function takes a
`Roller`, which draws from a `RandomSource`. A seeded source repeats a run
exactly; a scripted source lets tests decide every face.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Protocol

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_DICE, MAX_SIDES

try:  # the C module alone: hashlib would load OpenSSL, 5 ms of every one-shot run's start
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:  # a Python built without it
    from hashlib import sha256 as _sha256


class RandomSource(Protocol):
    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        ...


def seeded(seed: int | None = None) -> DiceStream:
    """A source that repeats exactly for the same seed (32 fresh random bytes when None): crux-dice-1."""
    return DiceStream(seed_bytes(seed))


def seed_bytes(seed: int | None) -> bytes:
    """The seed material of `--seed N`: N in decimal ASCII ("42", "-7"); None: 32 bytes from the OS."""
    return os.urandom(32) if seed is None else str(int(seed)).encode("ascii")


def sha256(data: bytes) -> bytes:
    digest: bytes = _sha256(data).digest()
    return digest


GENERATOR = "crux-dice-1"  # the name of the generator below, as records and crux-verify(7) give it


class DiceStream:
    """crux-dice-1, the documented generator every roll draws from (crux-verify(7) specifies it for outsiders).

    key = SHA-256("crux-dice-1" 0x00 seed); a player's salt makes key = SHA-256(key "salt" salt). Each statement
    that draws dice takes the next stream number n (1, 2, …: `begin` marks a statement, the first draw after it
    takes the number, so a statement that rolls nothing takes none); stream n is the bytes SHA-256(key n j) for
    j = 0, 1, … (n and j as 8-byte big-endian), one after another. A die of s sides reads w bytes (the fewest with
    256^w ≥ s) as a big-endian v and answers 1 + v mod s when v < 256^w − 256^w mod s, else reads again: no face
    is likelier than another. Bytes are hashed a block of 32 at a time, never a hash a die.
    """

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.key = sha256(b"crux-dice-1\x00" + seed)
        self.number = 0  # the stream of the statement drawing now (0: none yet)
        self.fresh = True  # the next draw begins the next stream
        self.buffer = b""
        self.at = 0
        self.block = 0

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, in hex: shown before the rolls, checked against the seed revealed after."""
        return sha256(self.seed).hex()

    def begin(self) -> None:
        """A new statement: its first draw takes the next stream."""
        self.fresh = True

    def rewind(self) -> None:
        """The statement failed (no answer, no record): the next one draws the stream it took, afresh."""
        if not self.fresh:
            self.number -= 1
            self.fresh = True

    def salt(self, salt: bytes) -> None:
        """Mix a player's salt into the key, from the next statement on."""
        if len(salt) > 64:
            raise CruxError("a salt is at most 64 bytes", hint="send 16 random bytes")
        self.key = sha256(self.key + b"salt" + salt)
        self.fresh = True

    def start(self) -> None:
        self.fresh = False
        number = self.number = self.number + 1
        self.block = 1
        self.at = 0
        self.buffer = _sha256(self.key + (number << 64).to_bytes(16, "big")).digest()  # block 0 of stream n

    def more(self, wanted: int) -> None:
        """At least `wanted` bytes unread in the buffer: the stream's next blocks joined on."""
        parts = [self.buffer[self.at:]]
        have = len(parts[0])
        prefix = self.key + self.number.to_bytes(8, "big")
        while have < wanted:
            parts.append(_sha256(prefix + self.block.to_bytes(8, "big")).digest())
            self.block += 1
            have += 32
        self.buffer, self.at = b"".join(parts), 0

    def below(self, sides: int) -> int:
        """A uniform integer in [0, sides), by rejection (see the class)."""
        if self.fresh:
            self.start()
        if sides <= 256:
            limit = 256 - 256 % sides
            while True:
                if self.at >= len(self.buffer):
                    self.more(1)
                byte = self.buffer[self.at]
                self.at += 1
                if byte < limit:
                    return byte % sides
        width = max(1, ((sides - 1).bit_length() + 7) // 8)  # the fewest bytes with 256^width ≥ sides
        span = 1 << (8 * width)
        limit = span - span % sides
        while True:
            if self.at + width > len(self.buffer):
                self.more(width)
            value = int.from_bytes(self.buffer[self.at:self.at + width], "big")
            self.at += width
            if value < limit:
                return value % sides

    def faces(self, count: int, sides: int) -> list[int]:
        """`count` dice of `sides` (< 256) faces, 1..sides: the bytes of a whole roll mapped at once in C (`_TABLES`)
        when none is rejected (a d4, d8 or d16 never is), else die by die as `below` reads them."""
        if self.fresh:
            self.start()
        if self.at + count > len(self.buffer):
            self.more(count)
        table = _TABLES.get(sides) or _table(sides)
        mapped = self.buffer[self.at:self.at + count].translate(table)
        if 0 not in mapped:
            self.at += count
            return list(mapped)
        return [self.below(sides) + 1 for _ in range(count)]

    def aside(self) -> DiceStream:
        """A generator of its own beside this one, keyed SHA-256(key "aside"), for dice no statement's record keeps
        (a REPL's countdowns): they take no stream of the statements'. Made once, so it goes on where it was."""
        made: DiceStream | None = getattr(self, "_aside", None)
        if made is None:
            made = self._aside = DiceStream(b"")
            made.key = sha256(self.key + b"aside")
        return made

    def randint(self, low: int, high: int) -> int:
        if high < low:
            raise ValueError(f"empty range for randint({low}, {high})")
        return low + self.below(high - low + 1)


_TABLES: dict[int, bytes] = {}  # by sides: each byte's face (1 + byte mod sides), 0 for a byte rejection skips


def _table(sides: int) -> bytes:
    limit = 256 - 256 % sides
    table = _TABLES[sides] = bytes(1 + byte % sides if byte < limit else 0 for byte in range(256))
    return table


class ScriptedSource:
    """Faces decided in advance, for tests: each call takes the next one.

    A face outside the die's range or running out of faces is a test bug,
    so both raise at once rather than silently rolling something else.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def randint(self, low: int, high: int) -> int:
        if self.used >= len(self.faces):
            raise AssertionError(f"scripted dice ran out after {self.used} faces (wanted d{high})")
        face = self.faces[self.used]
        self.used += 1
        if not low <= face <= high:
            raise AssertionError(f"scripted face {face} is not on a die of {low}..{high}")
        return face

    @property
    def left(self) -> int:
        return len(self.faces) - self.used


class Roller:
    """Rolls the dice of one statement and refuses to pass the dice limit."""

    # Set, every roll is added to it as sides, count, face, face, … (a run of plain ints a call, so what the
    # journal holds by the thousand is nothing the garbage collector walks): the journal keeps what replays
    # a roll, and counts faces by die size from it (crux log --stats) without rolling again.
    drawn: list[int] | None = None
    apart = False  # the answer is kept as its JSON, its faces (`drawn`) beside it (running.runner `roller`)

    def __init__(self, source: RandomSource, limit: int = MAX_DICE) -> None:
        self.source = source
        self.limit = limit
        self.rolled = 0
        # crux's own generator: its faces drawn straight, skipping randint's argument checks (a few percent of a batch)
        self.stream = source if type(source) is DiceStream else None
        if self.stream is not None:
            self.stream.fresh = True  # a new statement begins a new stream (`DiceStream.begin`)

    def reserve(self, count: int) -> None:
        """Refuse up front when `count` more dice would pass the limit."""
        if self.rolled + count > self.limit:
            raise LimitError(
                f"this statement would roll more than {self.limit:,} dice (the limit)",
                hint="roll fewer dice, or split the roll into several statements",
            )

    def die(self, sides: int) -> int:
        """One die of `sides` faces, 1..sides."""
        if sides > MAX_SIDES:
            raise LimitError(f"a die may have at most {MAX_SIDES:,} sides")
        if self.rolled >= self.limit:
            self.reserve(1)
        self.rolled += 1
        face = self.stream.below(sides) + 1 if self.stream is not None and sides > 0 else self.source.randint(1, sides)
        if self.drawn is not None:
            self.drawn += (sides, 1, face)
        return face

    def dice(self, count: int, sides: int) -> list[int]:
        if self.rolled + count > self.limit:  # `reserve`'s test, asked here: every roll of a batch comes this way
            self.reserve(count)
        stream = self.stream
        if stream is None or not 0 < sides < 256:
            return [self.die(sides) for _ in range(count)]
        self.rolled += count  # the faces `die` would give, one after another, without its checks per die
        faces = stream.faces(count, sides)
        drawn = self.drawn
        if drawn is not None:  # extended in place
            drawn += (sides, count)
            drawn += faces
        return faces


# A statement's draws, learnt from its `drawn` records (running.runner `redrawn`): by the record so far,
# the next call's (sides, count), or () once the statement is done. Its engine, given the same faces, makes the
# same calls, so a record met before tells which dice come next.
Draws = dict[tuple[int, ...], tuple[int, ...]]


def learn_draws(paths: Draws, drawn: tuple[int, ...]) -> None:
    """Add to `paths` the calls of one roll whose record is `drawn` (sides, count, its faces, …, a call each)."""
    at = 0
    while at < len(drawn):
        paths[drawn[:at]] = (drawn[at], drawn[at + 1])
        at += 2 + drawn[at + 1]
    paths[drawn] = ()


def drawn_along(roller: Roller, drawn: list[int], stream: DiceStream, paths: Draws) -> tuple[int, ...] | None:
    """The record of a statement drawn along `paths` by `roller` (whose record is `drawn` and stream `stream`), new
    for the statement: its calls made in order, so the stream gives the faces its engine would have drawn. None
    when the record reaches one `paths` does not know: the stream is then rewound, and the statement, rolled, draws
    the same dice again."""
    dice = roller.dice
    next_dice = paths.get(())
    while next_dice:
        dice(next_dice[1], next_dice[0])
        next_dice = paths.get(tuple(drawn))
    if next_dice is None:
        stream.rewind()
        return None
    return tuple(drawn)


def bad_seed(shown: str) -> CruxError:
    """The refusal of a seed that is not a whole number, in the same words wherever it is given."""
    return CruxError(f"the seed must be a whole number, not {shown}",
                     hint="a seed such as 42 repeats the same dice; leave it out for fresh dice")
