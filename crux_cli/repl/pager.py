"""Output taller than the terminal goes through a pager; long lines wrap at word boundaries.

The pager is `$PAGER`, else `less -R`, or the command the config's `pager` names;
`pager = false` (or `/pager off`) prints everything as it comes.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Mapping

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def pager_command(setting: bool | str, environ: Mapping[str, str] = os.environ) -> list[str] | None:
    """The pager to run, or None when paging is off."""
    if setting is False:
        return None
    command = setting if isinstance(setting, str) and setting.strip() else environ.get("PAGER") or "less -R"
    return shlex.split(command) or None


def page(text: str, command: list[str]) -> bool:
    """Show `text` through the pager; False when it cannot be run (then the caller prints it)."""
    environ = {**os.environ, "LESS": os.environ.get("LESS", "-R")}
    try:
        subprocess.run(command, input=text, text=True, env=environ, check=False)
    except OSError:
        return False
    return True


def visible_width(text: str) -> int:
    from crux_cli.core.columns import width

    return width(ESCAPE.sub("", text))


def wrap(line: str, columns: int) -> list[str]:
    """`line` broken at spaces to fit `columns` (colour codes take no room); continuations indented by 2 more."""
    if columns < 20 or visible_width(line) <= columns:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    out, current = [], lead
    for word in line.split():
        candidate = current + (" " if current.strip() else "") + word
        if current.strip() and visible_width(candidate) > columns:
            out.append(current)
            current = lead + "  " + word
        else:
            current = candidate
    return [*out, current]
