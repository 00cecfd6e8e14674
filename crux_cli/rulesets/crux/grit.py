"""Grit on a sheet (Crux seed §3): what a roll spent and earned, applied to the hero, never above 5.

Refusing `grit` at 0 happens before the roll, in the compiler (`grit_before`).
"""

from __future__ import annotations

from crux_cli.rulesets.crux.engine import GritChange
from crux_cli.rulesets.crux.hero import GRIT_MAX, Hero


def apply_grit(hero: Hero, change: GritChange) -> Hero:
    """The hero after a roll spent and/or earned Grit (the same hero when its Grit stays: a batch on a sheet
    compares and rewrites nothing then, tests/bench/bench_batch.py)."""
    grit = max(0, min(GRIT_MAX, hero.grit - change.spent + change.gained))
    if grit == hero.grit:
        return hero
    known = MOVED.get((id(hero), grit))  # a sheet's hero is one object a state: its Grit goes 2, 3, 2, 3
    if known is not None and known[0] is hero:
        return known[1]
    if len(MOVED) >= KEPT_MOVES:
        MOVED.clear()
    after = hero.with_changes(grit=grit)
    MOVED[id(hero), grit] = (hero, after)  # kept alive with it: its id names no other meanwhile
    return after


# the hero at a new Grit, by the hero's id and that Grit (`apply_grit`): a batch on a sheet changes a few states back
# and forth, and a new hero is a record built and checked (PERFORMANCE.md, "A change on a held sheet, met again")
MOVED: dict[tuple[int, int], tuple[Hero, Hero]] = {}
KEPT_MOVES = 256
