"""The README's console examples are real: each `$ command` prints exactly what follows it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def examples() -> list[tuple[str, str]]:
    pairs = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    pairs.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command:
            pairs.append((command, "\n".join(output)))
    return pairs


EXAMPLES = examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_example(command: str, expected: str, tmp_path: Path):
    env = dict(os.environ, NO_COLOR="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for name in ("CRUX_RULES", "CRUX_SHEET"):
        env.pop(name, None)
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert (result.stdout + result.stderr).rstrip("\n") == expected
