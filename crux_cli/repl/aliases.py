"""Aliases kept between sessions: one `name = statement` a line, in the user's data directory.

Two sessions open at once each keep their own changes: a change re-reads the
file under its lock and writes the merge whole (a temporary file renamed over
it), so neither loses the other's aliases and a crash never leaves half. The
file is never read or written through a symbolic link.
"""

from __future__ import annotations

from pathlib import Path

from crux_cli.state.files import private_dir, read_regular

HEADER = "# crux aliases: name = statement (kept by /alias; edit freely)\n"
WHAT = "aliases file"


def load_aliases(path: Path) -> dict[str, str]:
    """The aliases in `path` ({} when there is no file yet); lines that are not `name = statement` are skipped."""
    try:
        text = read_regular(path, follow=False).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return {}
    aliases = {}
    for line in text.splitlines():
        name, equals, body = (part.strip() for part in line.partition("="))
        if equals and body and name.isidentifier() and not line.lstrip().startswith("#"):
            aliases[name.lower()] = body
    return aliases


def update_aliases(path: Path, changes: dict[str, str | None]) -> dict[str, str]:
    """Apply `changes` (None forgets a name) to the aliases kept in `path` and return them all.

    Under the file's lock the file is read again first, so aliases another session
    kept meanwhile stay. Raises OSError, or a CruxError in crux's own words.
    """
    from crux_cli.state.store import locked, write_atomically

    private_dir(path.parent)
    with locked(path, str(path), WHAT):
        aliases = load_aliases(path)
        for name, body in changes.items():
            if body is None:
                aliases.pop(name, None)
            else:
                aliases[name] = body
        text = HEADER + "".join(f"{name} = {body}\n" for name, body in sorted(aliases.items()))
        write_atomically(path, text, str(path), what=WHAT, new_mode=0o600)
    return aliases

