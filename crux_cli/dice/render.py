"""Rolled dice expressions as one readable line, and as the JSON fields crux(1) lists (JSON OUTPUT).

Text: `13 · 4d6kh3 [~~2~~, 4, 4, 5]` — the total first, then the expression with
every die in brackets after its term. Marks: `~~2~~` dropped, `~~1~~r` rerolled
away, `6!` exploded (the next die was added by it), `14!!(6+6+2)` compounded,
`5*` a success.
"""

from __future__ import annotations

from typing import Any

from crux_cli.core.memo import by_identity
from crux_cli.core.style import BAD, GOOD, MIXED, PLAIN, Palette
from crux_cli.dice import engine, syntax


def face_text(value: int, fudge: bool) -> str:
    return f"{value:+d}" if fudge and value else str(value)


def die_text(die: engine.Die, fudge: bool, palette: Palette) -> str:
    if die.kept and not fudge and not (die.parts or die.exploded or die.rerolled) and die.success is None:
        return str(die.value)  # a plain kept die: most dice of most rolls
    text = face_text(die.value, fudge)
    if die.parts:
        text += "!!(" + "+".join(face_text(p, fudge) for p in die.parts) + ")"
    elif die.exploded:
        text += "!"
    if die.success:
        text += "*"
    if die.rerolled:
        return palette.dim(f"~~{text}~~r")
    return text if die.kept else palette.dim(f"~~{text}~~")


def written(node: syntax.Expr | syntax.DiceTerm) -> str:
    return str(node)


# A syntax tree is immutable and a batch answers the same one thousands of times: its notation is written once.
notation = by_identity(written)


def term_facts(term: syntax.DiceTerm) -> tuple[str, bool, bool]:
    """A dice term's notation, whether its dice are Fudge dice, and whether it counts successes: worked out once a
    term (`facts`)."""
    return notation(term), isinstance(syntax.base_of(term), syntax.Fudge), syntax.counts_successes(term)


facts = by_identity(term_facts)
FACTS_KEY: str = facts.kept_as  # type: ignore[attr-defined]  # where a term keeps them: read straight in a loop


def rolled_text(rolled: engine.Rolled, palette: Palette) -> str:
    # the commonest nodes first, by isinstance: a class pattern costs more, and a batch writes every node
    if isinstance(rolled, engine.RolledDice):
        term = rolled.term
        written_as, fudge, _ = term.__dict__.get(FACTS_KEY) or facts(term)
        shared = engine.PLAIN_DICE  # a face's shared plain die is written as its number, told by `is` (`die_text`)
        dice = [str(die.value) if not fudge and shared.get(die.value) is die else die_text(die, fudge, palette)
                for die in rolled.dice]
        return f"{written_as} [{', '.join(dice)}]"
    if isinstance(rolled, engine.RolledChain):
        return rolled_text(rolled.first, palette) + "".join(
            [f" {op} {rolled_text(operand, palette)}" for op, operand in rolled.rest])
    if isinstance(rolled, engine.RolledNumber):
        return notation(rolled.node)
    match rolled:
        case engine.RolledGroup(_, inner):
            return f"({rolled_text(inner, palette)})"
        case engine.RolledLabel(node, inner):
            return f"{rolled_text(inner, palette)} {palette.dim('[' + node.label + ']')}"
        case engine.RolledNegate(_, inner):
            return f"-{rolled_text(inner, palette)}"
        case engine.RolledPool(node, items, kept):
            shown = ", ".join(rolled_text(item, palette) if keep else palette.dim(f"~~{rolled_text(item, PLAIN)}~~")
                              for item, keep in zip(items, kept, strict=True))
            if node.keep in syntax.EXTREMES:
                return f"{node.keep}({shown})"
            return "{" + shown + "}" + (f"{node.keep}{node.count}" if node.keep else "")
    raise TypeError(f"not a rolled node: {rolled!r}")


