"""tests/bench/bench_fit.py, the one run that prints issue 38's figures beside their anchors, on fake benchmarks
that return figures at once: its table, its JSON lines, its exit status, and which modules it imports."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench import bench_fit

MET = 'Ratio("crux 4d6kh3", 150.0, "import click, pyparsing", 370.0, "M instructions", 150 / 370, 0.5, True)'
DETAIL = 'Ratio("a path", 160.0, "import click, pyparsing", 370.0, "M instructions", 160 / 370, 0.5, True, True)'
MISSED = 'Ratio("crux odds 1d6", 200.0, "icepool: icepool.d6", 100.0, "M instructions", 0.5, 1.0, False)'
MISSED_DETAIL = 'Ratio("a slow path", 200.0, "import click, pyparsing", 370.0, "M instructions", 0.54, 0.5, True, True)'


def bench(folder: Path, name: str, body: str) -> None:
    (folder / f"{name}.py").write_text(f"from benchkit import Ratio\n\n\n{body}\n", encoding="utf-8")


def fit_returning(*figures: str, said: str = "working") -> str:
    return f"def fit(quick: bool) -> list[Ratio]:\n    print({said!r})\n    return [{', '.join(figures)}]\n"


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A folder of fake benchmarks, each a module name of its own (bench_fit imports by file name)."""
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("bench_fake"):
            del sys.modules[name]
    if str(tmp_path) in sys.path:
        sys.path.remove(str(tmp_path))


def run(folder: Path, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    status = bench_fit.run(folder, out=out, **options)  # type: ignore[arg-type]
    return status, out.getvalue()


def test_the_table_shows_each_figure_beside_its_anchor_and_exits_0_when_all_are_met(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench(folder, "bench_fake_one", fit_returning(MET, DETAIL, said="counting instructions"))
    bench(folder, "bench_fake_plain", "def main() -> None:\n    raise AssertionError('imported')\n")
    bench(folder, "bench_fit", "raise AssertionError('the driver runs itself')")  # left out by name
    status, table = run(folder)
    assert status == 0
    lines = table.splitlines()
    assert lines[0].split() == ["figure", "crux", "anchor", "anchor", "unit", "ratio", "goal"]
    assert lines[1].split() == ["crux", "4d6kh3", "150.0", "import", "click,", "pyparsing", "370.0", "M",
                                "instructions", "0.41x", "<=", "0.5", "met"]
    assert "a path" not in table  # a detail: under --json only
    assert "bench_fake_plain: no fit(), skipped" in table  # and not imported: its main would have raised
    assert lines[-1] == "2 figures (1 of them only under --json): 2 met"
    assert "counting instructions" in capsys.readouterr().err  # what a benchmark says is not the table


def test_a_figure_not_met_or_a_benchmark_that_breaks_exits_1(folder: Path) -> None:
    bench(folder, "bench_fake_good", fit_returning(MET))
    bench(folder, "bench_fake_slow", fit_returning(MISSED, MISSED_DETAIL))
    status, table = run(folder)
    assert status == 1
    assert "0.50x >= 1    NOT MET" in table
    assert table.splitlines()[-1] == ("3 figures (1 of them only under --json): 1 met; "
                                      "NOT met: crux odds 1d6 and 1 details")
    (folder / "bench_fake_slow.py").unlink()
    bench(folder, "bench_fake_zbroken", "def fit(quick: bool) -> list[Ratio]:\n    raise RuntimeError('no valgrind')\n")
    status, table = run(folder)
    assert status == 1
    assert "bench_fake_zbroken: failed" in table
    assert table.splitlines()[-1] == "1 figures: 1 met; failed: bench_fake_zbroken"


def test_json_lines_carry_every_figure_with_its_module_and_quick_reaches_fit(folder: Path) -> None:
    bench(folder, "bench_fake_sized", "def fit(quick: bool) -> list[Ratio]:\n"
                                      f"    return [{MET}, {DETAIL}] if quick else []\n")
    status, lines = run(folder, quick=True, as_json=True)
    assert status == 0
    records = [json.loads(line) for line in lines.splitlines()]  # nothing but JSON on stdout
    assert [record["name"] for record in records] == ["crux 4d6kh3", "a path"]
    assert records[0] == {"module": "bench_fake_sized", "name": "crux 4d6kh3", "crux": 150.0,
                          "anchor_name": "import click, pyparsing", "anchor": 370.0, "unit": "M instructions",
                          "ratio": 150 / 370, "goal": 0.5, "at_most": True, "met": True, "detail": False,
                          "quick": True}
    assert records[1]["detail"] is True
    assert run(folder, quick=False)[0] == 1  # no figure at all is not "every figure met"


def test_only_runs_one_module_by_either_name_and_refuses_an_unknown_one(folder: Path) -> None:
    bench(folder, "bench_fake_a", fit_returning(MET))
    bench(folder, "bench_fake_b", fit_returning(MISSED))
    for name in ("fake_a", "bench_fake_a", "bench_fake_a.py"):
        assert run(folder, only=name)[0] == 0
    assert run(folder, only="fake_b")[0] == 1
    assert run(folder, only="nothing")[0] == 2


def test_the_real_benchmarks_that_have_a_fit_are_found_and_none_is_collected_by_pytest() -> None:
    found = {path.stem for path in bench_fit.modules(bench_fit.HERE) if bench_fit.has_fit(path)}
    assert {"bench_startup", "bench_odds", "bench_api"} <= found
    assert all(not path.name.startswith("test") for path in bench_fit.HERE.glob("*.py"))
