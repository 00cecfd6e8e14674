"""Saving and resuming a fight: the text its rule set's fights give it (`core.ruleset.FightRules.dump`,
`load`; the Crux one is rulesets/crux/fight_file.py), in a file written like sheets are.

The file is written whole to a temporary file, fsynced and renamed over the old one,
under the same kind of sidecar lock as sheets, so a crash or a second crux never
leaves half a fight behind; it is readable by its owner alone, like the history.
Each hero's sheet is stored relative to the file itself, so a fight resumed from
another folder still writes to the same sheets.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError
from crux_cli.state.store import locked, read_text, resolve, write_atomically

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightRules, FightValue

WHAT = "encounter file"


def default_fights() -> FightRules:
    """The fights of the default rule set: what a fight file is read and written as when no rule set is named."""
    from crux_cli import rulesets

    fights = rulesets.load(rulesets.DEFAULT).fight_rules()
    assert fights is not None, "the default rule set has fights"
    return fights


def stored_path(sheet: str, folder: str) -> str:
    """A hero's sheet as the fight file keeps it: relative to the file's folder."""
    full = os.path.abspath(os.path.expanduser(sheet))
    real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    return os.path.relpath(real, folder)


def save_fight(path: str | os.PathLike[str], fight: FightValue, rules: FightRules | None = None) -> None:
    """Write the whole fight to `path` (made private to the user), as the fights of its rule set (`rules`, else the
    default rule set's) write it; its sheets are paths from the current folder."""
    target, shown = resolve(path), os.fspath(path)
    if not target.parent.is_dir():  # said before the lock file, which would be the first thing to fail there
        raise CruxError(f"{shown}: there is no folder {os.path.dirname(shown) or '.'} to save the fight in",
                        hint="make the folder first, or save to one that exists")
    stored = {name: stored_path(sheet, str(target.parent)) for name, sheet in fight.sheets.items()}
    text = (rules or default_fights()).dump(fight, stored)
    with locked(target, shown, WHAT):
        write_atomically(target, text, shown, what=WHAT, new_mode=0o600)


def load_fight(path: str | os.PathLike[str], rules: FightRules | None = None) -> FightValue:
    """The whole fight at `path`, as the fights of its rule set (`rules`, else the default rule set's) read it, its
    heroes' sheet files as paths usable from the current folder."""
    target, shown = resolve(path), os.fspath(path)
    return (rules or default_fights()).load(read_text(target, shown, WHAT), shown, str(target.parent))


def fight_text(fight: FightValue, rules: FightRules) -> str:
    """The fight as its file's text, its heroes' sheets as absolute paths (an autosave resumes from any folder)."""
    return rules.dump(fight, {name: os.path.abspath(os.path.expanduser(sheet)) for name, sheet in fight.sheets.items()})