WRAPPERS = (engine.RolledLabel, engine.RolledGroup)  # made once: `A | B` makes a union at every call


def headline(result: engine.DiceResult, palette: Palette) -> str:
    rolled = result.rolled
    while isinstance(rolled, WRAPPERS):
        rolled = rolled.inner
    total = result.rolled.value  # `result.total`, read without a call
    if isinstance(rolled, engine.RolledDice) and (rolled.term.__dict__.get(FACTS_KEY) or facts(rolled.term))[2]:
        return palette.bold(f"{total} success{'es' if total != 1 else ''}")
    return palette.bold(str(total))


def countdown_text(result: engine.CountdownResult, palette: Palette) -> str:
    roll = f"Cd{result.sides} [{result.face}]"
    if result.outcome == "holds":
        return f"{palette.paint('holds', GOOD)} · {roll} · Cd{result.sides} again next time"
    if result.outcome == "shrinks":
        return f"{palette.paint('shrinks', MIXED)} · {roll} · Cd{result.next_sides} next time"
    return f"{palette.paint('ends', BAD)} · {roll} · the countdown is over"


VERSUS_ROLES = {"pass": GOOD, "fail": BAD, "win": GOOD, "tie": MIXED, "lose": BAD}  # as handler.COLOURS


def versus_text(result: engine.VersusResult, palette: Palette) -> str:
    """`pass +3 · 18 · 1d20 [13] + 5 vs 15`; opposed: `lose −2 · 13 · 1d20 [10] + 3 vs 15 · 1d20 [10] + 5`.
    The margin's minus is crux's sign, U+2212, as every signed number crux prints (a stream that cannot carry
    it gets `-`: running.streams), while the rolled expression echoes what was typed."""
    margin = f"{result.margin:+d}".replace("-", "−")
    outcome = palette.paint(f"{result.outcome} {margin}", VERSUS_ROLES[result.outcome])
    mine = f"{palette.bold(str(result.total))} · {rolled_text(result.rolled, palette)}"
    if not result.statement.opposed:
        return f"{outcome} · {mine} vs {result.against.value}"
    return f"{outcome} · {mine} vs {result.against.value} · {rolled_text(result.against, palette)}"


def describe(result: Any, palette: Palette) -> str:
    if isinstance(result, engine.CountdownResult):
        return countdown_text(result, palette)
    if isinstance(result, engine.VersusResult):
        return versus_text(result, palette)
    rolled = result.rolled
    if not palette.enabled and (type(rolled) is engine.RolledChain or (type(rolled) is engine.RolledDice and
                                not (rolled.term.__dict__.get(FACTS_KEY) or facts(rolled.term))[2])):
        return f"{rolled.value} · {rolled_text(rolled, palette)}"  # `headline`'s plain total, without its calls
    return f"{headline(result, palette)} · {rolled_text(rolled, palette)}"


# -- JSON ------------------------------------------------------------------------------------------

def die_json(die: engine.Die) -> dict[str, Any]:
    if die.kept and not (die.rerolled or die.exploded or die.added or die.parts) and die.success is None:
        return {"value": die.value, "kept": True}  # a plain kept die: most dice of most rolls
    record: dict[str, Any] = {"value": die.value, "kept": die.kept}
    if not die.kept and not die.rerolled:
        record["dropped"] = True
    for flag in ("rerolled", "exploded", "added"):
        if getattr(die, flag):
            record[flag] = True
    if die.parts:
        record["parts"] = list(die.parts)
    if die.success is not None:
        record["success"] = die.success
    return record


