"""An independent verifier of a crux record, written from man/crux-verify.7 alone: no import of crux.

    python tests/verify_alone.py FILE     exit 0 "verified: N rolls, M changes", or 1 "line L: why"
"""

from __future__ import annotations

import hashlib
import json
import sys


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class Dice:
    def __init__(self, seed: bytes) -> None:
        self.key = h(b"crux-dice-1\x00" + seed)
        self.n = 0

    def stream(self) -> bytes:
        """The next stream, as a generator of bytes."""
        self.n += 1
        n, key, j = self.n, self.key, 0
        while True:
            yield from h(key + n.to_bytes(8, "big") + j.to_bytes(8, "big"))
            j += 1

    def face(self, data, sides: int) -> int:
        w = 1
        while 256 ** w < sides:
            w += 1
        span = 256 ** w
        while True:
            v = int.from_bytes(bytes(next(data) for _ in range(w)), "big")
            if v < span - span % sides:
                return 1 + v % sides


def check(lines: list[str]) -> tuple[int, str] | tuple[int, int]:
    """(line, why) for the first failure, else ("ok", rolls, changes) as (-1, rolls*10**9 + changes)."""
    failures = []
    prev, commit, events, rolls, changes = "0" * 64, None, [], 0, 0
    for number, raw in enumerate(lines, 1):
        try:
            line = json.loads(raw)
        except ValueError:
            return number, "not JSON"
        if not isinstance(line, dict):
            return number, "not an object"
        body = {k: v for k, v in line.items() if k != "chain"}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        if line.get("prev") != prev or line.get("chain") != hashlib.sha256(text).hexdigest():
            failures.append((number, "chain broken"))
        prev = line.get("chain")
        kind = line.get("type")
        if kind == "commit":
            if commit is not None:
                failures.append((number, "commit before reveal"))
            commit, events = (number, line.get("commit")), []
        elif commit is None:
            failures.append((number, "no commitment"))
        elif kind == "salt":
            events.append((number, "salt", line["salt"]))
        elif kind == "entry":
            if line.get("dice"):
                rolls += 1
            elif line.get("kind") in ("change", "undo", "redo"):
                changes += 1
            events += [(number, "stream", s) for s in line.get("dice") or []]
        elif kind == "reveal":
            seed = bytes.fromhex(line["seed"])
            if hashlib.sha256(seed).hexdigest() != commit[1]:
                failures.append((number, "seed does not match commitment"))
            else:
                dice = Dice(seed)
                for at, what, value in events:
                    if what == "salt":
                        dice.key = h(dice.key + b"salt" + bytes.fromhex(value))
                        continue
                    data = dice.stream()
                    if any(dice.face(data, sides) != face for sides, face in value):
                        failures.append((at, "a face is not what the seed gives"))
                        break
            commit = None
    if commit is not None:
        failures.append((len(lines), "seed never revealed"))
    if not lines:
        failures.append((1, "empty"))
    return min(failures) if failures else (-1, rolls * 10**9 + changes)


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as file:
        lines = [line for line in file.read().splitlines() if line.strip()]
    first, why = check(lines)
    if first >= 0:
        print(f"line {first}: {why}", file=sys.stderr)
        return 1
    print(f"verified: {why // 10**9} rolls, {why % 10**9} changes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
