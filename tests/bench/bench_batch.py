"""Benchmark, run on demand (pytest does not collect it): crux's batch mode against a d20 loop.

    python tests/bench/bench_batch.py [--runs R] [--big-runs R] [--sizes 10000,100000] [--memory [LINES]]
                                      [--instructions [LINES]] [--misses [LINES]]

Whole processes, as a script that pipes statements would run them: `crux --seed 1 - < lines`
(text, then `--json`) against a Python process that runs Avrae's `d20.roll(line)` and `str()` over
the same number of lines (see D20_LOOP). Each crux line is paired with the d20 line that rolls the
same dice (tests/bench/batch_lines.py: a net +N Crux test is `(N+1)d6kh1`, an attack's primary die
explodes as `1dSeS`), since d20 has no Boons, saves or primary dice.

Two mixes: `realistic`, 40 distinct statements (tests, saves, initiative, attacks, dice) repeated
in a fixed shuffled order; `all-different`, every line a statement of its own. The runs of each
case alternate (crux text, crux JSON, d20), and each time is the child's CPU time (user + system,
from wait4), the fair measure on a machine others share; wall time is printed alongside. The
ratio is d20's time over crux's: 1.0 means as fast, above 1 crux is faster. Goals (issue 15):
at least 1.0 on the realistic mix, at least 0.5 when every line is different; the journaled text
run of the realistic mix at least 1.8 (issue 27).

`--memory` also runs crux over 1,000,000 different lines (or LINES) and prints its peak RSS
(goal: at most 40 MB).

`--instructions` counts instead of timing (valgrind's callgrind, when installed): the instructions a line
costs on the realistic mix and on all-different lines, as the difference between runs of LINES and 3 x LINES
lines (start-up cancels out), for crux text, crux --sheet and the d20 loop. A count is the same at every run
(within 0.2 %: crux is compiled first and its state is new) however busy the machine, where CPU time on a
shared machine varies by a third from run to run; it leaves out what an instruction waits for (cache misses,
the disk), which the timed runs include. Under valgrind a process runs 50 to 300 times slower, so crux's clocks
are set for it (CRUX_COUNTED), in the text and the sheet runs alike: a held sheet is written at each chunk, the
output's flusher (every 0.2 s when stdout is not a terminal) wakes about as often a line as at full speed, not 50
times as often, and a held sheet is never looked at by the clock (`CHECK_SECONDS`, a stat every 10 ms): at full
speed that is 3 looks in 3,000 lines, under callgrind it was 22, more on a loaded machine, each skipping the line
it fell on from being drawn again (about 1,000 instructions a line of a count that moved with the load).

`--misses` simulates what a count leaves out (valgrind's cachegrind, a 1 MB last-level cache): the first-level
and last-level data misses a line, crux text and the d20 loop, both mixes. An instruction that misses the last
level waits a hundred nanoseconds or more, so a batch whose lines kept their objects alive ran fewer instructions
than d20 and still took about as long (PERFORMANCE.md, "A line met once is kept by nothing").

Two more columns compare crux with itself on the same lines: `--no-journal` (goal, issue 22: the
journaled text run at least 0.9x as fast, journal-off time over journal-on time), and, on the
realistic mix, `--sheet hero.toml` (a new sheet before each run; goal, issue 27: at most 1.5x the
CPU per line of the same batch without a sheet). Each line then reads the sheet under its lock,
and the lines that earn or spend Grit change it (the run prints how many did); a `grit` line
with no Grit left is refused, as it would be for a player, and the run goes on. The batch's input
is waiting, so it holds the sheet between lines and writes it once a run (PERFORMANCE.md, "A batch
holds its sheet"): a dozen durable writes (fsync of the file and its folder, a rename) rather than
one a changing line. The reading cost alone is shown too (`sheet, read`: a sheet full of Grit and
the lines that do not spend it, against `text, read`).

crux is byte-compiled first and runs with state and config folders of the bench's own
(tests/bench/benchkit.py). Each crux run journals every answer, as users' runs do, but the `--no-journal` one.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import batch_lines
from benchkit import Ratio, bench_environment, crux_command

GOALS = {"realistic": 1.0, "all-different": 0.5}
TEXT_GOALS = {"realistic": 2.5, "all-different": 1.5}  # the journaled text run, issue 38 (the others keep GOALS)
JOURNAL_GOAL = 0.9  # journal-off CPU over journal-on CPU, at least
SHEET_GOAL = 1.3  # sheet CPU over the same text batch's, at most (issue 38)
MIXES: dict[str, Callable[[int], Iterator[batch_lines.Pair]]] = {
    "realistic": batch_lines.realistic, "all-different": batch_lines.all_different}
MEMORY_GOAL_MB = 40
D20_LOOP = """\
import sys
import d20
write = sys.stdout.write
for line in sys.stdin:
    write(str(d20.roll(line.strip())) + "\\n")
