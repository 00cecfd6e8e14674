"""Aliases kept between sessions: one `name = statement` a line, in the user's data directory."""

from __future__ import annotations

import os
from pathlib import Path

from crux_cli.repl.history import private_file

HEADER = "# crux aliases: name = statement (kept by /alias; edit freely)\n"


def load_aliases(path: Path) -> dict[str, str]:
    """The aliases in `path` ({} when there is no file yet); lines that are not `name = statement` are skipped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return {}
    aliases = {}
    for line in text.splitlines():
        name, equals, body = (part.strip() for part in line.partition("="))
        if equals and body and name.isidentifier() and not line.lstrip().startswith("#"):
            aliases[name.lower()] = body
    return aliases


def save_aliases(path: Path, aliases: dict[str, str]) -> None:
    """Write `aliases` whole, private to the user, through a temporary file so a crash never leaves half."""
    temporary = private_file(path.with_name(path.name + ".tmp"))
    temporary.write_text(HEADER + "".join(f"{name} = {body}\n" for name, body in sorted(aliases.items())),
                         encoding="utf-8")
    os.replace(temporary, path)
