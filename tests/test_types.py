"""mypy passes with --strict on the whole package, and the configuration relaxes nothing of it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_configuration_is_strict_everywhere():
    """`strict = true` for the whole package and no per-module section: an override could turn a flag back off."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    assert mypy["packages"] == ["crux_cli"]
    assert "overrides" not in mypy, "a [[tool.mypy.overrides]] section would relax --strict for its modules"


@pytest.mark.slow  # a cold run (a fresh clone, as in CI) takes 10-30 s; a warm cache about 2 s
def test_mypy_strict_is_clean():
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found" in result.stdout
