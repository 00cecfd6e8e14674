"""Every figure of issue 38 beside its anchor, in one run (run on demand; pytest does not collect it).

    python tests/bench/bench_fit.py [--quick] [--only NAME] [--json]

Each benchmark of this folder that owns a figure exposes `fit(quick: bool) -> list[benchkit.Ratio]`; this
driver imports every `bench_*.py` here that defines one (a module without one is skipped with a line
saying so, and is not imported), calls it, and prints one table: what is measured, crux's figure, the
anchor's name and figure, the unit, the ratio, the goal, and whether it is met. Instruction counts
(valgrind) stand where CPU time on a shared machine is too noisy; each figure names its size.

- `--quick`: smaller stores, fewer lines, a sample of the paths: a few minutes in all.
- `--only NAME`: one module (`startup` or `bench_startup`).
- `--json`: the table as JSON lines, one a figure (for PERFORMANCE.md and CI artefacts); figures a module
  marks `detail` (every one-shot path, say, summed up in the table by the worst and the median) are only
  there. What the benchmarks say while they work goes to stderr, so stdout is the table alone.

Exit status: 0 when every figure is met; 1 when one is not, or a benchmark failed; 2 for an unknown `--only`.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
FIELDS = ("name", "crux", "anchor_name", "anchor", "unit", "ratio", "goal", "at_most")


def modules(folder: Path) -> list[Path]:
    """The benchmarks of `folder`, this driver left out."""
    return [path for path in sorted(folder.glob("bench_*.py")) if path.name != "bench_fit.py"]


def has_fit(path: Path) -> bool:
    """Whether the module defines `fit` at its top level (read, not imported: importing costs some)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return any(isinstance(node, ast.FunctionDef) and node.name == "fit" for node in tree.body)


def load(path: Path) -> ModuleType:
    """Import a benchmark by its file, as `python tests/bench/NAME.py` would find its neighbours (and benchkit)."""
    for folder in {str(HERE), str(path.parent)} - set(sys.path):
        sys.path.insert(0, folder)
    if path.stem in sys.modules and getattr(sys.modules[path.stem], "__file__", None) == str(path):
        return sys.modules[path.stem]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def number(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if abs(value) >= 10_000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3g}"


def goal(figure: Any) -> str:
    return f"{'<=' if figure.at_most else '>='} {figure.goal:g}"


ROW = "{:<56} {:>9} {:<50} {:>9} {:<17} {:>6} {:<7} {}"
HEADER = ROW.format("figure", "crux", "anchor", "anchor", "unit", "ratio", "goal", "")


def row(figure: Any) -> str:
    return ROW.format(figure.name, number(figure.crux), figure.anchor_name, number(figure.anchor), figure.unit,
                      f"{figure.ratio:.2f}x", goal(figure), "met" if figure.met else "NOT MET")


def record(module: str, figure: Any, quick: bool) -> str:
    """One figure as a JSON line."""
    fields = {key: getattr(figure, key) for key in FIELDS}
    return json.dumps({"module": module, **fields, "met": figure.met, "detail": getattr(figure, "detail", False),
                       "quick": quick}, ensure_ascii=False)


def chosen(paths: list[Path], only: str) -> list[Path]:
    if not only:
        return paths
    wanted = only if only.startswith("bench_") else f"bench_{only}"
    return [path for path in paths if path.stem == wanted.removesuffix(".py")]


def measure(path: Path, quick: bool, say: Callable[[str], None]) -> list[Any] | None:
    """The module's figures, or None when it failed (said on stderr); its own prints go to stderr."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            figures = list(load(path).fit(quick))
    except Exception:  # a benchmark that breaks is a figure not met, said, and the others still run
        traceback.print_exc(file=sys.stderr)
        say(f"{path.stem}: failed (the traceback is on stderr)")
        return None
    return figures


def run(folder: Path, quick: bool = False, only: str = "", as_json: bool = False,
        out: TextIO | None = None) -> int:
    """Run every benchmark of `folder` that has a `fit` and print the table (or the JSON lines) to `out`."""
    out = out or sys.stdout
    paths = chosen(modules(folder), only)
    if only and not paths:
        print(f"bench_fit: no benchmark {only!r} in {folder}", file=sys.stderr)
        return 2

    def say(line: str) -> None:  # a line beside the table: in the table, or on stderr beside the JSON
        print(line, file=sys.stderr if as_json else out, flush=True)

    failed, figures, hidden = [], [], 0
    if not as_json:
        print(HEADER, file=out, flush=True)
    for path in paths:
        if not has_fit(path):
            say(f"{path.stem}: no fit(), skipped")
            continue
        started = time.monotonic()
        found = measure(path, quick, say)
        if found is None:
            failed.append(path.stem)
            continue
        for figure in found:
            figures.append(figure)
            if as_json:
                print(record(path.stem, figure, quick), file=out, flush=True)
            elif getattr(figure, "detail", False):
                hidden += 1
            else:
                print(row(figure), file=out, flush=True)
        say(f"{path.stem}: {len(found)} figures in {time.monotonic() - started:.0f} s")
    return summary(figures, failed, hidden, say)


def summary(figures: Iterable[Any], failed: list[str], hidden: int, say: Callable[[str], None]) -> int:
    figures = list(figures)
    missed = [figure for figure in figures if not figure.met]
    named = [figure.name for figure in missed if not getattr(figure, "detail", False)]  # details: under --json
    detail = f" ({hidden} of them only under --json)" if hidden else ""
    more = f" and {len(missed) - len(named)} details" if len(missed) > len(named) else ""
    say(f"{len(figures)} figures{detail}: {len(figures) - len(missed)} met"
        + (f"; NOT met: {'; '.join(named)}{more}" if missed else "")
        + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 0 if figures and not missed and not failed else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and samples: a few minutes")
    parser.add_argument("--only", default="", help="one benchmark, e.g. startup or bench_odds")
    parser.add_argument("--json", action="store_true", help="JSON lines, one a figure")
    args = parser.parse_args(argv)
    if not args.json:
        load_average = ", ".join(f"{value:.1f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
        print(f"bench_fit {'--quick ' if args.quick else ''}on python {sys.version.split()[0]}, "
              f"load {load_average}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    return run(HERE, args.quick, args.only, args.json)


if __name__ == "__main__":
    sys.exit(main())
