"""`crux log --stats`: are my dice fair, and how often did each statement come out as it should?

Reads every roll the journal keeps through the store's indexes, straight from its rows (state.history
`kept_rolls`): the plain rolls kept as statement and faces (a batch, a one-shot), and the rolls kept whole
(made with a sheet or a hero, or in a fight), whose answers hold their dice.

- faces: for each die size, how often each face came up, against fair dice, with Pearson's
  chi-square and its p-value: of every roll whose dice the journal holds;
- outcomes: for each statement rolled often enough, how often each outcome (hit, crit, success…)
  came up, against the statement's exact odds (`crux odds`), with the same test: of the plain rolls,
  since a hero's ratings and a fight's additions change the odds a statement's text alone gives.

A test is made only with enough rolls: every cell (a face, an outcome, or the rare outcomes pooled) expected
at least MIN_EXPECTED times; with fewer, "too few to tell". All the tests of one report are corrected for
being made at once (Holm's method): a p-value is flagged when its Holm-adjusted value is under FLAG_BELOW,
so a fair evening is flagged somewhere with a chance under FLAG_BELOW, however many dice and statements.

An outcome comes from rolling the statement again with the kept faces (running.replay); the same
statement with the same faces is rolled once, so a long history costs its distinct rolls.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from crux_cli.core import collector
from crux_cli.core.errors import CruxError
from crux_cli.running.replay import replayed
from crux_cli.running.runner import Runner

MIN_EXPECTED = 5  # the chi-square test wants at least this many expected in each cell
MOST_STATEMENTS = 40  # statements compared with their odds (the most rolled first)
FLAG_BELOW = 0.01  # a p-value under this is said to look unfair


def chi_square(observed: list[int], expected: list[float]) -> tuple[float, int, float | None]:
    """Pearson's statistic, its degrees of freedom and the p-value (cells expected below 5 pooled); the
    p-value is None when there are too few to tell: fewer than two cells, or the pool expected below 5."""
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
    if len(cells) < 2 or any(e < MIN_EXPECTED for _, e in cells):
        return 0.0, 0, None
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return statistic, df, upper_gamma_regularized(df / 2, statistic / 2)


def holm(p_values: list[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: the smallest times the number of tests, the next times
    one fewer, …, each at least the one before it (Holm 1979; controls the chance of any false flag)."""
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


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
PENDING_CHARS = 4_000_000  # rows kept whole held before they are read (the same one read once among them)


def answer_dice(answer: dict[str, Any]) -> list[tuple[int, list[int]]] | None:
    """The dice an answer kept whole shows, as (sides, faces) groups: [] when it rolled none (a damage, a
    condition), None when the journal does not say which dice it rolled (their sides, or a rule set's answer
    crux does not read here). The faces of the Crux rules' tests and attacks, and of dice expressions."""
    kind, rules = answer.get("kind"), answer.get("rules")
    if "dice" not in answer and kind not in ("attack", "dice"):
        return []
    groups: list[tuple[int, list[int]]] = []
    if rules == "crux" and kind in ("test", "save", "initiative"):
        groups = [(6, answer.get("dice"))]  # type: ignore[list-item]
    elif rules == "crux" and kind == "attack":
        primary = answer.get("primary")
        groups = [(answer.get("sides"), [*(primary.get("dice") or []), *(answer.get("dice") or []),  # type: ignore[list-item]
                                         *(answer.get("explosions") or [])])] if isinstance(primary, dict) else []
    elif kind == "dice" and isinstance(answer.get("terms"), list):
        for term in answer["terms"]:
            if not isinstance(term, dict) or not isinstance(term.get("dice"), list):
                continue
            sides = re.match(r"\d*d(\d+)", str(term.get("notation", "")))
            if sides is None:
                return None  # fudge dice, percentiles written d%, …: not read here
            faces = [part for die in term["dice"] if isinstance(die, dict)
                     for part in (die.get("parts") or [die.get("value")])]
            groups.append((int(sides.group(1)), faces))
    else:
        return None
    good = all(isinstance(sides, int) and sides > 1 and isinstance(faces, list)
               and all(isinstance(f, int) and 1 <= f <= sides for f in faces) for sides, faces in groups)
    return groups if good and groups else None


