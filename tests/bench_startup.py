"""Startup benchmark (run on demand): `crux 'DEX +2b'` against importing click and pyparsing.

    python tests/bench_startup.py [--runs 21]

Both commands run alternately in the same environment, so machine noise hits both; the
figure is the median of the per-pair ratios. Goal (issue 2): at most 1.25.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    crux = Path(sys.executable).parent / "crux"
    env = dict(os.environ, NO_COLOR="1")
    cases = {"crux 'DEX +2b'": [str(crux), "DEX +2b"],
             "python -c 'import click, pyparsing'": [sys.executable, "-c", "import click, pyparsing"]}
    for command in cases.values():  # warm the file cache
        timed(command, env)
    times: dict[str, list[float]] = {name: [] for name in cases}
    ratios = []
    for _ in range(args.runs):
        pair = {name: timed(command, env) for name, command in cases.items()}
        for name, seconds in pair.items():
            times[name].append(seconds)
        ratios.append(pair["crux 'DEX +2b'"] / pair["python -c 'import click, pyparsing'"])
    for name, values in times.items():
        print(f"{name:40} median {statistics.median(values) * 1000:6.1f} ms")
    print(f"{'ratio (median of pairs)':40} {statistics.median(ratios):.2f}  (goal <= 1.25)")


if __name__ == "__main__":
    main()
