"""What a run is asked for (options, environment) and the one factory that builds its runner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.record import Record

if TYPE_CHECKING:
    from crux_cli.running.runner import Runner


class Settings(Record, mutable=True):  # a Record, not a dataclass: one roll's start-up pays for none
    """Options given before or after the statement; the later one wins."""

    seed: int | None = None
    json: bool = False
    rules: str | None = None  # None: the sheet's `rules`, else crux
    no_color: bool = False
    sheet: str | None = None
    repeat: int = 1

    def update(self, options: dict[str, Any]) -> None:
        for name, value in options.items():
            if value is not None and value is not False:
                setattr(self, name, value)


def make_runner(settings: Settings) -> Runner:
    """The runner for these settings: the rule set asked for, else the one the sheet names."""
    from crux_cli.running.runner import Runner

    return Runner(rules=settings.rules or sheet_rules(settings.sheet), seed=settings.seed, sheet=settings.sheet,
                  repeat=settings.repeat)


def sheet_rules(sheet: str | None) -> str:
    """The rule set a sheet names (its `rules` key), used when no --rules is given."""
    if sheet is None:
        from crux_cli.rulesets import DEFAULT

        return DEFAULT
    from crux_cli.state.store import load_hero

    return load_hero(sheet).rules