class Tally:
    """What the rolls read so far add up to: faces of all of them, outcomes of the newest plain ones."""

    def __init__(self, outcomes: bool = True) -> None:
        self.counts_outcomes = outcomes  # False: the faces alone (a block of history's sums, running.stats_blocks)
        self.faces: dict[int, list[int]] = {}  # sides -> count of each face (index 0 unused)
        self.outcomes: dict[tuple[str, str], Counter[str]] = {}
        self.rolls = 0  # rolls whose faces are counted
        self.plain = 0  # of them, plain rolls (statement and faces): their outcomes count too
        self.asked = 0  # of them, those whose outcome was asked for (the window's share they took)
        self.left_out: Counter[str] = Counter()  # rolls whose dice the journal does not hold, by kind
        self.memo: dict[tuple[str, str, str], str | None] = {}
        self.runners: dict[Any, Any] = {}
        self.pending: Counter[str] = Counter()  # rows of rolls kept whole not read yet: their body, how many times
        self.pending_size = 0  # their characters

    # long: one tight loop over a million rolls; split, it would pay a call per roll
    def add_run(self, rules: str, seed: Any, statements: list[str], items: list[Any]) -> None:
        """One row's rolls: a tight loop (or each distinct roll once when a run repeats them: `add_grouped`)."""
        if len(items) >= GROUPED_FROM and self.add_grouped(rules, seed, statements, items):
            return
        faces, counted, plain = self.faces, 0, 0
        outcomes_left = OUTCOMES_FROM - self.plain if self.counts_outcomes else 0
        for item in items:
            try:
                which, kept = item[0], item[1]
            except (TypeError, IndexError, KeyError):
                continue
            item_rules, item_seed = rules, seed
            heroless = len(item) == 2  # [number, faces, hero's number]: made with a hero
            if kept.__class__ is dict:
                heroless = heroless and "hero" not in kept
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
            if not heroless:  # its outcome is of the hero's odds, not of the statement's text
                continue
            plain += 1
            if outcomes_left > 0 and which.__class__ is int and 0 <= which < len(statements):
                outcomes_left -= 1
                self.asked += 1
                self.count_outcome(item_rules, statements[which], kept, item_seed)
        self.rolls += counted
        self.plain += plain

    def add_grouped(self, rules: str, seed: Any, statements: list[str], items: list[Any]) -> bool:
        """`add_run` of a run's rolls counted by their kind: the same item (statement and faces) read once and
        counted as many times as it comes, the items grouped in C (orjson, Counter). What the loop would add,
        or False (nothing added) where order matters: more outcomes than the window has left (the loop counts
        the first ones), or values crux does not write (faces that are not whole numbers)."""
        from orjson import dumps, loads

        try:
            kinds = Counter(map(dumps, items))
        except TypeError:
            return False
        if len(kinds) * 2 > len(items):  # mostly distinct: grouping buys nothing
            return False
        read = [(read_item(rules, seed, statements, loads(key)), times) for key, times in kinds.items()]
        if any(item is None for item, _ in read):
            return False
        outcomes_left = OUTCOMES_FROM - self.plain if self.counts_outcomes else 0
        if outcomes_left > 0 and sum(times for item, times in read if item and item[4] is not None) > outcomes_left:
            return False
        faces = self.faces
        for item, times in read:
            if not item:
                continue
            made, counts, plain, item_rules, statement, kept, item_seed = item
            for sides in made:
                if sides not in faces:
                    faces[sides] = [0] * (sides + 1)
            for sides, face in counts:
                faces[sides][face] += times
            self.rolls += times
            self.plain += times if plain else 0
            if outcomes_left > 0 and statement is not None:
                self.asked += times
                self.count_outcome(item_rules, statement, kept, item_seed, times)
        return True

    def add_whole(self, bodies: list[str]) -> None:
        """Rolls kept whole: their rows' bodies, counted now and read with the others like them (`settle`), so
        the same body (a roll with the same dice, hero and answer) is parsed once, with a bounded memory."""
        self.pending.update(bodies)  # counted in C
        self.pending_size += sum(map(len, bodies))
        if self.pending_size > PENDING_CHARS:
            self.settle()

    def settle(self) -> None:
        """Count the dice of the bodies held, each parsed once however many times it came."""
        from orjson import loads

        faces, left_out = self.faces, self.left_out
        for body, times in self.pending.items():
            try:
                data = loads(body)
            except ValueError:
                continue
            answers = data.get("answers") if isinstance(data, dict) else None
            for answer in answers if isinstance(answers, list) else ():
                dice = answer_dice(answer) if isinstance(answer, dict) else None
                if dice is None:
                    left_out[str(answer.get("kind")) if isinstance(answer, dict) else "?"] += times
                    continue
                if dice:
                    self.rolls += times
                for sides, rolled in dice:
                    tally = faces.get(sides)
                    if tally is None:
                        tally = faces[sides] = [0] * (sides + 1)
                    for face in rolled:
                        tally[face] += times
        self.pending.clear()
        self.pending_size = 0

    def count_outcome(self, rules: str, statement: str, groups: list[int], seed: Any, times: int = 1) -> None:
        key = (rules, statement, repr(groups))
        outcome = self.memo.get(key, "")
        if outcome == "":
            outcome = self.memo[key] = self.outcome_of(rules, statement, groups, seed)
        if outcome is not None:
            self.outcomes.setdefault((rules, statement), Counter())[outcome] += times

    def outcome_of(self, rules: str, statement: str, groups: list[int], seed: Any) -> str | None:
        try:
            answer = replayed(statement, {"rules": rules, "faces": groups, "seed": seed}, self.runners)
        except (CruxError, AssertionError, KeyError, TypeError, ValueError, IndexError):
            return None
        outcome = answer.get("outcome")
        return str(outcome) if isinstance(outcome, str) else None


