"""The bottom toolbar: what matters now — rule set, the hero (as the rule set shows it), the seed, countdowns.

Its parts, and their order, are the config file's `toolbar`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from crux_cli.repl.session import Session
from crux_cli.running.config import TOOLBAR_PARTS

Fragments = list[tuple[str, str]]


def toolbar_fragments(session: Session, parts: Sequence[str] = TOOLBAR_PARTS) -> Fragments:
    """The toolbar's parts, those the config's `toolbar` names, in its order."""
    out: Fragments = []
    for part in parts:
        out += PARTS[part](session)
    return out or [("class:toolbar", " ")]


def rules_part(session: Session) -> Fragments:
    return [("class:toolbar.key", " rules "), ("class:toolbar.value", session.rules_name)]


def hero_part(session: Session) -> Fragments:
    hero = session.hero
    if hero is None:
        return [("class:toolbar", "  no hero "), ("class:toolbar.hint", "(/load FILE)")]
    status = session.runner.rules.status
    return [("class:toolbar.key", "  hero "), ("class:toolbar.value", hero.name),
            *((f"class:toolbar.{tone}", text) for tone, text in (status(hero) if status else ()))]


def seed_part(session: Session) -> Fragments:
    if session.seed is None:
        return []
    return [("class:toolbar.key", "  seed "), ("class:toolbar.value", str(session.seed))]


def fight_part(session: Session) -> Fragments:
    if session.fight is None:
        return []
    from crux_cli.rulesets.crux.encounter import possessive  # loaded already: a fight is on

    encounter = session.fight.encounter
    active = encounter.active() if encounter.started else None
    turn = f"round {encounter.round}, {possessive(active.name)} turn" if active else "setting up"
    return [("class:toolbar.key", "  fight "), ("class:toolbar.value", turn)]


def countdowns_part(session: Session) -> Fragments:
    if not session.countdowns:
        return []
    return [("class:toolbar.key", "  countdowns "),
            ("class:toolbar.value", " ".join(f"d{c.sides}" for c in session.countdowns))]


def help_part(session: Session) -> Fragments:
    return [("class:toolbar.hint", "   /help · F4 vi/emacs · Ctrl-D leaves ")]


PARTS: dict[str, Callable[[Session], Fragments]] = {
    "rules": rules_part, "hero": hero_part, "seed": seed_part, "fight": fight_part,
    "countdowns": countdowns_part, "help": help_part,
}


def create_toolbar(session: Session, parts: Sequence[str] = TOOLBAR_PARTS) -> Callable[[], Fragments]:
    return lambda: toolbar_fragments(session, parts)
