"""The cyclic garbage collector paused around work that makes many objects and no garbage of cycles.

One home for the pattern (issue 38's start-up and `crux log --stats` work): pause the collector, do
the work, and start it again only if it ran before (a program that turned it off keeps it off). With
`freeze`, what was made meanwhile (modules, classes, a session's layout) lives as long as the process,
so it is frozen out of every later collection, the one at exit included (PERFORMANCE.md).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused(*, freeze: bool = False) -> Iterator[None]:
    """The collector paused for the block; with `freeze`, what the block made is frozen after it."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()
