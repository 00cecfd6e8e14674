"""What a run is asked for (options, environment) and the one factory that builds its runner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.core.record import Record
from crux_cli.rulesets import DEFAULT

if TYPE_CHECKING:
    from crux_cli.core.style import Palette
    from crux_cli.running.config import Config
    from crux_cli.running.runner import Runner
    from crux_cli.state.journal import Journal


class TableAsked(Record):
    """`crux serve` (the session served: where, and TLS files) or `crux join LINK` (`link` set): issue 34."""

    host: str = "127.0.0.1"
    port: int = 0
    cert: str | None = None
    key: str | None = None
    link: str | None = None  # crux join: the table's link
    hero: str | None = None  # crux join --hero: who the player rolls as


class Settings(Record, mutable=True):  # a Record, not a dataclass: one roll's start-up pays for none
    """Options given before or after the statement; the later one wins."""

    seed: int | None = None
    json: bool = False
    rules: str | None = None  # None: the sheet's `rules`, else crux
    no_color: bool = False
    color: str = "auto"  # --color=auto|always|never (core.style.wants_colour)
    sheet: str | None = None
    repeat: int = 1
    no_journal: bool = False  # --no-journal: this run leaves no trace in the journal
    config: Config | None = None  # the user's config file: default rule set and sheet, colours, aliases
    table: TableAsked | None = None  # crux serve / crux join: the session shared at a table

    @classmethod
    def from_config(cls, config: Config) -> Settings:
        """Settings that start from the config file's defaults; options given later win."""
        return cls(sheet=config.sheet, config=config)

    @property
    def default_rules(self) -> str | None:
        return self.config.rules if self.config is not None else None

    def journal(self) -> Journal:
        """The journal this run writes to: off with --no-journal, else as CRUX_JOURNAL or the config say."""
        from crux_cli.state.journal import Journal

        configured = self.config.journal if self.config is not None else None
        keep = self.config.journal_keep if self.config is not None else None
        journal = Journal.open(mode=configured, keep=keep)
        if self.no_journal:
            journal.mode = "off"
        return journal

    @property
    def aliases(self) -> dict[str, str]:
        return dict(self.config.aliases) if self.config is not None else {}

    def palette(self, enabled: bool) -> Palette:
        """The palette of the config's theme and colours (the built-in one without a config)."""
        from crux_cli.core.style import Palette, output_codes

        if self.config is None or not enabled:
            return Palette(enabled)
        return Palette(enabled, output_codes(self.config.theme, self.config.colors))

    def update(self, options: dict[str, Any]) -> None:
        for name, value in options.items():
            if value is not None and value is not False:
                setattr(self, name, value)
        if options.get("color") == "never":
            self.no_color = True  # type: ignore[misc]  # a mutable Record, which mypy takes for frozen

    def forget_sheet(self) -> None:
        """No sheet, over the config file's and CRUX_SHEET's (`--no-sheet`, an empty CRUX_SHEET)."""
        self.sheet = None  # type: ignore[misc]  # a mutable Record, which mypy takes for frozen


def make_runner(settings: Settings) -> Runner:
    """The runner for these settings: the rule set asked for, else the one the sheet names."""
    from crux_cli.running.runner import Runner

    runner = Runner(rules=settings.rules or sheet_rules(settings.sheet, settings.default_rules), seed=settings.seed,
                    sheet=settings.sheet, repeat=settings.repeat)
    runner.exact_odds = bool(settings.json)  # `odds …` in a line is shown as JSON: every value exact
    return runner


def sheet_rules(sheet: str | None, default: str | None = None) -> str:
    """The rule set a sheet names (its `rules` key), used when no --rules is given; else the config's, else crux."""
    if sheet is None:
        return default or DEFAULT
    from crux_cli.state.store import load_hero

    return load_hero(sheet).rules
