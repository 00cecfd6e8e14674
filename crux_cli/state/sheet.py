"""Character sheets as text, for any rule set: each is read and written by the sheet file of the rule set it
names (`core.ruleset.SheetFile`; the Crux one is rulesets/crux/sheet_file.py).

A roll on a sheet goes through state.store, which reads, caches, locks and writes the file; these are the
same readings and writings for what makes or restores a sheet outside a roll (`crux sheet new`, the
Python API, `crux sheet undo`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crux_cli.state.store import file_for
from crux_cli.state.store import parse_sheet as parse_sheet  # the reading every sheet gets

if TYPE_CHECKING:
    from crux_cli.core.ruleset import SheetHero


def update_sheet_text(text: str, before: SheetHero, after: SheetHero) -> str:
    """`text` with the values its rule set keeps changed from `before` to `after`, the comments kept."""
    return file_for(after.rules).write(text, before, after)


def new_sheet_text(hero: SheetHero) -> str:
    """A new, commented sheet for `hero`, for `crux sheet new`; `parse_sheet` reads it back as `hero`."""
    return file_for(hero.rules).template(hero)


def with_kept(hero: SheetHero, values: dict[str, Any]) -> SheetHero:
    """`hero` with the kept `values` (as `kept_values` gives them) set."""
    result: SheetHero = file_for(hero.rules).with_kept(hero, values)
    return result
