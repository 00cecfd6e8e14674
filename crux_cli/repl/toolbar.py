"""The bottom toolbar: what matters now — rule set, the hero (as the rule set shows it), the seed, countdowns."""

from __future__ import annotations

from collections.abc import Callable

from crux_cli.repl.session import Session

Fragments = list[tuple[str, str]]


def toolbar_fragments(session: Session) -> Fragments:
    out: Fragments = [("class:toolbar.key", " rules "), ("class:toolbar.value", session.rules_name)]
    hero = session.hero
    if hero is None:
        out += [("class:toolbar", "  no hero "), ("class:toolbar.hint", "(/load FILE)")]
    else:
        out += [("class:toolbar.key", "  hero "), ("class:toolbar.value", hero.name)]
        status = session.runner.rules.status
        out += [(f"class:toolbar.{tone}", text) for tone, text in (status(hero) if status else ())]
    if session.seed is not None:
        out += [("class:toolbar.key", "  seed "), ("class:toolbar.value", str(session.seed))]
    if session.fight is not None:
        from crux_cli.rulesets.crux.encounter import possessive  # loaded already: a fight is on

        encounter = session.fight.encounter
        active = encounter.active() if encounter.started else None
        turn = f"round {encounter.round}, {possessive(active.name)} turn" if active else "setting up"
        out += [("class:toolbar.key", "  fight "), ("class:toolbar.value", turn)]
    if session.countdowns:
        out += [("class:toolbar.key", "  countdowns "),
                ("class:toolbar.value", " ".join(f"d{c.sides}" for c in session.countdowns))]
    out.append(("class:toolbar.hint", "   /help · Ctrl-D leaves "))
    return out


def create_toolbar(session: Session) -> Callable[[], Fragments]:
    return lambda: toolbar_fragments(session)
