"""`crux log --stats`: are my dice fair, and how often did each statement come out as it should?

Reads the journal's plain rolls (those kept as statement and faces: every roll made with no sheet
or hero, most of a batch or a one-shot session) through the store's indexes, straight from its rows:

- faces: for each die size, how often each face came up, against fair dice, with Pearson's
  chi-square and its p-value (a p-value under 0.01 says: these dice do not look fair);
- outcomes: for each statement rolled often enough, how often each outcome (hit, crit, success…)
  came up, against the statement's exact odds (`crux odds`), with the same test.

An outcome comes from rolling the statement again with the kept faces (running.replay); the same
statement with the same faces is rolled once, so a long history costs its distinct rolls.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from crux_cli.core.errors import CruxError
from crux_cli.running.replay import replayed
from crux_cli.running.runner import Runner

MIN_EXPECTED = 5  # the chi-square test wants at least this many expected in each cell
MOST_STATEMENTS = 40  # statements compared with their odds (the most rolled first)
FLAG_BELOW = 0.01  # a p-value under this is said to look unfair


def chi_square(observed: list[int], expected: list[float]) -> tuple[float, int, float]:
    """Pearson's statistic, its degrees of freedom and the p-value (cells expected below 5 pooled)."""
    cells: list[tuple[float, float]] = []
    pool_o = pool_e = 0.0
    for o, e in sorted(zip(observed, expected, strict=True), key=lambda pair: pair[1]):
        if e < MIN_EXPECTED:
            pool_o, pool_e = pool_o + o, pool_e + e
            continue
        cells.append((o, e))
    if pool_e:
        cells.append((pool_o, pool_e))
    cells = [(o, e) for o, e in cells if e > 0]
    if len(cells) < 2:
        return 0.0, 0, 1.0
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return statistic, df, upper_gamma_regularized(df / 2, statistic / 2)


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the chi-square survival function at 2x with 2a degrees of freedom."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P(a, x), then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # the continued fraction for Q (Lentz), as in Numerical Recipes
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


OUTCOMES_FROM = 50_000  # the newest rolls whose outcomes are counted (each distinct one rolled again)


class Tally:
    """What the rolls read so far add up to: faces of all of them, outcomes of the newest."""

    def __init__(self) -> None:
        self.faces: dict[int, list[int]] = {}  # sides -> count of each face (index 0 unused)
        self.outcomes: dict[tuple[str, str], Counter[str]] = {}
        self.rolls = 0
        self.memo: dict[tuple[str, str, str], str | None] = {}
        self.runners: dict[Any, Any] = {}

    def add_run(self, rules: str, seed: Any, statements: list[str], items: list[Any]) -> None:
        """One row's rolls: a tight loop, since a long history holds a million of them."""
        faces, counted = self.faces, 0
        outcomes_left = OUTCOMES_FROM - self.rolls
        for item in items:
            try:
                which, kept = item
            except (TypeError, ValueError):
                continue
            item_rules, item_seed = rules, seed
            if kept.__class__ is dict:
                if "hero" in kept:  # a roll on a sheet: counted with the heroless rolls it is not
                    continue
                item_rules, item_seed, kept = str(kept.get("rules", rules)), kept.get("seed"), kept.get("faces")
            if kept.__class__ is not list:
                continue
            counted += 1
            try:
                at, end = 0, len(kept)
                while at < end:  # runs of sides, count, face…
                    sides, count = kept[at], kept[at + 1]
                    tally = faces.get(sides)
                    if tally is None:
                        tally = faces[sides] = [0] * (sides + 1)
                    for face in kept[at + 2:at + 2 + count]:
                        tally[face] += 1
                    at += 2 + count
            except (TypeError, IndexError):
                continue  # not faces crux wrote
            if outcomes_left > 0 and which.__class__ is int and 0 <= which < len(statements):
                outcomes_left -= 1
                self.count_outcome(item_rules, statements[which], kept, item_seed)
        self.rolls += counted

    def count_outcome(self, rules: str, statement: str, groups: list[int], seed: Any) -> None:
        key = (rules, statement, repr(groups))
        outcome = self.memo.get(key, "")
        if outcome == "":
            outcome = self.memo[key] = self.outcome_of(rules, statement, groups, seed)
        if outcome is not None:
            self.outcomes.setdefault((rules, statement), Counter())[outcome] += 1

    def outcome_of(self, rules: str, statement: str, groups: list[int], seed: Any) -> str | None:
        try:
            answer = replayed(statement, {"rules": rules, "faces": groups, "seed": seed}, self.runners)
        except (CruxError, AssertionError, KeyError, TypeError, ValueError, IndexError):
            return None
        outcome = answer.get("outcome")
        return str(outcome) if isinstance(outcome, str) else None