"""


# crux as counted under valgrind: the held sheet written at each chunk, the output flushed, by clocks not running
# 50x slow (without it a 900-line run's flusher woke hundreds of times more on a loaded machine: 86k -> 124k a line)
CRUX_COUNTED = """\
import sys
import crux_cli.running.output as output
import crux_cli.state.store as store
from crux_cli.__main__ import main
store.HOLD_SECONDS = 1e9
store.CHECK_SECONDS = 1e9
output.FLUSH_INTERVAL *= 50
sys.argv[0] = "crux"
main()
"""


def new_sheet(path: Path) -> None:
    """A fresh hero's sheet at `path` (the same at every run: a run's Grit must not carry over); in
    `full.toml`, with all the Grit there is, so that no line earns any."""
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.state.sheet import new_sheet_text

    hero = Hero(name="Wren", attributes={"STR": Attribute(1, 0), "DEX": Attribute(2, 1), "INT": Attribute(0, 0),
                                         "WIL": Attribute(0, -1)}, grit=5 if path.name == "full.toml" else 2)
    path.write_text(new_sheet_text(hero))


def timed(command: list[str], stdin: Path, env: dict[str, str]) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak RSS in KB) of one run of `command` reading `stdin`."""
    if "--sheet" in command:
        new_sheet(Path(command[command.index("--sheet") + 1]))
    with stdin.open("rb") as source:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        errors = child.stderr.read().decode() if child.stderr else ""
        if child.returncode != 0 and not ("--sheet" in command and child.returncode == 2):  # out of Grit
            raise SystemExit(f"{shlex.join(command)} < {stdin} failed ({child.returncode}):\n{errors[:2000]}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def write_lines(folder: Path, mix: str, size: int) -> tuple[Path, Path]:
    crux_lines, d20_lines = folder / f"crux-{mix}-{size}.txt", folder / f"d20-{mix}-{size}.txt"
    with crux_lines.open("w") as crux_out, d20_lines.open("w") as d20_out:
        for crux_line, d20_line in MIXES[mix](size):
            crux_out.write(crux_line + "\n")
            d20_out.write(d20_line + "\n")
    return crux_lines, d20_lines


def run_case(folder: Path, mix: str, size: int, runs: int, env: dict[str, str]) -> list[bool]:
    crux_lines, d20_lines = write_lines(folder, mix, size)
    loop = folder / "d20_loop.py"
    commands = {
        "crux text": ([*crux_command(), "--seed", "1", "-"], crux_lines),
        "crux --json": ([*crux_command(), "--seed", "1", "--json", "-"], crux_lines),
        "--no-journal": ([*crux_command(), "--seed", "1", "--no-journal", "-"], crux_lines),
        "d20 loop": ([sys.executable, str(loop)], d20_lines),
    }
    if mix == "realistic":
        commands["--sheet"] = ([*crux_command(), "--seed", "1", "--sheet", str(folder / "hero.toml"), "-"],
                               crux_lines)
        reading = folder / f"crux-{mix}-{size}-no-grit.txt"  # the lines that never change a full sheet
        reading.write_text("".join(line for line in crux_lines.open() if " grit" not in line))
        commands["sheet, read"] = ([*crux_command(), "--seed", "1", "--sheet", str(folder / "full.toml"), "-"],
                                   reading)
        commands["text, read"] = ([*crux_command(), "--seed", "1", "-"], reading)
    times: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, stdin) in commands.items():
            times[name].append(timed(command, stdin, env))
    cpu = {name: statistics.median(t[0] for t in runs_) for name, runs_ in times.items()}
    wall = {name: statistics.median(t[1] for t in runs_) for name, runs_ in times.items()}
    print(f"\n{mix}, {size:,} lines, median of {runs} run(s):")
    for name, (command, stdin) in commands.items():
        print(f"  {name:12} {cpu[name]:7.2f} s CPU {size / cpu[name]:8,.0f} lines/s  "
              f"(wall {wall[name]:6.2f} s)   $ {shlex.join(command)} < {stdin.name}")
    met = []
    for name in ("crux text", "crux --json"):
        ratio, wall_ratio = cpu["d20 loop"] / cpu[name], wall["d20 loop"] / wall[name]
        goal = TEXT_GOALS.get(mix, GOALS[mix]) if name == "crux text" else GOALS[mix]
        met.append(ratio >= goal)
        print(f"  ratio d20/{name}: {ratio:.2f}x CPU (wall {wall_ratio:.2f}x), goal at least {goal}x: "
              f"{'met' if met[-1] else 'NOT met'}")
    ratio = cpu["--no-journal"] / cpu["crux text"]
    met.append(ratio >= JOURNAL_GOAL)
    print(f"  journal on: {ratio:.2f}x as fast as --no-journal (CPU), goal at least {JOURNAL_GOAL}x: "
          f"{'met' if met[-1] else 'NOT met'}")
    if "--sheet" in cpu:
        ratio = cpu["--sheet"] / cpu["crux text"]
        met.append(ratio <= SHEET_GOAL)
        writes = sheet_writes(commands["--sheet"][0], crux_lines, env)
        print(f"  sheet/sheetless: {ratio:.2f}x the CPU per line ({writes}"
              f" lines changed the sheet), goal at most {SHEET_GOAL}x: {'met' if met[-1] else 'NOT met'}")
    if "sheet, read" in cpu:
        ratio = cpu["sheet, read"] / cpu["text, read"]
        print(f"  sheet/sheetless, no line changing the sheet (Grit full, no `grit` lines): {ratio:.2f}x the CPU"
              f" per line, goal at most {SHEET_GOAL}x: {'met' if ratio <= SHEET_GOAL else 'NOT met'}")
    return met


