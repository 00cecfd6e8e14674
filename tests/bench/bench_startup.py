"""Startup benchmark (run on demand): every one-shot path against importing click and pyparsing.

    python tests/bench/bench_startup.py [--runs 15]

Each path runs alternately with `python -c 'import click, pyparsing'`, so machine noise
hits both; the cost is the CPU time of the child (user + system, steadier than wall time
on a shared machine) and the figure is the median of the per-pair ratios, as
the acceptance run measures it. Goal (issue 27): at most 0.6 on every path; `python -c pass` is about
0.13 and a journaled roll's floor about 0.35. The sheet path rolls on a new sheet of the bench's own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import bench_environment, crux_command

GOAL = 0.6


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return usage.ru_utime + usage.ru_stime


def paths(crux: list[str], sheet: str) -> dict[str, list[str]]:
    return {"crux 'DEX +2b'": [*crux, "DEX +2b"],
            "crux 4d6kh3": [*crux, "4d6kh3"],
            "crux 'atk 2d8+3 heavy'": [*crux, "atk 2d8+3 heavy"],
            "crux --json 4d6kh3": [*crux, "--json", "4d6kh3"],
            "crux odds 4d6kh3": [*crux, "odds", "4d6kh3"],
            "crux --rules stepdice 'save d8'": [*crux, "--rules", "stepdice", "save d8"],
            "crux --rules d20check 'check 5 trained'": [*crux, "--rules", "d20check", "check 5 trained"],
            "crux --rules challenge 'action 2 adv'": [*crux, "--rules", "challenge", "action 2 adv"],
            "crux --sheet hero.toml 'DEX +1b'": [*crux, "--sheet", sheet, "DEX +1b"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with bench_environment(NO_COLOR="1") as env, tempfile.TemporaryDirectory() as folder:
        sheet = os.path.join(folder, "hero.toml")
        subprocess.run([*crux_command(), "sheet", "new", sheet, "--name", "Wren", "--no-ask"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        floor = [sys.executable, "-c", "import click, pyparsing"]
        cases = paths(crux_command(), sheet)
        for command in [floor, *cases.values()]:  # warm the file cache and the bytecode
            cpu_seconds(command, env)
        worst = 0.0
        for name, command in cases.items():
            ratios, own, base = [], [], []
            for _ in range(args.runs):
                own.append(cpu_seconds(command, env))
                base.append(cpu_seconds(floor, env))
                ratios.append(own[-1] / base[-1])
            ratio = statistics.median(ratios)
            worst = max(worst, ratio)
            print(f"{name:42} {statistics.median(own) * 1000:6.1f} ms vs {statistics.median(base) * 1000:6.1f} ms"
                  f"  ratio {ratio:.2f}")
    print(f"{'worst ratio':42} {worst:.2f}  (goal <= {GOAL})")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
