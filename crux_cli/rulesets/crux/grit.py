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
    return hero if grit == hero.grit else hero.with_changes(grit=grit)
