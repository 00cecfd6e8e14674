"""Grit on a sheet (Crux seed §3): spend 1 to steady a roll, earn 1 on a kept 1, never above 5."""

from __future__ import annotations

from crux_cli.engine.crux import GritChange
from crux_cli.errors import CruxError
from crux_cli.state.hero import GRIT_MAX, Hero


def require_grit(hero: Hero) -> None:
    """Refuse `grit` before anything is rolled when the sheet has none to spend."""
    if hero.grit < 1:
        raise CruxError(f"{hero.name} has no Grit to spend (Grit 0)",
                        hint="roll without `grit`; a kept 1 on a roll earns 1 Grit")


def grit_after_spending(hero: Hero, spend: bool) -> int:
    """The Grit the roll starts from: the engine's `grit_before` (fresh Grit cannot pay for this roll)."""
    if spend:
        require_grit(hero)
    return hero.grit - (1 if spend else 0)


def apply_grit(hero: Hero, change: GritChange) -> Hero:
    """The hero after a roll spent and/or earned Grit."""
    return hero.with_changes(grit=max(0, min(GRIT_MAX, hero.grit - change.spent + change.gained)))
