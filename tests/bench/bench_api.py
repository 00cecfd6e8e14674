"""Benchmark, run on demand (pytest does not collect it): the library call against Avrae's `d20.roll`.

    python tests/bench/bench_api.py [--calls N] [--rounds R]

In one process, rounds alternate `crux_cli.roll(TEXT)` and `d20.roll(TEXT)` on the same dice (CPU time
per call, the median of the rounds). Goals (issue 27): `crux_cli.roll('4d6kh3')` at most 0.7x the
time of `d20.roll('4d6kh3')`; reading a field of the result (`.total`, then `.kind` and `.dice`-like
fields again) costs no JSON after the first: the tenth read at most 0.05x a call. A reused `Session`
is shown alongside, and a seeded call (a new `Random(seed)`, as the seed asks).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import compile_crux

TEXT = "4d6kh3"
GOAL = 0.7
READ_GOAL = 0.05


def per_call(function: Callable[[], object], calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        function()
    return (time.process_time() - started) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    compile_crux()
    import d20

    import crux_cli

    session = crux_cli.Session()
    result = crux_cli.roll(TEXT)
    cases: dict[str, Callable[[], object]] = {
        f"crux_cli.roll({TEXT!r})": lambda: crux_cli.roll(TEXT),
        f"d20.roll({TEXT!r})": lambda: d20.roll(TEXT),
        f"Session().roll({TEXT!r}), reused": lambda: session.roll(TEXT),
        f"crux_cli.roll({TEXT!r}, seed=1)": lambda: crux_cli.roll(TEXT, seed=1),
        "crux_cli.roll(...).total (a new result, one read)": lambda: crux_cli.roll(TEXT).total,
        "result.total (a read of a result read before)": lambda: result.total,
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(options.rounds):
        for name, function in cases.items():
            times[name].append(per_call(function, options.calls))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        print(f"  {name:52} {value * 1e6:8.2f} µs CPU a call")
    names = list(cases)
    ratio = median[names[0]] / median[names[1]]
    read = median[names[5]] / median[names[0]]
    met = [ratio <= GOAL, read <= READ_GOAL]
    print(f"crux_cli.roll / d20.roll: {ratio:.2f}x, goal at most {GOAL}x: {'met' if met[0] else 'NOT met'}")
    print(f"a field read again / a call: {read:.3f}x, goal at most {READ_GOAL}x: {'met' if met[1] else 'NOT met'}")
    return 0 if all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