def sheet_writes(command: list[str], stdin: Path, env: dict[str, str]) -> int:
    """How many lines of a run on a new sheet changed it (its text answers end `Wren: Grit A → B`; a pool's
    `highest → 5` is no change)."""
    new_sheet(Path(command[command.index("--sheet") + 1]))
    with stdin.open("rb") as source:
        out = subprocess.run(command, stdin=source, capture_output=True, env=env).stdout
    return sum(1 for line in out.decode().splitlines() if re.search(r": Grit \d+ → \d+", line))


def run_memory(folder: Path, size: int, env: dict[str, str]) -> bool:
    crux_lines, _ = write_lines(folder, "all-different", size)
    command = [*crux_command(), "--seed", "1", "-"]
    cpu, wall, peak = timed(command, crux_lines, env)
    print(f"\nmemory: {size:,} different lines in {cpu:.1f} s CPU (wall {wall:.1f} s), peak RSS {peak / 1024:.1f} MB"
          f" (goal at most {MEMORY_GOAL_MB} MB): {'met' if peak / 1024 <= MEMORY_GOAL_MB else 'NOT met'}"
          f"   $ {shlex.join(command)} < {crux_lines.name}")
    return peak / 1024 <= MEMORY_GOAL_MB


def counted(command: list[str], stdin: Path, env: dict[str, str]) -> int:
    """The instructions one run of `command` reading `stdin` executes (callgrind's total)."""
    if "--sheet" in command:
        new_sheet(Path(command[command.index("--sheet") + 1]))
    # a store of its own for each run, made by it: the figure is the difference of two runs, and with one store
    # for all the first run made it and the next only opened it, so a run's start-up did not cancel (the first
    # command's lines read some 2,000 instructions cheaper than they are)
    with stdin.open("rb") as source, tempfile.NamedTemporaryFile() as out, \
            tempfile.TemporaryDirectory(prefix="crux-bench-state-") as state:
        child = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *command],
                               stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**env, "XDG_STATE_HOME": state, "XDG_DATA_HOME": state})
    found = re.search(r"Collected : (\d+)", child.stderr.decode())
    if found is None:
        raise SystemExit(f"valgrind {shlex.join(command)} < {stdin} gave no count:\n{child.stderr.decode()[-2000:]}")
    return int(found.group(1))


