"""Coin flips: `flip` tosses one coin, `flip N` tosses N and counts the heads.

Written only against crux's public surface for plug-ins, `crux_cli.plugin` (the rule set's shape,
its errors and its odds type), as a package that is not crux would be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from crux_cli.plugin import Context, CruxError, Following, Odds, Palette, RuleSet, Vocabulary

MAX_COINS = 1000
STATEMENT = re.compile(r"\s*flip(?:\s+(\d+))?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Flip:
    coins: int


@dataclass(frozen=True)
class Flipped:
    coins: tuple[bool, ...]  # True: heads

    @property
    def heads(self) -> int:
        return sum(self.coins)


def parse(text: str, keyword: str) -> Flip:
    match = STATEMENT.fullmatch(text)
    if match is None:
        start = len(text) - len(text.lstrip()) + len(keyword)
        raise CruxError("flip takes a number of coins", text=text, position=start, hint="write 'flip' or 'flip 3'")
    coins = int(match.group(1) or 1)
    if not 1 <= coins <= MAX_COINS:
        raise CruxError(f"flip between 1 and {MAX_COINS} coins", text=text, position=match.start(1))
    return Flip(coins)


def run(statement: Flip, ctx: Context) -> Flipped:
    return Flipped(tuple(face == 2 for face in ctx.roller.dice(statement.coins, 2)))


def odds(statement: Flip, ctx: Context | None = None) -> Odds:
    n = statement.coins
    heads = tuple((k, Fraction(comb(n, k), 2**n)) for k in range(n + 1))
    outcomes = (("all heads", heads[-1][1]), ("not all heads", 1 - heads[-1][1]))
    return Odds("flip", outcomes, distribution=heads, label="heads", mean=Fraction(n, 2))


def describe(result: Flipped, palette: Palette) -> str:
    faces = " ".join("H" if heads else "T" for heads in result.coins)
    return f"{result.heads} heads of {len(result.coins)} · {faces}"


def to_json(result: Flipped) -> dict[str, Any]:
    return {"kind": "flip", "heads": result.heads, "coins": ["heads" if c else "tails" for c in result.coins]}


RULESET = RuleSet(
    name="coinflip",
    summary="Coin flips (a plug-in): flip, flip N",
    keywords=frozenset({"flip"}),
    parse=parse,
    run=run,
    odds=odds,
    describe=describe,
    to_json=to_json,
    colours={"all heads": "good"},  # how its odds table paints an outcome
    vocabulary=Vocabulary(  # the REPL: completion, colours while typing, /help notation
        words=("flip",),
        after=Following({}),  # no word to complete after `flip`
        lexicon=dict,  # no word coloured beyond `flip`
        patterns=(),
        help=("flip          one coin", "flip N        N coins, counting heads"),
    ),
)
