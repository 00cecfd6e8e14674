"""What a packager gets: `python -m build` without a warning, metadata `twine check --strict` accepts, a
licence, `py.typed`, and an sdist complete enough that its own tests collect from the unpacked tree."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SDIST_NEEDS = ("LICENSE", "README.md", "tests/conftest.py", "tests/helpers/__init__.py", "tests/helpers/terminal.py",
               "tests/helpers/brute.py", "tests/bench/batch_lines.py",
               "tests/bench/benchkit.py", "tests/golden/batch_input.txt", "tests/plugin_ruleset/pyproject.toml",
               "tests/plugin_ruleset/coinflip/ruleset.py", "grammar/crux.ebnf", "man/crux.1",
               "completions/bash/crux", "tools/gen_completions.py", "crux_cli/py.typed")


def test_the_licence_and_the_typing_marker_are_there() -> None:
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "crux_cli" / "py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in pyproject
    assert 'license-files = ["LICENSE"]' in pyproject


def build(outdir: Path) -> str:
    # PYTHONDONTWRITEBYTECODE makes setuptools warn that it skips byte-compiling: the caller's habit, not ours
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(outdir), str(ROOT)],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.mark.slow  # builds the sdist and the wheel in isolated environments, then collects 2,600 tests
def test_build_is_clean_and_the_sdist_collects_its_tests(tmp_path: Path) -> None:
    pytest.importorskip("build")
    log = build(tmp_path / "dist")
    warnings = [line for line in log.splitlines() if "warning" in line.lower()]
    assert warnings == []
    sdist = next((tmp_path / "dist").glob("crux_dice-*.tar.gz"))
    wheel = next((tmp_path / "dist").glob("crux_dice-*.whl"))

    twine = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)],
                           capture_output=True, text=True)
    if "No module named twine" not in twine.stderr:
        assert twine.returncode == 0, twine.stdout + twine.stderr

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = Parser().parsestr(archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
                                     .decode())
    assert "crux_cli/py.typed" in names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert metadata["License-Expression"] == "MIT"
    classifiers = metadata.get_all("Classifier")
    assert "Topic :: Games/Entertainment :: Role-Playing" in classifiers
    assert "Programming Language :: Python :: 3.13" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # PEP 639: the expression says it

    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    tree = next((tmp_path / "unpacked").iterdir())
    missing = [name for name in SDIST_NEEDS if not (tree / name).exists()]
    assert missing == []
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                               cwd=tree, capture_output=True, text=True, timeout=600)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    summary = collected.stdout.strip().splitlines()[-1]
    assert "tests collected" in summary and "error" not in summary, summary


def test_the_readme_installs_from_what_exists() -> None:
    """`crux-dice` is not on the Package Index yet: the README installs from the checkout or a wheel built from it
    (tests/test_typed_wheel.py builds and installs that wheel), never by the name (issue 38)."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^(?:python3 -m )?(?:\S*pipx?|\S*pip) install .*$", readme, flags=re.M)
    commands += re.findall(r"&& (?:\S*pipx?) install [^#&]*", readme)
    assert commands
    for command in commands:
        assert "crux-dice" not in command.split("#")[0], command
    assert "python3 -m pip wheel --no-deps -w dist . && pipx install dist/crux_dice-*.whl" in readme
    assert "not on the Package Index yet" in readme
