"""Startup benchmark (run on demand): every one-shot path against importing click and pyparsing.

    python tests/bench/bench_startup.py [--runs 7] [--instructions] [--only TEXT]

The paths are every statement form of every rule set, read from the grammar corpus (grammar/examples.txt:
each line that is not a refusal, run with its `--rules`, on the bench's own sheet where it needs one), the
same lines as `crux odds` where odds take them, and the command-line forms (`--json`, `--no-journal`,
`--seed`, `--sheet`, unquoted words, a random table), so that no form is left out by choice.

Each path runs alternately with `python -c 'import click, pyparsing'`, so machine noise hits both; the
cost is the CPU time of the child (user + system, steadier than wall time on a shared machine) and the
figure is the median of the per-pair ratios, as the acceptance run measures it. `--instructions` counts
the instructions of one run of each instead (valgrind's cachegrind, `--cache-sim=no`), the same on a
loaded machine as on a quiet one. Goal (issue 38): at most 0.5 on every path; `python -c pass` is about
0.24 in instructions.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import bench_environment, crux_command

GOAL = 0.5
ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "grammar" / "examples.txt"
FLOOR = [sys.executable, "-c", "import click, pyparsing"]


def cpu_seconds(command: list[str], env: dict[str, str], cwd: str | None = None) -> float:
    """The CPU time of one run. A statement that changes the sheet may be refused in some runs (`heal 4` on a
    hero at full HP): it is timed all the same (`paths` keeps only commands that were answered once)."""
    return run(command, env, cwd)[1]


def run(command: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, float]:
    """(exit status, CPU seconds) of one run of `command`."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    return status, usage.ru_utime + usage.ru_stime


def instructions(command: list[str], env: dict[str, str], cwd: str | None = None) -> int:
    """The instructions one run of `command` executes (valgrind's cachegrind, no cache simulation)."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count for {' '.join(command)}")
    return int(found.group(1).replace(",", ""))


def corpus() -> list[tuple[str, str]]:
    """(rule set, statement) of every line of the corpus that is not a refusal."""
    lines, rules = [], "crux"
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            rules = line[1:-1].strip()
            continue
        statement, _, expected = line.partition(" => ")
        if not expected.startswith("error:"):
            lines.append((rules, statement.strip()))
    return lines


def paths(crux: list[str], sheet: str, env: dict[str, str], cwd: str) -> dict[str, list[str]]:
    """Every path: the corpus's statements (on the sheet where one is needed), their odds, and the forms."""
    cases: dict[str, list[str]] = {}
    for rules, statement in corpus():
        rule_words = ["--rules", rules] if rules != "crux" else []
        for odds in ([], ["odds"]):
            command = [*crux, *rule_words, *odds, statement]
            if run(command, env, cwd)[0] != 0:  # a statement that needs a sheet
                command = [*crux, *rule_words, "--sheet", sheet, *odds, statement]
                if run(command, env, cwd)[0] != 0:
                    continue  # odds of a sheet statement: there are none
            cases[" ".join(["crux", *rule_words, *odds, repr(statement)]).replace(sheet, "hero.toml")] = command
    forms = {"crux --json 4d6kh3": ["--json", "4d6kh3"], "crux --no-journal d20": ["--no-journal", "d20"],
             "crux --seed 3 'DEX +2b'": ["--seed", "3", "DEX +2b"],
             "crux DEX +2b -1B (unquoted)": ["DEX", "+2b", "-1B"],
             "crux --sheet hero.toml 'DEX +1b'": ["--sheet", sheet, "DEX +1b"], "crux table loot": ["table", "loot"],
             "crux --json odds '1d20+5 vs 15'": ["--json", "odds", "1d20+5 vs 15"]}
    cases.update({name: [*crux, *words] for name, words in forms.items()})
    return cases


def measure(name: str, command: list[str], env: dict[str, str], cwd: str, args: argparse.Namespace,
            floor: int) -> float:
    if args.instructions:
        own = instructions(command, env, cwd)
        ratio = own / floor
        print(f"{name:58} {own / 1e6:7.1f} M vs {floor / 1e6:7.1f} M instructions  ratio {ratio:.2f}", flush=True)
        return ratio
    ratios, own_times, base = [], [], []
    for _ in range(args.runs):
        own_times.append(cpu_seconds(command, env, cwd))
        base.append(cpu_seconds(FLOOR, env))
        ratios.append(own_times[-1] / base[-1])
    ratio = statistics.median(ratios)
    print(f"{name:58} {statistics.median(own_times) * 1000:6.1f} ms vs {statistics.median(base) * 1000:6.1f} ms"
          f"  ratio {ratio:.2f}", flush=True)
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of CPU")
    parser.add_argument("--only", default="", help="only the paths whose name holds this text")
    args = parser.parse_args()
    with bench_environment(NO_COLOR="1") as env, tempfile.TemporaryDirectory() as folder:
        sheet = os.path.join(folder, "hero.toml")
        subprocess.run([*crux_command(), "sheet", "new", sheet, "--name", "Wren", "--no-ask"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        shutil.copytree(ROOT / "grammar" / "tables", os.path.join(folder, "tables"))  # `table loot` finds it here
        cases = {name: command for name, command in paths(crux_command(), sheet, env, folder).items()
                 if args.only in name}
        for command in [FLOOR, *cases.values()]:  # warm the file cache and the bytecode
            cpu_seconds(command, env, folder)
        floor = instructions(FLOOR, env) if args.instructions else 0
        if args.instructions:
            print(f"{'python -c pass':58} {instructions([sys.executable, '-c', 'pass'], env) / floor:.2f}")
        ratios = {name: measure(name, command, env, folder, args, floor) for name, command in cases.items()}
    worst = max(ratios, key=ratios.__getitem__)
    print(f"{len(ratios)} paths; median ratio {statistics.median(ratios.values()):.2f}; "
          f"worst {ratios[worst]:.2f} ({worst})  (goal <= {GOAL})")
    return 0 if ratios[worst] <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