def terms_json(rolled: engine.Rolled) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(each dice term with its dice, each label with what it labels), in reading order."""
    if isinstance(rolled, engine.RolledDice) and not syntax.counts_successes(rolled.term):  # `4d6kh3`
        return [{"notation": notation(rolled.term), "value": rolled.value,
                 "dice": [die_json(d) for d in rolled.dice]}], []
    terms: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    collect_terms(rolled, None, terms, labels)
    return terms, labels


def collect_terms(rolled: engine.Rolled, label: str | None, terms: list[dict[str, Any]],
                  labels: list[dict[str, Any]]) -> None:
    """Add the dice terms and labels of `rolled`; `label` is the one written right after it, if any."""
    if isinstance(rolled, engine.RolledDice):
        term: dict[str, Any] = {"notation": notation(rolled.term), "value": rolled.value,
                                "dice": [die_json(d) for d in rolled.dice]}
        if syntax.counts_successes(rolled.term):
            term["successes"] = rolled.value
        if label is not None:
            term["label"] = label
        terms.append(term)
    elif isinstance(rolled, engine.RolledChain):
        collect_terms(rolled.first, None, terms, labels)
        for _, operand in rolled.rest:
            collect_terms(operand, None, terms, labels)
    elif isinstance(rolled, engine.RolledLabel):
        labels.append({"label": rolled.node.label, "notation": notation(rolled.node.expr), "value": rolled.value})
        collect_terms(rolled.inner, rolled.node.label, terms, labels)
    elif isinstance(rolled, engine.RolledGroup | engine.RolledNegate):
        collect_terms(rolled.inner, None, terms, labels)
    elif isinstance(rolled, engine.RolledPool):
        for item in rolled.items:
            collect_terms(item, None, terms, labels)


def groups_json(rolled: engine.Rolled, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each grouped roll and min/max of `rolled`, in reading order: its items' totals and which count."""
    if isinstance(rolled, engine.RolledPool):
        out.append({"notation": notation(rolled.node), "value": rolled.value,
                    "items": [{"notation": notation(node), "value": item.value, "kept": keep}
                              for node, item, keep in zip(rolled.node.items, rolled.items, rolled.kept, strict=True)]})
        for item in rolled.items:
            groups_json(item, out)
    elif isinstance(rolled, engine.RolledChain):
        groups_json(rolled.first, out)
        for _, operand in rolled.rest:
            groups_json(operand, out)
    elif isinstance(rolled, engine.RolledGroup | engine.RolledNegate | engine.RolledLabel):
        groups_json(rolled.inner, out)
    return out


def to_json(result: Any) -> dict[str, Any]:
    if isinstance(result, engine.CountdownResult):
        return {"kind": "countdown", "die": f"Cd{result.sides}", "sides": result.sides, "total": result.face,
                "dice": [result.face], "outcome": result.outcome,
                "next": f"Cd{result.next_sides}" if result.next_sides else None}
    if isinstance(result, engine.VersusResult):
        return versus_json(result)
    terms, labels = terms_json(result.rolled)
    record: dict[str, Any] = {"kind": "dice", "expression": notation(result.statement.expr), "total": result.total,
                              "terms": terms}
    if labels:
        record["labels"] = labels
    if not isinstance(result.rolled, engine.RolledDice) and (groups := groups_json(result.rolled, [])):
        record["groups"] = groups
    return record


def versus_json(result: engine.VersusResult) -> dict[str, Any]:
    """A target (`kind` target: `target`) or an opposed roll (`kind` opposed: `against`, the other side)."""
    statement = result.statement
    terms, labels = terms_json(result.rolled)
    record: dict[str, Any] = {"kind": result.kind, "expression": notation(statement.expr), "total": result.total,
                              "terms": terms}
    if labels:
        record["labels"] = labels
    if groups := groups_json(result.rolled, []):
        record["groups"] = groups
    if statement.opposed:
        other_terms, other_labels = terms_json(result.against)
        against: dict[str, Any] = {"expression": notation(statement.against), "total": result.against.value,
                                   "terms": other_terms}
        if other_labels:
            against["labels"] = other_labels
        record["against"] = against
    else:
        record["target"] = result.against.value
    record["outcome"] = result.outcome
    record["margin"] = result.margin
    return record
