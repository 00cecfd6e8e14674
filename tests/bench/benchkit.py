"""What the benchmarks share (not collected by pytest): the crux command to time, and an environment
that times it as a user's installed crux runs.

- crux is byte-compiled first, as `pip install` leaves it: an editable crux run under
  PYTHONDONTWRITEBYTECODE would compile every module it loads at every start, which no installed crux
  does (its peers, installed by pip, are compiled already).
- the state, data and config folders are the bench's own, so a benchmark neither reads the user's
  config (aliases, a default sheet) nor grows their journal and history with thousands of rolls.
"""

from __future__ import annotations

import compileall
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


def crux_command() -> list[str]:
    """The `crux` script of this Python's environment (else `python -m crux_cli`)."""
    script = Path(sys.executable).parent / "crux"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crux_cli"]


def compile_crux() -> None:
    """Byte-compile this checkout's crux_cli where Python looks for it."""
    import crux_cli

    compileall.compile_dir(str(Path(crux_cli.__file__).parent), quiet=1)


@contextmanager
def bench_environment(**extra: str) -> Iterator[dict[str, str]]:
    """The environment for timed crux processes (crux compiled first), with folders of its own."""
    compile_crux()
    with tempfile.TemporaryDirectory(prefix="crux-bench-") as folder:
        yield {**os.environ, "XDG_STATE_HOME": folder, "XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder,
               **extra}


@dataclass(frozen=True)
class Ratio:
    """One figure of a benchmark beside its anchor, as `bench_fit.py` prints them side by side in one run.

    `ratio` is the figure as its goal reads it: crux's cost over the anchor's where the goal is an upper
    bound (`at_most=True`: a one-shot path at most 0.5x `import click, pyparsing`), the anchor's over crux's
    where it is a lower bound (`at_most=False`: a batch at least 1.5x as fast as a d20 loop)."""

    name: str  # what is measured, e.g. "crux '1d20+5 vs 15' (one-shot)"
    crux: float  # crux's own figure, in `unit`
    anchor_name: str  # what it is held against, e.g. "python -c 'import click, pyparsing'"
    anchor: float  # the anchor's figure, in `unit`
    unit: str  # "M instructions", "ms CPU", "MB", ...
    ratio: float
    goal: float
    at_most: bool
    detail: bool = False  # one of many figures a summary row stands for (every one-shot path): under --json only

    @property
    def met(self) -> bool:
        return self.ratio <= self.goal if self.at_most else self.ratio >= self.goal


def instructions(command: list[str], env: dict[str, str], cwd: str | None = None) -> int:
    """The instructions one run of `command` executes (valgrind's cachegrind, no cache simulation): the same on
    a loaded machine as on a quiet one, where the CPU time of a 0.1 s process varies by a third."""
    import re
    import subprocess

    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count for {' '.join(command)}")
    return int(found.group(1).replace(",", ""))


def ratio_of(name: str, crux: float, anchor_name: str, anchor: float, unit: str, goal: float, at_most: bool,
             detail: bool = False) -> Ratio:
    """A Ratio whose ratio is worked out as its goal reads it: crux over the anchor for an upper bound, the
    anchor over crux for a lower one."""
    value = crux / anchor if at_most else anchor / crux
    return Ratio(name, crux, anchor_name, anchor, unit, value, goal, at_most, detail)
