"""Colour for terminals only: a palette that is a no-op when colour is off, and the themes it reads.

The palette paints *roles*. Outcome words are not listed here: each rule set declares
its own (`RuleSet.colours`, outcome -> role), and its renderer and the odds tables paint
an outcome with `Palette.outcome`.

A theme gives each token a style in prompt-toolkit's words ("ansigreen bold", "#ff8700
underline", "bg:ansiblue"): the REPL hands them to prompt-toolkit, and `sgr` turns the
output's ones into escape codes here, so a one-shot roll never imports prompt-toolkit.
"""

from __future__ import annotations

from collections.abc import Mapping

GOOD, MIXED, BAD, CRIT = "good", "mixed", "bad", "crit"  # the roles an outcome may have
OUTPUT_ROLES = (GOOD, MIXED, BAD, CRIT, "dim", "bold", "error", "hint", "caret")  # each is also a theme token
OUTPUT_TOKENS = OUTPUT_ROLES
REPL_TOKENS = ("prompt", "attribute", "dice", "bonus", "penalty", "keyword", "number", "label", "comment", "alias",
               "name", "command", "suggestion", "bad-word")  # name: a combatant's name in a fight line
TOKENS = OUTPUT_TOKENS + REPL_TOKENS

DEFAULT_THEME = {
    "good": "ansigreen", "mixed": "ansiyellow", "bad": "ansired", "crit": "bold ansimagenta",
    "dim": "dim", "bold": "bold", "error": "bold ansired", "hint": "ansicyan", "caret": "bold ansired",
    "prompt": "ansicyan bold", "attribute": "ansicyan bold", "dice": "ansiyellow", "bonus": "ansigreen",
    "penalty": "ansired", "keyword": "ansiblue bold", "number": "ansimagenta", "label": "ansibrightblack",
    "comment": "ansibrightblack italic", "alias": "ansicyan underline", "name": "ansigreen bold",
    "command": "ansimagenta bold", "suggestion": "ansibrightblack", "bad-word": "bg:ansired ansiwhite",
}
# No colour at all, only attributes: also what the REPL shows under NO_COLOR (https://no-color.org),
# so a suggestion still differs from what was typed and a bad word is still marked.
MONO_THEME = {
    "good": "bold", "mixed": "", "bad": "underline", "crit": "bold reverse", "dim": "dim", "bold": "bold",
    "error": "bold", "hint": "italic", "caret": "bold", "prompt": "bold", "attribute": "bold", "dice": "",
    "bonus": "", "penalty": "", "keyword": "bold", "number": "", "label": "italic", "comment": "italic",
    "alias": "underline", "name": "bold", "command": "bold", "suggestion": "italic underline", "bad-word": "reverse",
}
BRIGHT_THEME = {
    **DEFAULT_THEME, "good": "ansibrightgreen bold", "mixed": "ansibrightyellow", "bad": "ansibrightred",
    "crit": "bold ansibrightmagenta", "hint": "ansibrightcyan", "dice": "ansibrightyellow",
    "bonus": "ansibrightgreen", "penalty": "ansibrightred", "keyword": "ansibrightblue bold", "label": "ansigray",
    "comment": "ansigray italic", "suggestion": "ansigray",
}
THEMES = {"default": DEFAULT_THEME, "mono": MONO_THEME, "bright": BRIGHT_THEME}

ATTRIBUTES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "blink": "5", "reverse": "7",
              "hidden": "8", "strike": "9"}
ANSI_COLOURS = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "gray")
BRIGHT_COLOURS = ("brightblack", "brightred", "brightgreen", "brightyellow", "brightblue", "brightmagenta",
                  "brightcyan", "white")


