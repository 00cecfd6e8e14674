"""`crux log --stats` over all history at a constant cost (issue 38: 0.2 s at 5,000,000 entries).

The faces are summed a block of BLOCK row numbers at a time, and each full block's sums are kept in the store
(state.history `keep_sums`, meta `tally:ROW`): a later `--stats` reads the sums kept and only the rows written since
(the newest block), so the first one after a long history reads it all once and the next ones do not. The outcomes
are the newest plain rolls' (OUTCOMES_FROM of them), read through their own index; each long run among them keeps
the counts of its outcomes (meta `outcome:ROW`), so a later `--stats` neither parses those rows nor rolls them
again. A trim that drops or changes rows forgets the sums of their blocks and runs (state.retention). The same
report as counting every row afresh (tests/test_log_stats_blocks.py).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from crux_cli.core import collector
from crux_cli.running.stats import OUTCOMES_FROM, Tally, tally
from crux_cli.state.history import block_rolls, keep_sums, plain_rows, rolls_of, row_body, tally_blocks

if TYPE_CHECKING:
    from crux_cli.state.db import Store

BLOCK, PART = 8192, 1024  # row numbers a block, and a part of the newest block: only its newest part is read


def tally_all(store: Store) -> Tally:
    """The faces of every roll kept (from the blocks' sums kept and the rows since) and the outcomes of the newest
    plain ones. The newest block, still filling, is summed a part of PART rows at a time, the full parts kept
    too (`tally:ROW/PART`): a later report reads fewer than PART rows, and a block once full is summed from its
    parts."""
    top, trimmed, kept = tally_blocks(store)
    counted = Tally(outcomes=False)
    new: dict[str, tuple[int, str]] = {}
    for start in range(1, top + 1, BLOCK):
        if start + BLOCK > top + 1:  # the newest block, still filling
            for part_start in range(start, top + 1, PART):
                if part_start + PART > top + 1:  # its newest part: read, never kept
                    tally(block_rolls(store, part_start, part_start + PART), counted)
                    break
                add(counted, summed(store, kept, new, f"{part_start:012d}/{PART}", part_start, PART))
            break
        add(counted, summed(store, kept, new, f"{start:012d}", start, BLOCK))
    keep_sums(store, {f"tally:{key}": value for key, value in new.items()}, trimmed)
    counted.outcomes = newest_outcomes(store, trimmed).outcomes
    return counted


def summed(store: Store, kept: dict[str, str], new: dict[str, tuple[int, str]], key: str, start: int,
           size: int) -> Tally:
    """The sums of the rows from `start` on (`size` of them): as kept, else (a block) from its parts, each as kept
    or read, else read; put in `new`, to be kept."""
    part = loaded(kept.get(key))
    if part is not None:
        return part
    part = Tally(outcomes=False)
    if size == BLOCK:
        for at in range(start, start + size, PART):
            add(part, loaded(kept.get(f"{at:012d}/{PART}")) or tally(block_rolls(store, at, at + PART),
                                                                         Tally(outcomes=False)))
    else:
        tally(block_rolls(store, start, start + size), part)
    new[key] = (start, dumped(part))
    return part


RUN_KEEPS_FROM = 64  # a run of at least these many rolls keeps the counts of its outcomes (meta `outcome:ROW`)


def newest_outcomes(store: Store, trimmed: int) -> Tally:
    """The outcomes of the newest plain rolls (OUTCOMES_FROM of them), as `Tally.add_run` counts them row after row,
    newest row first; a long run's counts read from `meta` where they were kept (`outcome:` and its row), else
    counted from its row and kept, so a later report rolls nothing again nor parses its rows."""
    newest = Tally()
    new: dict[str, tuple[int, str]] = {}
    with collector.paused():
        for seq, ident, count, kept, body in plain_rows(store):
            part = outcomes_loaded(kept, ident, count)
            if part is None and count >= RUN_KEEPS_FROM:
                part = run_outcomes(store, seq, body, newest)
                new[f"outcome:{seq:012d}"] = (seq, outcomes_dumped(part, ident, count))
            if part is not None and part.asked <= OUTCOMES_FROM - newest.plain:
                newest.plain += part.plain  # the whole run within the window: what add_run would add
                newest.asked += part.asked
                for key, counts in part.outcomes.items():
                    newest.outcomes.setdefault(key, Counter()).update(counts)
            else:
                for rules, seed, statements, items in rolls_of([(count, body or row_body(store, seq))]):
                    if statements is not None:
                        newest.add_run(rules, seed, statements, items)
            if newest.plain >= OUTCOMES_FROM:
                break
    keep_sums(store, new, trimmed)
    return newest


def run_outcomes(store: Store, seq: int, body: str | None, newest: Tally) -> Tally:
    """A run's outcomes counted whole (the window's rolling again shared: `newest`'s runners and memo)."""
    part = Tally()
    part.memo, part.runners = newest.memo, newest.runners
    for rules, seed, statements, items in rolls_of([(1 << 30, body or row_body(store, seq))]):
        if statements is not None:
            part.add_run(rules, seed, statements, items)
    return part


def outcomes_dumped(part: Tally, ident: str, count: int) -> str:
    outcomes = [[rules, statement, outcome, times] for (rules, statement), counts in part.outcomes.items()
                for outcome, times in counts.items()]
    return json.dumps({"id": ident, "count": count, "plain": part.plain, "asked": part.asked,
                       "outcomes": outcomes}, separators=(",", ":"))


def outcomes_loaded(text: str | None, ident: str, count: int) -> Tally | None:
    """A run's outcomes as kept (None: not kept, kept of another row, or not in the shape written)."""
    if text is None:
        return None
    try:
        data = json.loads(text)
        if data["id"] != ident or data["count"] != count:
            return None
        part = Tally()
        part.plain, part.asked = int(data["plain"]), int(data["asked"])
        for rules, statement, outcome, times in data["outcomes"]:
            part.outcomes.setdefault((str(rules), str(statement)), Counter())[str(outcome)] += int(times)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return part


def dumped(part: Tally) -> str:
    return json.dumps({"faces": part.faces, "rolls": part.rolls, "plain": part.plain, "left_out": part.left_out},
                      separators=(",", ":"))


def loaded(text: str | None) -> Tally | None:
    """A block's sums as kept (None: not kept, or not in the shape written)."""
    if text is None:
        return None
    try:
        data = json.loads(text)
        part = Tally(outcomes=False)
        part.faces = {int(sides): [int(n) for n in counts] for sides, counts in data["faces"].items()}
        part.rolls, part.plain = int(data["rolls"]), int(data["plain"])
        part.left_out = Counter({str(kind): int(n) for kind, n in data["left_out"].items()})
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return part


def add(counted: Tally, part: Tally) -> None:
    """Add a block's sums to the tally."""
    for sides, counts in part.faces.items():
        mine = counted.faces.setdefault(sides, [0] * len(counts))
        if len(mine) < len(counts):
            mine.extend([0] * (len(counts) - len(mine)))
        for face, number in enumerate(counts):
            mine[face] += number
    counted.rolls += part.rolls
    counted.plain += part.plain
    counted.left_out.update(part.left_out)
