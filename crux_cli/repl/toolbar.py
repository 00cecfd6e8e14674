"""The bottom toolbar: what matters now — rule set, the hero (as the rule set shows it), the seed, countdowns.

In a fight it shows the active combatant instead (actions, HP, conditions), as the fight
module describes them. Each part has a rank; when the terminal is narrow the parts of the
highest rank go first, so the line is never cut off in the middle of what matters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from crux_cli.repl.session import Session

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

Fragments = list[tuple[str, str]]
Part = tuple[int, Fragments]  # (rank: 0 is kept longest, the fragments)
HINT = "   /help · Ctrl-D leaves "


def toolbar_fragments(session: Session, width: int | None = None) -> Fragments:
    """The toolbar's fragments; with `width`, the lowest-ranked parts are left out until they fit."""
    parts = [(2, [("class:toolbar.key", " rules "), ("class:toolbar.value", session.rules_name)])]
    parts += fight_parts(session) if session.fight is not None else hero_parts(session)
    if session.seed is not None:
        parts.append((3, [("class:toolbar.key", "  seed "), ("class:toolbar.value", str(session.seed))]))
    if session.countdowns:
        parts.append((2, [("class:toolbar.key", "  countdowns "),
                          ("class:toolbar.value", " ".join(f"d{c.sides}" for c in session.countdowns))]))
    parts.append((4, [("class:toolbar.hint", HINT)]))
    return fit(parts, width)


def fit(parts: list[Part], width: int | None) -> Fragments:
    """Drop the highest-ranked parts until the rest fit in `width` columns (in their order)."""
    kept = list(parts)
    while width is not None and len(kept) > 1 and length(kept) > width:
        worst = max(rank for rank, _ in kept)
        kept = [part for part in kept if part[0] != worst] or kept[:1]
    return [fragment for _, fragments in kept for fragment in fragments]


def length(parts: list[Part]) -> int:
    return sum(len(text) for _, fragments in parts for _, text in fragments)


def hero_parts(session: Session) -> list[Part]:
    """The hero's name, then what the rule set shows of them (`RuleSet.status`), a part per key and value."""
    hero = session.hero
    if hero is None:
        return [(1, [("class:toolbar", "  no hero "), ("class:toolbar.hint", "(/load FILE)")])]
    parts: list[Part] = [(0, [("class:toolbar.key", "  hero "), ("class:toolbar.value", hero.name)])]
    status = session.runner.rules.status
    after_key = False
    for tone, text in status(hero) if status else ():
        if after_key:
            parts[-1][1].append((f"class:toolbar.{tone}", text))
        else:
            parts.append((2 if tone == "hint" else 1, [(f"class:toolbar.{tone}", text)]))
        after_key = tone == "key"
    return parts


def fight_parts(session: Session) -> list[Part]:
    """The fight's own (rank, key, value) parts: who acts now, their actions, HP and conditions."""
    out: list[Part] = []
    for rank, key, value in session.fight.toolbar():
        pieces = [("class:toolbar.key", f"  {key} ")] if key else [("class:toolbar", "  ")]
        out.append((rank, [*pieces, ("class:toolbar.value", value)]))
    return out


def create_toolbar(session: Session) -> Callable[[], StyleAndTextTuples]:
    def draw() -> StyleAndTextTuples:  # the list type bottom_toolbar takes
        from prompt_toolkit.application import get_app

        return list(toolbar_fragments(session, get_app().output.get_size().columns))

    return draw
