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
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import Ratio, bench_environment, crux_command, instructions, ratio_of

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


# `--quick`'s sample of the corpus: a statement of each kind the issue named off the fast path, in each rule set
QUICK = {("crux", "DEX +2b -1B grit"), ("crux", "atk 2d8+3 heavy rushed"), ("crux", "damage 9"), ("crux", "4d6kh3"),
         ("crux", "1d20+5 vs 15"), ("crux", "1d20+3 vs 1d20+5"), ("crux", "(2d6 + 3) [fire] + 1d4 [cold]"),
         ("crux", "{1d8, 1d10}kh1"), ("crux", "max(1d20, 1d20) + 5"), ("stepdice", "step d8 down 2"),
         ("stepdice", "attack d6 d8 armor 1 grit 3 str d8"), ("stepdice", "death"), ("d20check", "dmg d8+2 immune"),
         ("challenge", "action 2 adv major")}


def paths(crux: list[str], sheet: str, env: dict[str, str], cwd: str, quick: bool = False) -> dict[str, list[str]]:
    """Every path: the corpus's statements (on the sheet where one is needed), their odds, and the forms;
    `quick`, the corpus's lines in QUICK alone."""
    cases: dict[str, list[str]] = {}
    for rules, statement in corpus():
        if quick and (rules, statement) not in QUICK:
            continue
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


@contextmanager
def setting() -> Iterator[tuple[dict[str, str], str, str]]:
    """(environment, folder, sheet): the bench's folders, a new sheet, the tables `table loot` finds."""
    with bench_environment(NO_COLOR="1") as env, tempfile.TemporaryDirectory() as folder:
        sheet = os.path.join(folder, "hero.toml")
        subprocess.run([*crux_command(), "sheet", "new", sheet, "--name", "Wren", "--no-ask"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        shutil.copytree(ROOT / "grammar" / "tables", os.path.join(folder, "tables"))
        yield env, folder, sheet


def fit(quick: bool) -> list[Ratio]:
    """Every one-shot path in instructions against `import click, pyparsing`: the worst and the median (every
    path is a detail, under bench_fit.py --json); `quick`, the sample QUICK of the corpus and the forms."""
    with setting() as (env, folder, sheet):
        cases = paths(crux_command(), sheet, env, folder, quick)
        for command in [FLOOR, *cases.values()]:  # warm the file cache and the bytecode
            cpu_seconds(command, env, folder)
        floor = instructions(FLOOR, env) / 1e6
        counts = {}
        for name, command in cases.items():
            counts[name] = instructions(command, env, folder) / 1e6
            print(f"{name:58} {counts[name]:7.1f} M vs {floor:7.1f} M instructions", flush=True)
    anchor, unit, size = "python -c 'import click, pyparsing'", "M instructions", "sampled" if quick else "every"
    worst = max(counts, key=counts.__getitem__)
    median = statistics.median(counts.values())
    return [ratio_of(f"worst of {len(counts)} one-shot paths ({size}): {worst}", counts[worst], anchor, floor, unit,
                     GOAL, True),
            ratio_of(f"median of {len(counts)} one-shot paths ({size})", median, anchor, floor, unit, GOAL, True),
            *(ratio_of(name, count, anchor, floor, unit, GOAL, True, detail=True) for name, count in counts.items())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of CPU")
    parser.add_argument("--only", default="", help="only the paths whose name holds this text")
    parser.add_argument("--quick", action="store_true", help="a sample of the corpus (QUICK) and the forms")
    args = parser.parse_args()
    with setting() as (env, folder, sheet):
        cases = {name: command for name, command in paths(crux_command(), sheet, env, folder, args.quick).items()
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