def instructions_a_line(folder: Path, sizes: dict[str, int], env: dict[str, str]) -> dict[str, float]:
    """Instructions a line (callgrind: 3 x size lines less size, each mix's size in `sizes`) of crux text, crux
    --sheet (realistic mix only) and the d20 loop, on each mix, keyed "MIX NAME"; printed as they come."""
    counting = folder / "crux_counted.py"
    counting.write_text(CRUX_COUNTED)
    (folder / "d20_loop.py").write_text(D20_LOOP)
    sheet = [sys.executable, str(counting), "--seed", "1", "--sheet", str(folder / "hero.toml"), "-"]
    commands = {"crux text": [sys.executable, str(counting), "--seed", "1", "-"], "--sheet": sheet,
                "d20 loop": [sys.executable, str(folder / "d20_loop.py")]}
    per_line: dict[str, float] = {}
    for mix in ("realistic", "all-different"):
        size = sizes[mix]
        print(f"\n{mix}, instructions a line (callgrind: {3 * size:,} lines less {size:,}):")
        for name, command in commands.items():
            if name == "--sheet" and mix != "realistic":
                continue
            total = {}
            for lines in (size, 3 * size):
                crux_lines, d20_lines = write_lines(folder, mix, lines)
                total[lines] = counted(command, d20_lines if name == "d20 loop" else crux_lines, env)
            per_line[f"{mix} {name}"] = (total[3 * size] - total[size]) / (2 * size)
            print(f"  {name:12} {per_line[f'{mix} {name}']:9,.0f} instructions a line   $ {shlex.join(command)}",
                  flush=True)
    return per_line


def ratios(per_line: dict[str, float], sizes: dict[str, int]) -> list[Ratio]:
    """Issue 38's three batch figures, from `instructions_a_line`."""
    unit, size = "instructions a line", sizes["realistic"]
    return [Ratio(f"crux --seed 1 - < {mix} lines (journaled text; {3 * sizes[mix]:,} less {sizes[mix]:,} lines)",
                  per_line[f"{mix} crux text"], "the same dice, d20.roll(line) a line", per_line[f"{mix} d20 loop"],
                  unit, per_line[f"{mix} d20 loop"] / per_line[f"{mix} crux text"], TEXT_GOALS[mix], at_most=False)
            for mix in ("all-different", "realistic")] + [
        Ratio(f"crux --sheet hero.toml --seed 1 - < realistic lines, Grit spent and earned ({3 * size:,} less"
              f" {size:,} lines)", per_line["realistic --sheet"], "the same batch without --sheet",
              per_line["realistic crux text"], unit, per_line["realistic --sheet"] / per_line["realistic crux text"],
              SHEET_GOAL, at_most=True)]


def fit(quick: bool) -> list[Ratio]:
    """Issue 38's batch figures in instructions a line (bench_fit.py): all-different lines and the realistic mix
    against a d20 loop (goals 1.5x, 2.5x), and the realistic mix on a sheet against it without (at most 1.3x).
    `quick`: all-different lines 300 and 900 rather than 1,000 and 3,000 (start-up cancels out either way); the
    realistic mix is counted at full size always: its lines cost a third of a different line's, and its memos (a
    line remembered by statement and faces) fill over the first thousand lines, so 300 and 900 read the warm-up
    (90.9k a line against 80.2k at full size) rather than the batch."""
    import shutil

    if shutil.which("valgrind") is None:
        raise SystemExit("bench_batch.fit needs valgrind (callgrind) on PATH")
    sizes = {"realistic": 1000, "all-different": 300 if quick else 1000}
    with bench_environment() as env, tempfile.TemporaryDirectory() as name:
        return ratios(instructions_a_line(Path(name), sizes, env), sizes)


def run_instructions(folder: Path, size: int, env: dict[str, str]) -> list[bool]:
    """The instructions a line of each mix (`--instructions`), with the goals of the timed runs."""
    import shutil

    if shutil.which("valgrind") is None:
        print("\n--instructions needs valgrind (callgrind) on PATH")
        return [False]
    sizes = dict.fromkeys(MIXES, size)
    figures = ratios(instructions_a_line(folder, sizes, env), sizes)
    for figure in figures:
        print(f"  {figure.name}\n    {figure.ratio:.2f}x (crux {figure.crux:,.0f}; {figure.anchor_name}"
              f" {figure.anchor:,.0f} {figure.unit}), goal {'at most' if figure.at_most else 'at least'}"
              f" {figure.goal}x: {'met' if figure.met else 'NOT met'}")
    return [figure.met for figure in figures]


