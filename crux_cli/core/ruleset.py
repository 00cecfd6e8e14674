"""The shape of a rule set: one typed `RuleSet` value, and the `Context` a statement runs with.

A rule set is a folder `crux_cli/rulesets/<name>/` (or a package of its own, found through the
entry-point group `crux.rulesets`) whose `ruleset.py` defines `RULESET = RuleSet(...)`. Nothing
outside the folder names its statements: the runner, the renderers, the REPL's completion,
highlighting, help and colours all ask this value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.record import Record, field

if TYPE_CHECKING:
    from crux_cli.core.rng import Roller
    from crux_cli.core.style import Palette
    from crux_cli.odds.result import Odds


@dataclass
class Context:
    """What one statement runs with: the dice, the hero (when the rule set keeps one), the text typed."""

    roller: Roller
    hero: Any = None
    text: str = ""  # the statement as typed, for error positions found after parsing


def no_words(keyword: str) -> tuple[str, ...] | None:
    """A rule set that declares no words after its statement words."""
    return None


class RuleSet(Record):
    """A rule set as the rest of crux sees it.

    - `keywords`: the lower-case first words of its statements (dispatch, completion);
    - `parse(text, keyword)`: the statement's immutable syntax tree (CruxError when refused);
    - `run(statement, ctx)`: compile it to rule-engine calls and roll, giving a result;
    - `odds(statement, ctx)`: exact odds (`crux_cli.odds.result.Odds`), or None when not offered;
    - `describe(result, palette)` / `to_json(result)`: the result as one line and as JSON fields;
    - `apply(result, hero)`: the hero after a result, for rule sets that keep state on a sheet
      (None: the sheet is only read);
    - `words`: the words shown first for completion (`DEX` for `dex`), and `following(keyword)`,
      the words that may follow a statement word (None when it declares none);
    - `help`: lines for `/help notation`; `colours`: outcome -> colour role of `core.style`;
    - `fights`: the module (dotted path) of its fight words, or '' when it has no fights;
    - `sheet_suffix(answer, palette)` / `sheet_json(sheet_update)`: what a roll on a sheet adds to
      its line and its JSON (rule sets that keep state only).
    """

    name: str
    summary: str
    keywords: frozenset[str]
    parse: Callable[[str, str], Any]
    run: Callable[[Any, Context], Any]
    describe: Callable[[Any, Palette], str]
    to_json: Callable[[Any], dict[str, Any]]
    odds: Callable[[Any, Context], Odds] | None = None
    apply: Callable[[Any, Any], Any] | None = None
    seed: str = ""
    words: tuple[str, ...] = ()
    following: Callable[[str], tuple[str, ...] | None] = field(default=no_words, compare=False)
    help: tuple[str, ...] = ()
    colours: Mapping[str, str] = field(default=MappingProxyType({}), compare=False)
    fights: str = ""
    sheet_suffix: Callable[[Any, Palette], str] | None = field(default=None, compare=False)
    sheet_json: Callable[[Any], dict[str, Any]] | None = field(default=None, compare=False)

    @property
    def keeps_state(self) -> bool:
        """Does a roll change the hero (so a sheet is written under its lock)?"""
        return self.apply is not None

    def statement_words(self) -> tuple[str, ...]:
        """First words of a statement, as completion offers them."""
        return self.words or tuple(sorted(self.keywords))
