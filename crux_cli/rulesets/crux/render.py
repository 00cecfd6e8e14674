"""Crux results as one readable line, and as the JSON fields crux(1) lists (JSON OUTPUT)."""

from __future__ import annotations

from typing import Any

from crux_cli.core.memo import by_identity
from crux_cli.core.style import CRIT, GOOD, Palette
from crux_cli.core.vocabulary import ARMOR_KEY
from crux_cli.core.vocabulary import grit_json as shared_grit_json
from crux_cli.rulesets.crux.engine import (
    GRIT_CHANGES,
    AttackRequest,
    AttackResult,
    GritChange,
    PoolRequest,
    PoolResult,
    Source,
)
from crux_cli.rulesets.crux.words import COLOURS


def signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def source_text(source: Source) -> str:
    what = source.what[:-1] if source.what in ("boons", "banes") and abs(source.net) == 1 else source.what
    return f"{signed(source.net)} {what}" if source.what in ("boons", "banes") or abs(source.net) != 1 \
        else what


def net_text(sources: tuple[Source, ...], net: int) -> str:
    """`net +2: +2 boons, −1 bane, grit`: where the pool's size came from."""
    if not sources:
        return ""
    return f"net {signed(net) if net else 0}: " + ", ".join(source_text(s) for s in sources)


def pool_text(dice: tuple[int, ...], net: int, sides: int = 6) -> str:
    """`3d6 keep highest [3, 2, 4]`, or nothing for a single die (the headline shows it)."""
    if len(dice) == 1:
        return ""
    return f"{len(dice)}d{sides} keep {'lowest' if net < 0 else 'highest'} [{', '.join(map(str, dice))}]"


def request_words(request: PoolRequest | AttackRequest) -> tuple[str, str]:
    """(where the pool came from, the position and effect labels): the same for every roll of a request."""
    return net_text(request.sources, request.net), " ".join(filter(None, [request.position, request.effect]))


# A statement rolled without a hero compiles to one request object, rolled again and again in a batch.
words_of = by_identity(request_words)
WORDS_KEY: str = words_of.kept_as  # type: ignore[attr-defined]  # where a request keeps its words


def grit_text(grit: GritChange) -> str:
    parts = []
    if grit.spent:
        parts.append("Grit −1 spent")
    if grit.gained:
        parts.append("Grit +1 earned")
    return ", ".join(parts)


GRIT_TEXTS = {change: grit_text(change) for change in GRIT_CHANGES.values()}  # a batch writes one at every roll


def headline(result: PoolResult, palette: Palette) -> str:
    outcome = result.outcome
    kind = result.request.kind
    if kind == "save":
        return palette.outcome(result.effect, COLOURS, outcome)
    if kind == "initiative":
        word = f"{result.actions} action{'s' if result.actions != 1 else ''}"
        return palette.outcome(word, COLOURS, outcome)
    return palette.outcome(outcome, COLOURS)


def describe_pool(result: PoolResult, palette: Palette) -> str:
    request = result.request
    if request.ambush:
        return " · ".join(filter(None, [palette.paint("3 actions", GOOD), "ambush: no roll",
                                        grit_text(result.grit)]))
    net, labels = request.__dict__.get(WORDS_KEY) or words_of(request)  # the memo's value, read straight
    grit = GRIT_TEXTS.get(result.grit)  # the four changes a roll makes, written once
    parts = [f"{headline(result, palette)} ({palette.bold(str(result.kept))})",
             pool_text(result.dice, request.net),
             net,
             grit_text(result.grit) if grit is None else grit]
    if labels:
        parts.append(palette.dim(labels))
    return " · ".join(filter(None, parts))


def damage_text(result: AttackResult) -> str:
    dice = [result.primary, *result.explosions, *result.dice]
    text = "+".join(map(str, dice)) + (f" = {result.dice_total}" if len(dice) > 1 else "")
    flat = result.request.flat
    if flat:
        text += f", {signed(flat)} flat = {result.total}"
    return "dice " + text


def describe_attack(result: AttackResult, palette: Palette) -> str:
    request = result.request
    outcome = palette.outcome(result.outcome, COLOURS)
    primary = f"primary d{request.sides}: {result.primary}"
    if len(result.primary_dice) > 1:
        primary += f" of {pool_text(result.primary_dice, request.net, request.sides)}"
    if result.outcome == "miss":
        parts = [f"{outcome} · no damage", primary]
    else:
        damage = f"{outcome} · {palette.bold(str(result.damage))} damage"
        if result.killed is not None:
            damage += " · " + (palette.paint("minion killed", CRIT) if result.killed else "minion stands")
        parts = [damage, primary]
        if result.explosions:
            parts.append("explodes " + ", ".join(map(str, result.explosions)))
        parts.append(damage_text(result))
        parts += [f"{step} → {value}" for step, value in result.steps]
    net, labels = request.__dict__.get(WORDS_KEY) or words_of(request)  # the memo's value, read straight
    grit = GRIT_TEXTS.get(result.grit)
    parts += [net, grit_text(result.grit) if grit is None else grit]
    if labels:
        parts.append(palette.dim(labels))
    return " · ".join(filter(None, parts))


def grit_json(grit: GritChange) -> dict[str, object]:
    return shared_grit_json(grit.spent, grit.gained)


def sources_json(sources: tuple[Source, ...]) -> list[dict[str, Any]]:
    return [{"what": s.what, "net": s.net} for s in sources]


def pool_json(result: PoolResult) -> dict[str, Any]:
    request = result.request
    record: dict[str, Any] = {
        "kind": request.kind, "attribute": request.attribute, "net": request.net,
        "keep": "lowest" if request.net < 0 else "highest",
        "dice": list(result.dice), "kept": result.kept, "outcome": result.outcome,
        "grit": grit_json(result.grit), "sources": sources_json(request.sources),
    }
    if request.position or request.effect:
        record["labels"] = {"position": request.position, "effect": request.effect}
    if request.kind == "save":
        record.update(effect=result.effect, stance=request.stance, vs_rushed=request.vs_rushed)
    if request.kind == "initiative":
        record.update(actions=result.actions, ambush=request.ambush)
    return record


def attack_json(result: AttackResult) -> dict[str, Any]:
    request = result.request
    record: dict[str, Any] = {
        "kind": "attack", "net": request.net, "sides": request.sides, "count": request.count,
        "primary": {"dice": list(result.primary_dice), "kept": result.primary},
        "dice": list(result.dice), "explosions": list(result.explosions), "flat": request.flat,
        ARMOR_KEY: request.armour, "resist": request.resist, "vuln": request.vuln,
        "outcome": result.outcome, "dice_total": result.dice_total, "total": result.total,
        "damage": result.damage, "grit": grit_json(result.grit), "sources": sources_json(request.sources),
    }
    if request.minion:
        record.update(minion=True, killed=result.killed)
    if request.position or request.effect:
        record["labels"] = {"position": request.position, "effect": request.effect}
    return record
