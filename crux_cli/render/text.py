"""Answers and errors as text: one line per answer, errors with a caret under the position."""

from __future__ import annotations

import unicodedata
from typing import Any

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.style import Palette


def answer_line(answer: Any, palette: Palette) -> str:
    """`DEX +2b: success 5 · [2, 5, 1] highest → 5 · …`"""
    rules = rulesets.handler(answer)
    index = palette.dim(f" #{answer.index}") if answer.index is not None else ""
    line = f"{palette.bold(answer.input)}{index}: {rules.describe(answer.result, palette)}"
    if getattr(answer, "sheet", None) is not None and rules.sheet_suffix is not None:
        suffix = rules.sheet_suffix(answer, palette)
        line += f" · {suffix}" if suffix else ""
    if answer.comment:
        line += palette.dim(f"  # {answer.comment}")
    return line


def visible(text: str) -> str:
    """The input as it can be echoed safely: control and format characters shown as '?'."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def width(text: str) -> int:
    """Terminal columns: wide (East Asian) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def error_lines(error: CruxError, palette: Palette, where: str = "") -> list[str]:
    lines = [f"crux: {where}{palette.paint('error', 'error')}: {error.message}"]
    if error.text is not None and error.text.strip():
        echo = visible(error.text)
        lines.append("  " + echo)
        if error.position is not None:
            column = width(echo[: max(0, min(error.position, len(echo)))])
            lines.append("  " + " " * column + palette.paint("^", "caret"))
    if error.hint:
        lines.append(f"  {palette.paint('hint', 'hint')}: {error.hint}")
    return lines
