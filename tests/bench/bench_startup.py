"""Startup benchmark (run on demand): every one-shot path against importing click and pyparsing.

    python tests/bench/bench_startup.py [--runs 7] [--instructions [--by-imports]] [--only TEXT]

The paths are every statement form of every rule set, read from the grammar corpus (grammar/examples.txt:
each line that is not a refusal, run with its `--rules`, on the bench's own sheet where it needs one), the
same lines as `crux odds` where odds take them, and the command-line forms (`--json`, `--no-journal`,
`--seed`, `--sheet`, unquoted words, a random table), so that no form is left out by choice.

Each path runs alternately with `python -c 'import click, pyparsing'`, so machine noise hits both; the
cost is the CPU time of the child (user + system, steadier than wall time on a shared machine) and the
figure is the median of the per-pair ratios, as the acceptance run measures it. `--instructions` counts
the instructions of one run of each instead (valgrind's cachegrind, `--cache-sim=no`), the same on a
loaded machine as on a quiet one, but under valgrind each run takes some 8 s of CPU, so the ~270 paths take
an hour or more: `--by-imports` counts one path for each set of modules the paths import (every path is run
and its imports read with -X importtime; the longest statement of a set is counted), which is what
`bench_fit.py --quick` does. Goal (issue 38): at most 0.5 on every path, and no path imports pyparsing,
click or prompt_toolkit; `python -c pass` is about 0.24 in instructions. `fit(quick)` (bench_fit.py) gives
the worst and the median path, each path as a detail (under `bench_fit.py --json`), and a figure not met for
each path importing one of those three; quick counts by import set, as `--by-imports` does.
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

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/: the corpus's reader
sys.path.insert(0, str(Path(__file__).parent))
from benchkit import Ratio, bench_environment, crux_command, instructions, ratio_of

GOAL = 0.5
ROOT = Path(__file__).resolve().parent.parent.parent
FLOOR = [sys.executable, "-c", "import click, pyparsing"]


def cpu_seconds(command: list[str], env: dict[str, str], cwd: str | None = None) -> float:
    """The CPU time of one run. A statement that changes the sheet may be refused in some runs (`heal 4` on a
    hero at full HP): it is timed all the same (`paths` keeps only commands that were answered once)."""
    return run(command, env, cwd)[1]


def imported(command: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, frozenset[str]]:
    """(exit status, the modules imported) of one run of `command` (Python's -X importtime, read from stderr)."""
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
                          env={**env, "PYTHONPROFILEIMPORTTIME": "1"})
    names = (line.rpartition("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:"))
    return done.returncode, frozenset(names) - {"imported package"}


def run(command: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, float]:
    """(exit status, CPU seconds) of one run of `command`."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    return status, usage.ru_utime + usage.ru_stime


def corpus() -> list[tuple[str, str]]:
    """(rule set, statement) of every line of the corpus that is not a refusal, read as its test reads it."""
    from test_grammar_corpus import corpus as examples

    return [(rules, statement) for rules, statement, expected, _ in examples() if not expected.startswith("error:")]


Case = tuple[list[str], frozenset[str]]  # a path's command and the modules it imports


def paths(crux: list[str], sheet: str, env: dict[str, str], cwd: str) -> dict[str, Case]:
    """Every path: the corpus's statements (on the sheet where one is needed), their odds, and the forms,
    each with the modules it imports (read as it is tried, which warms the file cache and the bytecode)."""
    cases: dict[str, Case] = {}
    for rules, statement in corpus():
        rule_words = ["--rules", rules] if rules != "crux" else []
        for odds in ([], ["odds"]):
            command = [*crux, *rule_words, *odds, statement]
            status, modules = imported(command, env, cwd)
            if status != 0:  # a statement that needs a sheet
                command = [*crux, *rule_words, "--sheet", sheet, *odds, statement]
                status, modules = imported(command, env, cwd)
                if status != 0:
                    continue  # odds of a sheet statement: there are none
            on_sheet = ["--sheet", "hero.toml"] if sheet in command else []
            cases[" ".join(["crux", *rule_words, *on_sheet, *odds, repr(statement)])] = command, modules
    forms = {"crux --json 4d6kh3": ["--json", "4d6kh3"], "crux --no-journal d20": ["--no-journal", "d20"],
             "crux --seed 3 'DEX +2b'": ["--seed", "3", "DEX +2b"],
             "crux DEX +2b -1B (unquoted)": ["DEX", "+2b", "-1B"],
             "crux --sheet hero.toml 'DEX +1b'": ["--sheet", sheet, "DEX +1b"], "crux table loot": ["table", "loot"],
             "crux --json odds '1d20+5 vs 15'": ["--json", "odds", "1d20+5 vs 15"]}
    for name, words in forms.items():
        cases[name] = [*crux, *words], imported([*crux, *words], env, cwd)[1]
    return cases


def by_imports(cases: dict[str, Case]) -> dict[str, tuple[list[str], list[str]]]:
    """One path for each set of modules imported, the one with the longest statement (the most to read and
    answer): {its name: (its command, the names of the paths importing the same)}. Within a set, counts differ
    by the statement's own work alone (the DEX forms of the corpus: 187-192 M, the same forms' odds 156-161 M)."""
    groups: dict[frozenset[str], list[str]] = {}
    for name, (_, modules) in cases.items():
        groups.setdefault(modules, []).append(name)
    return {max(names, key=len): (cases[max(names, key=len)][0], names) for names in groups.values()}


def heavy(cases: dict[str, Case]) -> list[str]:
    """The paths that import what the one-shot path must not: pyparsing, click, prompt_toolkit."""
    return [name for name, (_, modules) in cases.items() if modules & {"pyparsing", "click", "prompt_toolkit"}]


def timed(name: str, command: list[str], env: dict[str, str], cwd: str, runs: int) -> float:
    """The median of `runs` ratios of CPU time, each run beside one of the anchor's."""
    ratios, own_times, base = [], [], []
    for _ in range(runs):
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