GROUPED_FROM = 16  # a run of at least these many rolls is counted by kind (`Tally.add_grouped`)


def read_item(rules: str, seed: Any, statements: list[str], item: Any) -> tuple[Any, ...] | None:
    """What `Tally.add_run`'s loop makes of one item, without adding it anywhere: () when it counts nothing, else
    (the sides whose tallies it makes, the (sides, face) it adds one to, is it plain, its rule set, its statement
    when its outcome counts (else None), its faces, its seed); None when its faces are not all whole numbers."""
    try:
        which, kept = item[0], item[1]
    except (TypeError, IndexError, KeyError):
        return ()
    item_rules, item_seed = rules, seed
    heroless = len(item) == 2
    if kept.__class__ is dict:
        heroless = heroless and "hero" not in kept
        item_rules, item_seed, kept = str(kept.get("rules", rules)), kept.get("seed"), kept.get("faces")
    if kept.__class__ is not list:
        return ()
    if any(value.__class__ is not int for value in kept):
        return None
    made: list[int] = []
    counts: list[tuple[int, int]] = []
    scratch: dict[int, list[int]] = {}
    try:
        at, end = 0, len(kept)
        while at < end:  # as add_run's loop, on lists of the same lengths
            sides, count = kept[at], kept[at + 1]
            if sides not in scratch:
                scratch[sides] = [0] * (sides + 1)
                made.append(sides)
            for face in kept[at + 2:at + 2 + count]:
                scratch[sides][face] += 1
                counts.append((sides, face))
            at += 2 + count
    except (TypeError, IndexError):
        return (made, counts, False, item_rules, None, kept, item_seed)  # counted, not plain (as the loop)
    plain = heroless
    outcome = which.__class__ is int and 0 <= which < len(statements) and plain
    return made, counts, plain, item_rules, statements[which] if outcome else None, kept, item_seed


def tally(runs: Iterable[tuple[str, Any, list[str] | None, Any]], counted: Tally | None = None) -> Tally:
    """Count every run (into `counted`, else a new tally). The collector is paused meanwhile: a million rolls
    parsed are a million short-lived lists with no cycles, which reference counting frees, and collections over
    them cost a third of the time (PERFORMANCE.md)."""
    counted = Tally() if counted is None else counted
    with collector.paused():
        for rules, seed, statements, items in runs:
            if statements is None:  # rolls kept whole: their answers' dice
                counted.add_whole(items)
            else:
                counted.add_run(rules, seed, statements, items)
        counted.settle()
    return counted


def face_report(sides: int, counts: list[int]) -> dict[str, Any]:
    observed = counts[1:sides + 1]
    rolled = sum(observed)
    statistic, df, p = chi_square(observed, [rolled / sides] * sides)
    return {"die": f"d{sides}", "rolled": rolled, "counts": {str(f): counts[f] for f in range(1, sides + 1)},
            "expected": rolled / sides, "chi_square": round(statistic, 4), "df": df, "p": p}


def outcome_report(rules: str, statement: str, counts: Counter[str]) -> dict[str, Any] | None:
    try:
        odds = Runner(rules=rules).odds(statement).result
    except CruxError:
        return None
    chances: dict[str, Fraction] = dict(getattr(odds, "outcomes", None) or {})
    if not chances:
        return None
    rolled = sum(counts.values())
    # likeliest first; outcomes as likely as each other in the odds' order (a set's order changed from run to run)
    names = sorted(dict.fromkeys([*chances, *sorted(counts)]), key=lambda name: -float(chances.get(name, 0)))
    observed = [counts.get(name, 0) for name in names]
    expected = [float(chances.get(name, 0)) * rolled for name in names]
    statistic, df, p = chi_square(observed, expected)
    return {"statement": statement, "rules": rules, "rolled": rolled,
            "counts": {name: counts.get(name, 0) for name in names},
            "expected": {name: round(e, 2) for name, e in zip(names, expected, strict=True)},
            "chi_square": round(statistic, 4), "df": df, "p": p}


