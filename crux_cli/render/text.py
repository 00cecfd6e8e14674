"""Answers and errors as text: one line per answer, errors with a caret under the position."""

from __future__ import annotations

import re
from typing import Any

from crux_cli import rulesets
from crux_cli.core.columns import visible, width
from crux_cli.core.errors import CruxError
from crux_cli.core.limits import MAX_INPUT
from crux_cli.core.memo import Met, keep_in
from crux_cli.core.style import Palette


def answer_line(answer: Any, palette: Palette, sheet: bool = True) -> str:
    """`DEX +2b: success 5 · [2, 5, 1] highest → 5 · …`; the table of `odds …` (several lines). `sheet` False: without
    the suffix of a roll on a sheet (` · Wren: Grit 3`), which a batch joins on itself (running.modes
    `AnswerLines.shared_line`): what `scrub` changes is a character at a time, so a line is its parts scrubbed."""
    kind = answer.handler  # `rulesets.handler`'s two commonest cases, without its call
    rules = rulesets.load(answer.rules) if not kind else rulesets.dice_handler() if kind == "dice" else \
        rulesets.handler(answer)
    if answer.odds:
        return "\n".join(odds_answer_lines(answer, palette))
    head = HEADS.get(answer.input)
    if head is None or head[0] is not palette:
        head = heading(answer.input, palette)
    index = palette.dim(f" #{answer.index}") if answer.index is not None else ""
    line = f"{head[1]}{index}: {rules.describe(answer.result, palette)}"
    if sheet and getattr(answer, "sheet", None) is not None and rules.sheet is not None:
        suffix = rules.sheet.suffix(answer, palette)
        line += f" · {suffix}" if suffix else ""
    if answer.comment:
        line += palette.dim(f"  # {visible(answer.comment)}")
    return line if line.isprintable() else scrub(line)  # `scrub`'s own first test, asked without a call


def heading(said: str, palette: Palette) -> tuple[Palette, str]:
    """An answer's statement as its line begins, in `palette`: kept by text, for a batch heads thousands of answers
    with a few dozen statements (PERFORMANCE.md, "A text batch remembers its answer lines")."""
    head = (palette, palette.bold(visible(said)))
    if HEADS_MET.again(said):  # kept from the statement's second time: a line met once is kept by nothing
        keep_in(HEADS, HEADS_KEPT, said, head)
    return head


HEADS: dict[str, tuple[Palette, str]] = {}  # by statement: the palette and the line's beginning in it (`heading`)
HEADS_KEPT = 1024  # statements whose beginnings are kept (cleared whole when full; a batch repeats a few dozen)
HEADS_MET = Met(HEADS_KEPT)  # statements headed once


def odds_answer_lines(answer: Any, palette: Palette) -> list[str]:
    """An odds answer (`crux odds`, or `odds …` in any line) as printed: a heading, then the table."""
    result = answer.result
    if result.kind == "comparison":
        from crux_cli.render.odds_compare import comparison_colours, comparison_lines

        lines = [f"{palette.bold(visible(answer.input))}: exact odds compared",
                 *comparison_lines(result, palette, comparison_colours(answer))]
    else:
        from crux_cli.render.odds_text import odds_text_lines

        body = odds_text_lines(result, palette, rulesets.handler(answer).colours, "  ")
        lines = [f"{palette.bold(visible(answer.input))}: exact odds", *body]
    if answer.comment:
        lines[0] += palette.dim(f"  # {visible(answer.comment)}")
    return lines


# Anything that could move the cursor or ring, except the colour codes crux writes and the line breaks of
# a multi-line answer (`show`); what users type is made visible before it is echoed, so it cannot forge lines.
UNSAFE = re.compile(r"\x1b(?!\[[0-9;]*m)|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f\x80-\x9f\u2028\u2029]")


def scrub(line: str) -> str:
    """An answer safe to print: no control characters but colour codes and the renderer's own line breaks."""
    if line.isprintable():  # a plain one-line answer: one C-level check instead of a regex pass
        return line
    return UNSAFE.sub("?", line)


ECHO_LIMIT = MAX_INPUT  # longer input is refused anyway: echo only the part around the caret
ECHO_SIDE = 60


def window(echo: str, position: int | None) -> tuple[str, int | None]:
    """The echoed input cut to a window around `position` when it is longer than any statement may be."""
    if len(echo) <= ECHO_LIMIT:
        return echo, position
    at = min(max(position or 0, 0), len(echo))
    start, end = max(0, at - ECHO_SIDE), min(len(echo), at + ECHO_SIDE)
    head, tail = ("…" if start else ""), ("…" if end < len(echo) else "")
    return head + echo[start:end] + tail, (None if position is None else at - start + len(head))


def error_lines(error: CruxError, palette: Palette, where: str = "") -> list[str]:
    lines = [f"crux: {where}{palette.paint('error', 'error')}: {error.message}"]
    if error.text is not None and error.text.strip():
        echo, position = window(visible(error.text), error.position)
        lines.append("  " + echo)
        if position is not None:
            column = width(echo[: max(0, min(position, len(echo)))])
            lines.append("  " + " " * column + palette.paint("^", "caret"))
    if error.hint:
        lines.append(f"  {palette.paint('hint', 'hint')}: {error.hint}")
    return lines