def counted(cases: dict[str, Case], env: dict[str, str], cwd: str, by_set: bool) -> tuple[float, dict[str, float]]:
    """The anchor's instructions and each path's, in millions; `by_set`, one path for each set of modules."""
    floor = instructions(FLOOR, env) / 1e6
    print(f"{'python -c pass':58} {instructions([sys.executable, '-c', 'pass'], env) / 1e6 / floor:.2f}x", flush=True)
    chosen = by_imports(cases) if by_set else {name: (command, [name]) for name, (command, _) in cases.items()}
    counts = {}
    for name, (command, alike) in chosen.items():
        counts[name] = instructions(command, env, cwd) / 1e6
        also = f"  (and {len(alike) - 1} paths importing the same)" if len(alike) > 1 else ""
        print(f"{name:58} {counts[name]:7.1f} M vs {floor:7.1f} M instructions  ratio {counts[name] / floor:.2f}{also}",
              flush=True)
    return floor, counts


def fit(quick: bool) -> list[Ratio]:
    """Every one-shot path in instructions against `import click, pyparsing`: the worst and the median (each
    path a detail, under bench_fit.py --json). `quick`: every path is run and its imports read, and one path a
    set of modules imported is counted (the longest statement); a path importing pyparsing, click or
    prompt_toolkit is a figure of its own, not met."""
    with setting() as (env, folder, sheet):
        cases = paths(crux_command(), sheet, env, folder)
        floor, counts = counted(cases, env, folder, quick)
    anchor, unit = "python -c 'import click, pyparsing'", "M instructions"
    size = f"one of each of {len(counts)} import sets, of {len(cases)} paths" if quick else f"{len(counts)} paths"
    worst = max(counts, key=counts.__getitem__)
    figures = [ratio_of(f"worst one-shot path ({size}): {worst}", counts[worst], anchor, floor, unit, GOAL, True),
               ratio_of(f"median one-shot path ({size})", statistics.median(counts.values()), anchor, floor, unit,
                        GOAL, True)]
    figures += [Ratio(f"{name} imports {', '.join(sorted(cases[name][1] & {'pyparsing', 'click', 'prompt_toolkit'}))}",
                      1, "none of pyparsing, click, prompt_toolkit", 0, "modules", 1, 0, True) for name in heavy(cases)]
    return figures + [ratio_of(name, count, anchor, floor, unit, GOAL, True, detail=True)
                      for name, count in counts.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of CPU")
    parser.add_argument("--by-imports", action="store_true",
                        help="with --instructions: count one path a set of modules imported (the longest statement)")
    parser.add_argument("--only", default="", help="only the paths whose name holds this text")
    args = parser.parse_args()
    with setting() as (env, folder, sheet):
        cases = {name: case for name, case in paths(crux_command(), sheet, env, folder).items() if args.only in name}
        for name in heavy(cases):
            print(f"{name} imports pyparsing, click or prompt_toolkit")
        if args.instructions:
            floor, counts = counted(cases, env, folder, args.by_imports)
            ratios = {name: count / floor for name, count in counts.items()}
        else:
            ratios = {name: timed(name, command, env, folder, args.runs) for name, (command, _) in cases.items()}
    worst = max(ratios, key=ratios.__getitem__)
    print(f"{len(ratios)} paths{' (one a set of modules imported)' if args.by_imports else ''}; median ratio "
          f"{statistics.median(ratios.values()):.2f}; worst {ratios[worst]:.2f} ({worst})  (goal <= {GOAL})")
    return 0 if ratios[worst] <= GOAL and not heavy(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
