"""What one statement runs with: the dice, and the hero when a sheet is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crux_cli.core.rng import Roller

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.hero import Hero


@dataclass
class Context:
    roller: Roller
    hero: Hero | None = None
    text: str = ""  # the statement as typed, for error positions found after parsing