LAST_LEVEL = "1048576,16,64"  # the last-level cache simulated by --misses: 1 MB, a core's share on a shared host


def simulated(command: list[str], stdin: Path, env: dict[str, str]) -> dict[str, int]:
    """Instructions, first-level data misses and last-level data misses of one run of `command` reading `stdin`
    (cachegrind's cache simulation with a 1 MB last level), each run on a store of its own."""
    with stdin.open("rb") as source, tempfile.TemporaryDirectory(prefix="crux-bench-state-") as state:
        child = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--LL={LAST_LEVEL}",
                                "--cachegrind-out-file=/dev/null", *command], stdin=source, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env={**env, "XDG_STATE_HOME": state, "XDG_DATA_HOME": state})
    said = child.stderr.decode()
    found = {name: re.search(rf"{label}:\s+([\d,]+)", said)
             for name, label in (("instructions", r"I\s+refs"), ("D1", r"D1\s+misses"), ("LL", r"LLd misses"))}
    if any(value is None for value in found.values()):
        raise SystemExit(f"valgrind {shlex.join(command)} < {stdin} gave no counts:\n{said[-2000:]}")
    return {name: int(value.group(1).replace(",", "")) for name, value in found.items() if value is not None}


def run_misses(folder: Path, size: int, env: dict[str, str]) -> None:
    """`--misses`: what an instruction count leaves out, a line's cache misses (3 x size lines less size). CPU time
    follows instructions only while a line's memory stays in the cache: a batch that kept each line's objects
    alive for a thousand lines missed the last level 190 times a line, and ran at half a d20 loop's pace an
    instruction (PERFORMANCE.md, "A line met once is kept by nothing")."""
    import shutil

    if shutil.which("valgrind") is None:
        print("\n--misses needs valgrind (cachegrind) on PATH")
        return
    counting = folder / "crux_counted.py"
    counting.write_text(CRUX_COUNTED)
    commands = {"crux text": [sys.executable, str(counting), "--seed", "1", "-"],
                "d20 loop": [sys.executable, str(folder / "d20_loop.py")]}
    for mix in MIXES:
        print(f"\n{mix}, a line's share (cachegrind, last level {LAST_LEVEL}: {3 * size:,} lines less {size:,}):")
        for name, command in commands.items():
            runs = {}
            for lines in (size, 3 * size):
                crux_lines, d20_lines = write_lines(folder, mix, lines)
                runs[lines] = simulated(command, d20_lines if name == "d20 loop" else crux_lines, env)
            each = {key: (runs[3 * size][key] - runs[size][key]) / (2 * size) for key in runs[size]}
            print(f"  {name:10} {each['instructions']:9,.0f} instructions  {each['D1']:7,.0f} D1 misses  "
                  f"{each['LL']:6,.1f} last-level misses   $ {shlex.join(command)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each case at 10,000 lines")
    parser.add_argument("--big-runs", type=int, default=1,
                        help="runs of each case above 10,000 lines (on a shared machine one run varies by a third)")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--memory", type=int, nargs="?", const=1_000_000, default=None, metavar="LINES")
    parser.add_argument("--instructions", type=int, nargs="?", const=10_000, default=None, metavar="LINES",
                        help="count instructions a line under valgrind instead of timing (LINES and 3 x LINES)")
    parser.add_argument("--misses", type=int, nargs="?", const=1000, default=None, metavar="LINES",
                        help="simulate a line's cache misses under valgrind (LINES and 3 x LINES)")
    options = parser.parse_args()
    print(f"d20 loop ({sys.executable} d20_loop.py):\n" + "\n".join(f"    {line}" for line in D20_LOOP.splitlines()))
    met = []
    with bench_environment() as env, tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "d20_loop.py").write_text(D20_LOOP)
        if options.misses:
            run_misses(folder, options.misses, env)
            return 0
        if options.instructions:
            met = run_instructions(folder, options.instructions, env)
            print(f"\n{'all goals met' if all(met) else 'some goals NOT met'}")
            return 0 if all(met) else 1
        for size in (int(s) for s in options.sizes.split(",")):
            for mix in MIXES:
                met += run_case(folder, mix, size, options.runs if size <= 10_000 else options.big_runs, env)
        if options.memory:
            met.append(run_memory(folder, options.memory, env))
    print(f"\n{'all goals met' if all(met) else 'some goals NOT met'}")
    return 0 if all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
