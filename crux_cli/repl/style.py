"""The session's colours, by the class names the lexer and toolbar use, from the config's theme.

Under NO_COLOR (or --no-color) the mono theme's attributes replace colour, so a suggestion
still differs from typed text (italic, underlined) and a bad word is still marked (reverse).
"""

from __future__ import annotations

from collections.abc import Mapping

from prompt_toolkit.styles import Style

from crux_cli.core.style import MONO_THEME, REPL_TOKENS, theme_styles

CLASS_OF_TOKEN = {"suggestion": "auto-suggestion", "bad-word": "error"}  # theme token -> prompt-toolkit class
TOOLBAR = {
    "bottom-toolbar": "noreverse bg:#262626 #bcbcbc",
    "toolbar": "#bcbcbc",
    "toolbar.key": "#8a8a8a",
    "toolbar.value": "bold #ffffff",
    "toolbar.low": "bold ansired",
    "toolbar.hint": "#8a8a8a italic",
}
MONO_TOOLBAR = {"bottom-toolbar": "reverse", "toolbar.value": "bold", "toolbar.low": "bold underline",
                "toolbar.hint": "italic"}
ABORTING = {"aborting": "noitalic nounderline"}  # a line left with Ctrl-C stays as typed, then ^C


def repl_styles(theme: str = "default", overrides: Mapping[str, str] | None = None,
                no_color: bool = False) -> dict[str, str]:
    """prompt-toolkit class -> style for the session.

    Without colour (prompt-toolkit then drops every colour), a token styled by colour alone
    takes the mono theme's attributes as well, so it still stands apart from typed text.
    """
    styles = theme_styles(theme, overrides)
    toolbar = dict(TOOLBAR)
    if no_color:
        styles = {token: style if attributes(style) else f"{style} {MONO_THEME[token]}".strip()
                  for token, style in styles.items()}
        toolbar |= {name: f"{toolbar[name]} {extra}" for name, extra in MONO_TOOLBAR.items()}
    return {**{CLASS_OF_TOKEN.get(token, token): styles[token] for token in REPL_TOKENS}, **toolbar, **ABORTING}


def attributes(style: str) -> bool:
    """Does `style` show without colour (bold, italic, underline, reverse…)?"""
    return any(word in ("bold", "italic", "underline", "reverse", "blink", "strike") for word in style.split())



def create_style(theme: str = "default", overrides: Mapping[str, str] | None = None,
                 no_color: bool = False) -> Style:
    return Style.from_dict(repl_styles(theme, overrides, no_color))
