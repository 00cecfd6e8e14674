"""Terminal columns: how wide text is drawn, for carets, tables, the toolbar and wrapping.

Wide (East Asian) characters and emoji take two columns, combining marks none, an emoji ZWJ
sequence or a flag one picture: wcwidth's tables, imported only for text that is not plain ASCII
(nearly all text crux measures is, and is its length).
"""

from __future__ import annotations

# Format characters that only join what is around them (an emoji ZWJ sequence, a ligature break): echoed as
# they are, since they cannot move the cursor. Every other control or format character (bidi overrides…)
# is echoed as '?'.
JOINERS = frozenset("\u200c\u200d")


def visible(text: str) -> str:
    """The input as it can be echoed safely: control and format characters shown as '?' (but joiners)."""
    if text.isprintable():  # nearly always: one C-level check rather than a join per character
        return text
    return "".join(ch if ch.isprintable() or ch in JOINERS else "?" for ch in text)


def width(text: str) -> int:
    """Terminal columns `text` takes, as a terminal draws it; a control character counts one (echoed as '?')."""
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth, wcwidth

    columns = int(wcswidth(text))
    if columns >= 0:
        return columns
    return sum(max(int(wcwidth(ch)), 0) if ch.isprintable() or ch in JOINERS else 1 for ch in text)


def ljust(text: str, columns: int) -> str:
    """`text` padded with spaces to `columns` terminal columns (str.ljust counts code points)."""
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    """`text` behind spaces to `columns` terminal columns."""
    return " " * (columns - width(text)) + text