def colour_code(name: str, background: bool) -> str:
    """`ansigreen` → 32, `ansibrightred` → 91, `#ff8700` → 38;2;255;135;0 (+10 or 48 for a background)."""
    if name.startswith("#") and len(name) in (4, 7):
        digits = name[1:] if len(name) == 7 else "".join(c * 2 for c in name[1:])
        red, green, blue = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
        return f"{48 if background else 38};2;{red};{green};{blue}"
    colour = name.removeprefix("ansi")
    if name.startswith("ansi") and colour in ANSI_COLOURS:
        return str(ANSI_COLOURS.index(colour) + (40 if background else 30))
    if name.startswith("ansi") and colour in BRIGHT_COLOURS:
        return str(BRIGHT_COLOURS.index(colour) + (100 if background else 90))
    raise ValueError(f"'{name}' is not a colour (ansigreen, ansibrightred, #ff8700 …)")


def sgr(style: str) -> str:
    """A style in prompt-toolkit's words as the parameters of an SGR escape: "bold ansimagenta" → "1;35"."""
    attributes, colours = [], []
    for word in style.split():
        if word in ATTRIBUTES:
            attributes.append(ATTRIBUTES[word])
        elif (word.startswith("no") and word[2:] in ATTRIBUTES) or word in ("", "default"):
            continue
        elif word.startswith("bg:"):
            colours.append(colour_code(word[3:], background=True))
        else:
            try:
                colours.append(colour_code(word, background=False))
            except ValueError as error:
                raise ValueError(f"'{word}' is neither a colour nor bold, dim, italic, underline, reverse "
                                 f"(ansigreen, #ff8700, bg:ansiblue …)") from error
    return ";".join(attributes + colours)


def theme_styles(theme: str = "default", overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """Token -> style: the theme's, with the user's overrides."""
    return {**THEMES.get(theme, DEFAULT_THEME), **(overrides or {})}


def output_codes(theme: str = "default", overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """Colour role -> SGR parameters, for `Palette`."""
    styles = theme_styles(theme, overrides)
    return {role: sgr(styles[role]) for role in OUTPUT_ROLES}


CODES = output_codes()


class Palette:
    def __init__(self, enabled: bool, codes: Mapping[str, str] | None = None) -> None:
        self.enabled = enabled
        self.codes = CODES if codes is None else codes

    # Each method looks at `enabled` first: a plain palette (pipes, NO_COLOR) hands the text straight back,
    # and a batch paints a few dozen pieces a line.
    def paint(self, text: str, role: str) -> str:
        if not self.enabled:
            return text
        code = self.codes.get(role)
        return f"\x1b[{code}m{text}\x1b[0m" if code else text

    def outcome(self, text: str, colours: Mapping[str, str], outcome: str | None = None) -> str:
        """`text` in the role `colours` gives its outcome (`text` itself unless named); plain when none."""
        if not self.enabled:
            return text
        return self.paint(text, colours.get(text if outcome is None else outcome, ""))

    def dim(self, text: str) -> str:
        return self.paint(text, "dim") if self.enabled else text

    def bold(self, text: str) -> str:
        return self.paint(text, "bold") if self.enabled else text


PLAIN = Palette(False)


COLOR_CHOICES = ("auto", "always", "never")  # --color=WHEN


def wants_colour(stream_is_tty: bool, no_color_flag: bool, environ: Mapping[str, str], when: str = "auto") -> bool:
    """Whether to paint a stream, strongest reason first.

    `--no-color` or `--color=never`: never. `--color=always`: always, through a pipe too (`| less -R`);
    a flag on the command line is the user's latest word, as https://no-color.org asks. Then NO_COLOR
    (set and not empty): never. Then CLICOLOR_FORCE or FORCE_COLOR (set, neither empty nor 0): always.
    Otherwise only on a terminal that can show it (not TERM=dumb).
    """
    if no_color_flag or when == "never":
        return False
    if when == "always":
        return True
    if environ.get("NO_COLOR"):
        return False
    if any(environ.get(name, "") not in ("", "0") for name in ("CLICOLOR_FORCE", "FORCE_COLOR")):
        return True
    return stream_is_tty and environ.get("TERM") != "dumb"
