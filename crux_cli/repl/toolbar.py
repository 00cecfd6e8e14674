"""The bottom toolbar: what matters now — rule set, the hero (as the rule set shows it), the seed, countdowns.

In a fight it shows the active combatant instead (actions, HP, conditions), as the fight
module describes them. Its parts, and their order, are the config file's `toolbar`. Each part
has a rank; when the terminal is narrow the parts of the highest rank go first, so the line is
never cut off in the middle of what matters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from prompt_toolkit.application import get_app
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.key_binding.vi_state import InputMode

from crux_cli.core.columns import width
from crux_cli.repl.session import Session
from crux_cli.running.config import TOOLBAR_PARTS

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

Fragments = list[tuple[str, str]]
Part = tuple[int, Fragments]  # (rank: 0 is kept longest, the fragments)
HINT = "   /help · F4 vi/emacs · Ctrl-D leaves "


def toolbar_fragments(session: Session, width: int | None = None,
                      parts: Sequence[str] = TOOLBAR_PARTS, mode: str | None = None) -> Fragments:
    """The parts the config's `toolbar` names, in its order; with `width`, the lowest-ranked parts are
    left out until the rest fit. `mode`: vi keys' mode (INSERT, NORMAL…), shown first and kept longest."""
    chosen: list[Part] = [(0, [("class:toolbar.key", f" {mode} ")])] if mode else []
    for name in parts:
        chosen += PARTS[name](session)
    return fit(chosen, width) or [("class:toolbar", " ")]


def fit(parts: list[Part], width: int | None) -> Fragments:
    """Drop the highest-ranked parts until the rest fit in `width` columns (in their order)."""
    kept = list(parts)
    while width is not None and len(kept) > 1 and length(kept) > width:
        worst = max(rank for rank, _ in kept)
        kept = [part for part in kept if part[0] != worst] or kept[:1]
    return [fragment for _, fragments in kept for fragment in fragments]


def length(parts: list[Part]) -> int:
    """Terminal columns: a hero's name may be in any script (core.columns.width)."""
    return sum(width(text) for _, fragments in parts for _, text in fragments)


def rules_part(session: Session) -> list[Part]:
    return [(2, [("class:toolbar.key", " rules "), ("class:toolbar.value", session.rules_name)])]


def hero_part(session: Session) -> list[Part]:
    """The hero's name, then what the rule set shows of them (`SheetKeeping.status`); in a fight, the fight's."""
    if session.fight is not None and not session.fight.over:
        return []  # the fight part shows the active combatant instead (after a win, nobody's turn: the hero)
    hero = session.hero
    if hero is None:
        return [(1, [("class:toolbar", "  no hero "), ("class:toolbar.hint", "(/load FILE)")])]
    parts: list[Part] = [(0, [("class:toolbar.key", "  hero "), ("class:toolbar.value", hero.name)])]
    sheet = session.runner.rules.sheet
    after_key = False
    for tone, text in sheet.status(hero) if sheet is not None else ():
        if after_key:
            parts[-1][1].append((f"class:toolbar.{tone}", text))
        else:
            parts.append((2 if tone == "hint" else 1, [(f"class:toolbar.{tone}", text)]))
        after_key = tone == "key"
    return parts


def fight_part(session: Session) -> list[Part]:
    """The fight's own (rank, key, value) parts: who acts now, their actions, HP and conditions."""
    if session.fight is None:
        return []
    out: list[Part] = []
    for rank, key, value in session.fighting.toolbar():
        pieces = [("class:toolbar.key", f"  {key} ")] if key else [("class:toolbar", "  ")]
        out.append((rank, [*pieces, ("class:toolbar.value", value)]))
    return out


def seed_part(session: Session) -> list[Part]:
    if session.seed is None:
        return []
    return [(3, [("class:toolbar.key", "  seed "), ("class:toolbar.value", str(session.seed))])]


def countdowns_part(session: Session) -> list[Part]:
    if not session.countdowns:
        return []
    return [(2, [("class:toolbar.key", "  countdowns "),
                 ("class:toolbar.value", " ".join(f"d{c.sides}" for c in session.countdowns))])]


def help_part(session: Session) -> list[Part]:
    return [(4, [("class:toolbar.hint", HINT)])]


PARTS: dict[str, Callable[[Session], list[Part]]] = {
    "rules": rules_part, "hero": hero_part, "seed": seed_part, "fight": fight_part,
    "countdowns": countdowns_part, "help": help_part,
}


def create_toolbar(session: Session, parts: Sequence[str] = TOOLBAR_PARTS) -> Callable[[], StyleAndTextTuples]:
    def draw() -> StyleAndTextTuples:  # the list type bottom_toolbar takes
        app = get_app()
        return list(toolbar_fragments(session, app.output.get_size().columns, parts, vi_mode(app)))

    return draw


def vi_mode(app: object) -> str | None:
    """With vi keys, the mode they are in (vi shows it; nothing else would): INSERT, NORMAL, REPLACE…"""
    if getattr(app, "editing_mode", None) != EditingMode.VI:
        return None
    names = {InputMode.INSERT: "INSERT", InputMode.NAVIGATION: "NORMAL", InputMode.REPLACE: "REPLACE",
             InputMode.REPLACE_SINGLE: "REPLACE", InputMode.INSERT_MULTIPLE: "INSERT"}
    return names.get(app.vi_state.input_mode, "NORMAL")  # type: ignore[attr-defined]
