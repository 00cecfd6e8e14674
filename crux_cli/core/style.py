"""Colour for terminals only: a palette that is a no-op when colour is off.

The palette paints *roles*. Outcome words are not listed here: each rule set declares
its own (`RuleSet.colours`, outcome -> role), and its renderer and the odds tables paint
an outcome with `Palette.outcome`.
"""

from __future__ import annotations

from collections.abc import Mapping

GOOD, MIXED, BAD, CRIT = "good", "mixed", "bad", "crit"  # the roles an outcome may have
CODES = {
    GOOD: "32", MIXED: "33", BAD: "31", CRIT: "1;35",
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

    def outcome(self, text: str, colours: Mapping[str, str], outcome: str | None = None) -> str:
        """`text` in the role `colours` gives its outcome (`text` itself unless named); plain when none."""
        return self.paint(text, colours.get(text if outcome is None else outcome, ""))

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")


PLAIN = Palette(False)


def wants_colour(stream_is_tty: bool, no_color_flag: bool, environ: Mapping[str, str]) -> bool:
    """Colour only on a terminal that can show it: never with --no-color, NO_COLOR (https://no-color.org)
    or TERM=dumb."""
    return stream_is_tty and not no_color_flag and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb"
