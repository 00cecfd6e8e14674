"""Batch input for the throughput benchmark and the seeded-output test: crux lines, each with the d20 line
that rolls the same dice (Avrae's `d20` has no Boons, saves or primary dice, so a Crux statement is paired
with the dice it rolls: a net +N test is `(N+1)d6kh1`, an attack's primary die explodes as `1dSeS`).

`realistic(n)`: a few dozen distinct statements repeated in a fixed shuffled order, as a script that
simulates fights or builds tables sends them. `all_different(n)`: every line a statement of its own.
Both are deterministic, so a seeded run over them is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

Pair = tuple[str, str]  # (crux line, d20 line)

ATTRIBUTES = ("DEX", "STR", "INT", "WIL")

REALISTIC: tuple[Pair, ...] = (
    ("DEX", "1d6"),
    ("STR", "1d6"),
    ("DEX +1b", "2d6kh1"),
    ("DEX +2b", "3d6kh1"),
    ("INT -1B", "2d6kl1"),
    ("WIL +1b grit", "3d6kh1"),
    ("test STR +1b -1B risky", "1d6"),
    ("save DEX +1b help great", "3d6kh1"),
    ("DEX 2 boons desperate", "3d6kh1"),
    ("save WIL adv", "2d6kh1"),
    ("save STR dis", "2d6kl1"),
    ("save DEX vs rushed", "2d6kh1"),
    ("save INT adv -2B", "2d6kl1"),
    ("init", "1d6"),
    ("init +1b", "2d6kh1"),
    ("init ambush", "1d6"),
    ("atk 2d8+3", "1d8e8+1d8+3"),
    ("atk d6", "1d6e6"),
    ("atk 2d6 +2", "1d6e6+1d6+2"),
    ("atk 3d10-1 heavy", "1d10e10+2d10-1"),
    ("atk 2d8 +1b medium", "1d8e8+2d8"),
    ("atk d12 rushed resist", "1d12e12"),
    ("atk 2d6+1 minion ranged", "1d6e6+1d6+1"),
    ("atk 4d6 -1B vuln", "1d6e6+4d6"),
    ("d20", "1d20"),
    ("d20+5", "1d20+5"),
    ("2d20kh1+7", "2d20kh1+7"),
    ("2d20kl1+3", "2d20kl1+3"),
    ("4d6kh3", "4d6kh3"),
    ("3d6", "3d6"),
    ("2d6+3", "2d6+3"),
    ("1d8+2d6+4", "1d8+2d6+4"),
    ("8d6", "8d6"),
    ("d100", "1d100"),
    ("3d6!", "3d6e6"),
    ("(2d4+1)*3", "(2d4+1)*3"),
    ("roll d12 + d4", "1d12+1d4"),
    ("4d6dl1", "4d6pl1"),
    ("10d10", "10d10"),
    ("2d10+1d6-2", "2d10+1d6-2"),
)


def realistic(n: int, seed: int = 15) -> Iterator[Pair]:
    """`n` lines drawn (with a fixed seed) from the 40 statements of REALISTIC."""
    choose = random.Random(seed).choice
    for _ in range(n):
        yield choose(REALISTIC)


def all_different(n: int) -> Iterator[Pair]:
    """`n` lines, no two alike: tests, saves, initiative, attacks and dice, each with a number of its own."""
    for i in range(1, n + 1):
        sides = (4, 6, 8, 10, 12, 20)[i % 6]
        count = 1 + i % 4
        attribute = ATTRIBUTES[i % 4]
        net = i % 5 - 2  # -2 … +2: Boons and Banes cancel, so the pool stays small however large i grows
        keep = f"{abs(net) + 1}d6{'kh1' if net >= 0 else 'kl1'}"
        match i % 6:
            case 0:
                yield f"{attribute} +{i + net}b -{i}B", keep
            case 1:
                stance, extra = ("adv", 1) if i % 2 else ("dis", -1)
                pool = f"{abs(net + extra) + 1}d6{'kh1' if net + extra >= 0 else 'kl1'}"
                yield f"save {attribute} {stance} +{i + net}b -{i}B", pool
            case 2:
                yield f"atk {count}d{sides}+{i}", f"1d{sides}e{sides}+{count - 1}d{sides}+{i}"
            case 3:
                yield f"{count}d{sides}+{i}", f"{count}d{sides}+{i}"
            case 4:
                yield f"{count + 1}d{sides}kh{count} - {i}", f"{count + 1}d{sides}kh{count}-{i}"
            case _:
                yield f"init +{i + net}b -{i}B", keep
