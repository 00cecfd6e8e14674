"""Benchmark, run on demand (pytest does not collect it): the library call against Avrae's `d20.roll`.

    python tests/bench/bench_api.py [--calls N] [--rounds R]

In one process, rounds alternate `crux_cli.roll(TEXT)` and `d20.roll(TEXT)` on the same dice (CPU time
per call, the median of the rounds). Goals: `crux_cli.roll('4d6kh3')` at most 0.8x the time of
`d20.roll('4d6kh3')` (0.7x in issue 27; 0.8x since issue 35's verifiable dice, which cost 4 %); reading
a field of the result (`.total`, then `.kind` and `.dice`-like fields again) costs no JSON after the
first: the tenth read at most 0.05x a call. A reused `Session`
is shown alongside, and a seeded call (a new `Random(seed)`, as the seed asks).

`fit(quick)` (bench_fit.py) counts instead of timing: the instructions a call costs, each side (valgrind's
cachegrind), as the difference between a process making N calls and one making 3N (imports cancel out).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import Ratio, bench_environment, compile_crux, instructions, ratio_of

TEXT = "4d6kh3"
GOAL = 0.8
READ_GOAL = 0.05


def per_call(function: Callable[[], object], calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        function()
    return (time.process_time() - started) / calls


# N calls of one side in a process that imports both, so that N and 3N differ by the calls alone
CALLS = "import sys, crux_cli, d20\nroll = {call}\nfor _ in range(int(sys.argv[1])):\n    roll({text!r})\n"


def instructions_a_call(call: str, calls: int, env: dict[str, str]) -> float:
    script = CALLS.format(call=call, text=TEXT)
    few, more = (instructions([sys.executable, "-c", script, str(count)], env) for count in (calls, 3 * calls))
    return (more - few) / (2 * calls)


def fit(quick: bool) -> list[Ratio]:
    """`crux_cli.roll('4d6kh3')` against `d20.roll('4d6kh3')`, in instructions a call (valgrind)."""
    calls = 300 if quick else 2000
    with bench_environment() as env:
        ours, theirs = (instructions_a_call(call, calls, env) for call in ("crux_cli.roll", "d20.roll"))
    print(f"crux_cli.roll {ours:,.0f}, d20.roll {theirs:,.0f} instructions a call", flush=True)
    return [ratio_of(f"crux_cli.roll({TEXT!r}) ({calls} and {3 * calls} calls)", ours, f"d20.roll({TEXT!r})",
                     theirs, "instructions/call", GOAL, True)]


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
