"""Output taller than the terminal goes through a pager; long lines wrap at word boundaries.

The pager is `$PAGER`, else `less`, or the command the config's `pager` names; `LESS` defaults to
`FRXK` (colours, the page left on the screen, Ctrl-C quits); `pager = false` (or `/pager off`) prints
everything as it comes.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from collections.abc import Mapping

from crux_cli.core.columns import width

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def pager_command(setting: bool | str, environ: Mapping[str, str] = os.environ) -> list[str] | None:
    """The pager to run, or None when paging is off."""
    if setting is False:
        return None
    command = setting if isinstance(setting, str) and setting.strip() else environ.get("PAGER") or "less"
    return shlex.split(command) or None


LESS = "FRXK"  # colours (R); what was shown stays on the screen (X, as git and pgcli have it); Ctrl-C quits (K)


def page(text: str, command: list[str]) -> bool:
    """Show `text` through the pager; False when it cannot be run (then the caller prints it).

    Ctrl-C while it shows is the pager's (less quits on it, `K`): crux waits for it to end rather than
    stopping with it half-way, which would leave its screen painted and the terminal in its modes.
    """
    environ = {**os.environ, "LESS": os.environ.get("LESS", LESS)}
    try:
        before = signal.signal(signal.SIGINT, _wait)  # a Python handler: the pager starts with the default
    except ValueError:  # not the main thread: nothing to hold
        before = None
    try:
        subprocess.run(command, input=text, text=True, env=environ, check=False)
    except OSError:
        return False
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
    return True


def _wait(signum: int, frame: object) -> None:
    """Ctrl-C while the pager runs: the pager's to answer."""


def visible_width(text: str) -> int:
    return width(ESCAPE.sub("", text))


def wrap(line: str, columns: int) -> list[str]:
    """`line` broken at spaces to fit `columns` (colour codes take no room); continuations indented by 2 more,
    or, in a line of two columns (`/help`'s usage and summary), under the second column (`hanging`).

    A line holding newlines (`show`, a table) is wrapped line by line, and the spaces between words are
    kept as they were (columns of `/help`, a status line's padding): only a break replaces a gap.
    """
    if "\n" in line:
        return [part for piece in line.split("\n") for part in wrap(piece, columns)]
    if columns < 20 or visible_width(line) <= columns:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    hang = hanging(line, lead, columns)
    out, current = [], lead
    for gap, word in WORD.findall(line[len(lead):]):
        candidate = current + (gap if current.strip() else "") + word
        if current.strip() and visible_width(candidate) > columns:
            out.append(current)
            current = hang + word
        else:
            current = candidate
    return [*out, current]


def hanging(line: str, lead: str, columns: int) -> str:
    """Where a wrapped line's continuations start: under its second column when it has one (words, then two
    spaces or more: `  /load FILE   Load a character sheet…`), under the text of a summary set on a line of
    its own, deep in (a long usage's), else 2 past the line's own indent, within the left half of the width."""
    second = COLUMNS.match(line)
    if second is not None and visible_width(second.group(0)) <= columns // 2:
        return " " * visible_width(second.group(0))
    if DEEP <= len(lead) <= columns // 2:
        return lead
    return lead + "  "


WORD = re.compile(r"(\s*)(\S+)")
COLUMNS = re.compile(r" *\S+(?: \S+)* {2,}(?=\S)")  # a first column and the gap after it
DEEP = 8  # a lead this deep is a column of its own
