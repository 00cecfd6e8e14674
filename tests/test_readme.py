"""The README's console examples are real: each `$ command` prints exactly what follows it.

The whole tour runs top to bottom in one directory with one journal, as a newcomer following it would
run it: a sheet made by one command is used by the next, and no command may trip over an earlier one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a shell and a crux process per example

README = Path(__file__).resolve().parent.parent / "README.md"


def examples() -> list[tuple[int, str, str]]:
    """(block number, command, expected output); the commands of one block share a directory."""
    found = []
    for number, block in enumerate(re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"),
                                              flags=re.S)):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    found.append((number, command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command:
            found.append((number, command, "\n".join(output)))
    return found


EXAMPLES = examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.fixture(scope="module")
def tour_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one working directory of the whole tour (made once, used by every block in order)."""
    return tmp_path_factory.mktemp("tour")


@pytest.mark.parametrize(("block", "command", "expected"), EXAMPLES, ids=[c for _, c, _ in EXAMPLES])
def test_example(block: int, command: str, expected: str, tour_directory: Path):
    env = dict(os.environ, NO_COLOR="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for name in ("CRUX_RULES", "CRUX_SHEET"):
        env.pop(name, None)
    env["XDG_STATE_HOME"] = str(tour_directory / ".state")  # one journal, as for one user
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, cwd=tour_directory)
    assert (result.stdout + result.stderr).rstrip("\n") == expected
