"""Terminal columns (core/columns.py): carets, tables, the toolbar and wrapping count what a terminal draws.

A decomposed accent is one column, not two; an emoji ZWJ sequence is one picture of two columns, not eight;
East Asian characters are two. Plain ASCII never loads wcwidth.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest
from helpers import crux_here

from crux_cli.core.columns import ljust, rjust, width
from crux_cli.core.errors import CruxError
from crux_cli.core.style import PLAIN
from crux_cli.render.text import error_lines

DECOMPOSED = "e\u0301"  # é as e + a combining acute accent
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl: one picture
FLAG = "\U0001f1eb\U0001f1f7"
CJK = "日本語"


@pytest.mark.parametrize(("text", "columns"), [
    ("DEX +2b", 7), ("", 0), (DECOMPOSED, 1), ("caf" + DECOMPOSED, 4), ("\u00e9", 1), (FAMILY, 2), (FLAG, 2),
    (CJK, 6), ("ｄ６", 4), ("x\x07y", 3),
])
def test_width_counts_terminal_columns(text: str, columns: int) -> None:
    assert width(text) == columns


def test_padding_counts_columns_too() -> None:
    assert ljust(CJK, 8) == CJK + "  " and width(ljust(FAMILY, 5)) == 5
    assert rjust(DECOMPOSED, 3) == "  " + DECOMPOSED


def caret_column(lines: list[str]) -> int:
    caret = next(line for line in lines if line.strip() == "^")
    return caret.index("^") - 2


@pytest.mark.parametrize("before", [DECOMPOSED * 3, FAMILY, CJK, FLAG + " " + CJK, "Zoë" + DECOMPOSED])
def test_the_caret_stands_under_the_mistake_after_any_text(before: str) -> None:
    text = f"{before} +"
    lines = error_lines(CruxError("a sign with nothing after it", text=text, position=len(before) + 1), PLAIN)
    assert lines[1] == "  " + text  # a ZWJ sequence is echoed whole, not with a '?' for each joiner
    assert caret_column(lines) == width(before) + 1


def test_the_caret_through_the_command_line_after_east_asian_text() -> None:
    result = crux_here(CJK, "--sedd", "3")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[1] == f"  {CJK} --sedd 3"
    assert caret_column(lines) == 7  # under the first dash: 日本語 is six columns, then a space


@pytest.mark.parametrize("before", [DECOMPOSED, FAMILY])
def test_the_caret_through_the_command_line_after_joined_text(before: str) -> None:
    result = crux_here("--rules", before, "--seed", "x", "DEX")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[1] == f"  --rules {before} --seed x DEX"
    assert caret_column(lines) == len("--rules ") + width(before) + len(" --seed ")


def test_a_bidi_override_is_still_echoed_as_a_question_mark() -> None:
    lines = error_lines(CruxError("no", text="d6 \u202e x", position=5), PLAIN)
    assert lines[1] == "  d6 ? x" and caret_column(lines) == 5


def test_an_odds_table_lines_up_names_in_any_script() -> None:
    from crux_cli.probability.result import Odds
    from crux_cli.render.odds_text import odds_text_lines

    odds = Odds("omen", (("大吉", Fraction(1, 4)), ("kichi", Fraction(1, 4)), ("caf" + DECOMPOSED, Fraction(1, 2))))
    rows = odds_text_lines(odds, PLAIN, {}, "")
    fractions_at = {width(row[: row.index("1/")]) for row in rows if "1/" in row}
    assert len(fractions_at) == 1, rows


def test_the_toolbar_and_the_pager_measure_columns() -> None:
    from crux_cli.repl.pager import wrap
    from crux_cli.repl.toolbar import length

    assert length([(0, [("class:x", CJK), ("class:y", FAMILY)])]) == 8
    wrapped = wrap(" ".join([CJK] * 6), 20)  # 41 columns, 23 code points
    assert len(wrapped) == 3 and all(width(line) <= 20 for line in wrapped)


def test_plain_ascii_never_loads_wcwidth() -> None:
    probe = ("import sys\nfrom crux_cli.__main__ import main\n"
             "for args in (['--seed', '1', 'DEX +2b'], ['odds', 'atk 2d8+3'], ['DEX +2']):\n"
             "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
             "sys.stderr.write(str('wcwidth' in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.stderr.endswith("False"), result.stderr


def test_wrap_keeps_newlines_and_the_spaces_between_words() -> None:
    """`show` prints lines joined by newlines and `/help` lines up its columns with spaces: neither is lost."""
    from crux_cli.repl.pager import wrap

    assert wrap("Wren\n  HP 10/10\n  Wounds 0/6", 80) == ["Wren", "  HP 10/10", "  Wounds 0/6"]
    assert wrap("a\n\nb", 80) == ["a", "", "b"]
    help_line = "  /alias NAME BODY      keep an alias: " + "word " * 20
    wrapped = wrap(help_line.rstrip(), 60)
    assert wrapped[0].startswith("  /alias NAME BODY      keep an alias:")
    assert all(width(line) <= 60 for line in wrapped)
    assert " ".join(" ".join(wrapped).split()) == " ".join(help_line.split())  # every word, in order
