"""The session's colours, by the class names the lexer and toolbar use."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLES = {
    "prompt": "ansicyan bold",
    "attribute": "ansicyan bold",
    "dice": "ansiyellow",
    "bonus": "ansigreen",  # a rule set's own notation for a bonus (Crux: +2b) …
    "penalty": "ansired",  # … and for a penalty (-1B)
    "keyword": "ansiblue bold",
    "number": "ansimagenta",
    "label": "ansibrightblack",
    "comment": "ansibrightblack italic",
    "alias": "ansicyan underline",
    "name": "ansigreen bold",  # a combatant's name in a fight line
    "command": "ansimagenta bold",
    "error": "bg:ansired ansiwhite",
    "bottom-toolbar": "noreverse bg:#262626 #bcbcbc",
    "toolbar": "#bcbcbc",
    "toolbar.key": "#8a8a8a",
    "toolbar.value": "bold #ffffff",
    "toolbar.low": "bold ansired",
    "toolbar.hint": "#8a8a8a italic",
}


def create_style() -> Style:
    return Style.from_dict(STYLES)
