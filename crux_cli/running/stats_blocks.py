"""`crux log --stats` over all history at a constant cost (issue 38: 0.2 s at 5,000,000 entries).

The faces are summed a block of BLOCK row numbers at a time, and each full block's sums are kept in the store
(state.history `keep_tally_blocks`): a later `--stats` reads the sums kept and only the rows written since (the
newest block), so the first one after a long history reads it all once and the next ones do not. A trim that
drops or changes rows forgets the sums of their blocks (state.retention). The outcomes are the newest plain
rolls' (OUTCOMES_FROM of them), read through their own index. The same report as counting every row afresh
(tests/test_log_stats_blocks.py).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from crux_cli.running.stats import OUTCOMES_FROM, Tally, collector_paused, tally
from crux_cli.state.history import block_rolls, keep_tally_blocks, newest_plain_rolls, tally_blocks

if TYPE_CHECKING:
    from crux_cli.state.db import Store

BLOCK = 8192  # row numbers a block: the newest, unfinished one is read at every `--stats`


def tally_all(store: Store) -> Tally:
    """The faces of every roll kept (from the blocks' sums kept and the rows since) and the outcomes of the newest
    plain ones."""
    top, trimmed, kept = tally_blocks(store)
    counted = Tally(outcomes=False)
    new: dict[int, str] = {}
    for start in range(1, top + 1, BLOCK):
        if start + BLOCK > top + 1:  # the newest block, still filling: read, never kept
            tally(block_rolls(store, start, start + BLOCK), counted)
            break
        part = loaded(kept.get(start))
        if part is None:
            part = tally(block_rolls(store, start, start + BLOCK), Tally(outcomes=False))
            new[start] = dumped(part)
        add(counted, part)
    keep_tally_blocks(store, new, trimmed)
    newest = Tally()
    with collector_paused():
        for rules, seed, statements, items in newest_plain_rolls(store):
            if statements is not None:
                newest.add_run(rules, seed, statements, items)
                if newest.plain >= OUTCOMES_FROM:
                    break
    counted.outcomes = newest.outcomes
    return counted


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