def judged(rows: list[dict[str, Any]], verdict: str) -> None:
    """Each row's Holm-adjusted p-value (`p_holm`, over every test of the report) and its verdict: `verdict`
    true or false, or None (and `too_few` true) when there were too few rolls to test."""
    tested = [row for row in rows if row["p"] is not None]
    for row, adjusted in zip(tested, holm([row["p"] for row in tested]), strict=True):
        row["p_holm"], row[verdict], row["too_few"] = adjusted, adjusted >= FLAG_BELOW, False
    for row in rows:
        if row["p"] is None:
            row["p_holm"], row[verdict], row["too_few"] = None, None, True


def report(counted: Tally) -> dict[str, Any]:
    faces = [face_report(sides, counts) for sides, counts in sorted(counted.faces.items()) if sides > 1]
    common = sorted(counted.outcomes.items(), key=lambda item: -sum(item[1].values()))[:MOST_STATEMENTS]
    outcomes = [r for (rules, statement), counts in common if (r := outcome_report(rules, statement, counts))]
    rows = [*faces, *outcomes]
    judged(rows, "fair")  # one family: the faces and the outcomes together
    for row in outcomes:
        row["as_expected"] = row.pop("fair")
    return {"kind": "stats", "rolls": counted.rolls, "plain": counted.plain,
            "kept_whole": counted.rolls - counted.plain, "left_out": dict(sorted(counted.left_out.items())),
            "outcomes_of": min(counted.plain, OUTCOMES_FROM), "tests": sum(row["p"] is not None for row in rows),
            "faces": faces, "outcomes": outcomes}


def head_lines(stats: dict[str, Any]) -> Iterator[str]:
    """What was counted, and what was not."""
    whole = stats["kept_whole"]
    parts = [f"{stats['plain']:,} plain"] + ([f"{whole:,} with a sheet or a hero or in a fight"] if whole else [])
    yield f"{stats['rolls']:,} rolls counted ({', '.join(parts)})"
    left = stats["left_out"]
    if left:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in left.items())
        yield f"  left out: {plural(sum(left.values()))} whose dice the journal does not show ({kinds})"
    if whole:
        yield "  the faces of every roll counted; the outcomes of plain rolls only (a hero or a fight changes the odds)"


def text_lines(stats: dict[str, Any]) -> Iterator[str]:
    if not stats["rolls"]:
        left = stats.get("left_out")
        yield "no rolls to count" + (f" (left out: {plural(sum(left.values()))} whose dice the journal does not "
                                     "show)" if left else "")
        return
    yield from head_lines(stats)
    if stats["tests"] > 1:
        yield (f"  {stats['tests']} tests at once: each p-value adjusted for them (Holm); "
               f"flagged when the adjusted one is under {FLAG_BELOW:g}")
    yield f"faces, against fair dice (too few to tell under {MIN_EXPECTED} of each face expected):"
    for face in stats["faces"]:
        verdict = "too few to tell" if face["too_few"] else "fair" if face["fair"] else "NOT what fair dice give"
        counts = " ".join(f"{k}:{v}" for k, v in face["counts"].items()) if len(face["counts"]) <= 12 else \
            f"{len(face['counts'])} faces"
        yield (f"  {face['die']:>6}  {face['rolled']:>9,} rolled  {tested(face)}  {verdict}  [{counts}]")
    if stats["outcomes"]:
        newest = "" if stats["outcomes_of"] == stats["plain"] else f" (the newest {stats['outcomes_of']:,} rolls)"
        yield f"outcomes, against the exact odds{newest}:"
    for row in stats["outcomes"]:
        verdict = "too few to tell" if row["too_few"] else "as expected" if row["as_expected"] else \
            "NOT as the odds say"
        shown = ", ".join(f"{name} {count} (expected {row['expected'][name]:g})"
                          for name, count in row["counts"].items())
        yield f"  {row['statement']}  [{row['rules']}]  {row['rolled']:,} rolled  {tested(row)}  {verdict}"
        yield f"    {shown}"


def tested(row: dict[str, Any]) -> str:
    """The test's figures: χ², its degrees of freedom, the p-value and Holm's (nothing when too few)."""
    if row["p"] is None:
        return "χ² —"
    adjusted = "" if row["p_holm"] == row["p"] else f" (Holm {row['p_holm']:.3g})"
    return f"χ² {row['chi_square']:.2f} (df {row['df']})  p {row['p']:.3g}{adjusted}"


def plural(count: int) -> str:
    return f"{count:,} roll" + ("" if count == 1 else "s")