def tally(runs: Iterable[tuple[str, Any, list[str], list[Any]]]) -> Tally:
    """Count every run. The collector is paused meanwhile: a million rolls parsed are a million short-lived
    lists with no cycles, which reference counting frees, and collections over them cost a third of the
    time (PERFORMANCE.md)."""
    counted = Tally()
    paused = gc.isenabled()
    gc.disable()
    try:
        for rules, seed, statements, items in runs:
            counted.add_run(rules, seed, statements, items)
    finally:
        if paused:
            gc.enable()
    return counted


def face_report(sides: int, counts: list[int]) -> dict[str, Any]:
    observed = counts[1:sides + 1]
    rolled = sum(observed)
    statistic, df, p = chi_square(observed, [rolled / sides] * sides)
    return {"die": f"d{sides}", "rolled": rolled, "counts": {str(f): counts[f] for f in range(1, sides + 1)},
            "expected": rolled / sides, "chi_square": round(statistic, 4), "df": df, "p": p,
            "fair": p >= FLAG_BELOW}


def outcome_report(rules: str, statement: str, counts: Counter[str]) -> dict[str, Any] | None:
    try:
        odds = Runner(rules=rules).odds(statement).result
    except CruxError:
        return None
    chances: dict[str, Fraction] = dict(getattr(odds, "outcomes", None) or {})
    if not chances:
        return None
    rolled = sum(counts.values())
    names = sorted(set(chances) | set(counts), key=lambda name: -float(chances.get(name, 0)))
    observed = [counts.get(name, 0) for name in names]
    expected = [float(chances.get(name, 0)) * rolled for name in names]
    statistic, df, p = chi_square(observed, expected)
    return {"statement": statement, "rules": rules, "rolled": rolled,
            "counts": {name: counts.get(name, 0) for name in names},
            "expected": {name: round(e, 2) for name, e in zip(names, expected, strict=True)},
            "chi_square": round(statistic, 4), "df": df, "p": p, "as_expected": p >= FLAG_BELOW}


def report(counted: Tally) -> dict[str, Any]:
    faces = [face_report(sides, counts) for sides, counts in sorted(counted.faces.items()) if sides > 1]
    common = sorted(counted.outcomes.items(), key=lambda item: -sum(item[1].values()))[:MOST_STATEMENTS]
    outcomes = [r for (rules, statement), counts in common if (r := outcome_report(rules, statement, counts))]
    return {"kind": "stats", "rolls": counted.rolls, "outcomes_of": min(counted.rolls, OUTCOMES_FROM),
            "faces": faces, "outcomes": outcomes}


def text_lines(stats: dict[str, Any]) -> Iterator[str]:
    if not stats["rolls"]:
        yield "no plain rolls to count (rolls made with a sheet or a hero are not counted)"
        return
    yield f"{stats['rolls']:,} rolls counted"
    yield "faces, against fair dice:"
    for face in stats["faces"]:
        verdict = "fair" if face["fair"] else "NOT what fair dice give"
        counts = " ".join(f"{k}:{v}" for k, v in face["counts"].items()) if len(face["counts"]) <= 12 else \
            f"{len(face['counts'])} faces"
        yield (f"  {face['die']:>6}  {face['rolled']:>9,} rolled  χ² {face['chi_square']:.2f} (df {face['df']})  "
               f"p {face['p']:.3g}  {verdict}  [{counts}]")
    if stats["outcomes"]:
        newest = "" if stats["outcomes_of"] == stats["rolls"] else f" (the newest {stats['outcomes_of']:,} rolls)"
        yield f"outcomes, against the exact odds{newest}:"
    for row in stats["outcomes"]:
        verdict = "as expected" if row["as_expected"] else "NOT as the odds say"
        shown = ", ".join(f"{name} {count} (expected {row['expected'][name]:g})"
                          for name, count in row["counts"].items())
        yield f"  {row['statement']}  [{row['rules']}]  {row['rolled']:,} rolled  p {row['p']:.3g}  {verdict}"
        yield f"    {shown}"
