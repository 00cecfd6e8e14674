"""The history file: in the user's data directory, readable by the user alone."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_DATA_HOME/crux, or ~/.local/share/crux (a relative XDG_DATA_HOME is ignored, as the spec says)."""
    base = environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return Path(base) / "crux"


def private_file(path: Path) -> Path:
    """Create `path` (and its directory) private to the user: rolls and sheet names are nobody else's."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    os.chmod(path, 0o600)
    return path


def open_history(environ: Mapping[str, str] = os.environ) -> tuple[History, str | None]:
    """The session's history, and a warning when it cannot be kept on disk (the session goes on)."""
    path = data_dir(environ) / "history"
    try:
        return FileHistory(str(private_file(path))), None
    except OSError as error:
        return InMemoryHistory(), f"history is not kept this time: {path}: {error.strerror}"
