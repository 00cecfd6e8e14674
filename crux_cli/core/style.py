"""Colour for terminals only: a palette that is a no-op when colour is off."""

from __future__ import annotations

from collections.abc import Mapping

CODES = {
    "success": "32", "resisted": "32", "hit": "32", "win": "32", "pass": "32", "strong hit": "32",
    "partial": "33", "weak hit": "33", "tie": "33",
    "failure": "31", "full effect": "31", "miss": "31", "lose": "31", "fail": "31",
    "crit": "1;35", "critical": "1;35",
    "dim": "2", "bold": "1", "error": "1;31", "hint": "36", "caret": "1;31",
}


class Palette:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, role: str) -> str:
        code = CODES.get(role)
        if not self.enabled or code is None:
            return text
        return f"\x1b[{code}m{text}\x1b[0m"

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")


PLAIN = Palette(False)


def wants_colour(stream_is_tty: bool, no_color_flag: bool, environ: Mapping[str, str]) -> bool:
    """Colour only on a terminal that can show it: never with --no-color, NO_COLOR (https://no-color.org)
    or TERM=dumb."""
    return stream_is_tty and not no_color_flag and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb"
