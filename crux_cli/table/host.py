"""What the table needs of the session it serves: `TableHost`, which the REPL gives it.

The table never imports a face: the REPL's session implements this small interface (repl/serving.py),
and the table calls it from its own thread, one statement at a time.
"""

from __future__ import annotations

from typing import Any, Protocol

from crux_cli.core.record import Record

RAN, ERROR, GM_ONLY, NOT_YOURS = "", "error", "gm only", "not yours"


class Said(Record):
    """A statement's answer: its lines as the GM's terminal prints them (no colour), and what it did."""

    lines: tuple[str, ...]
    kind: str = "roll"  # roll (a statement of the rule set) | word (a fight word) | odds
    refused: str = RAN  # RAN, or why it was not run: ERROR, GM_ONLY, NOT_YOURS
    changed: bool = False  # the fight or a hero's values may have changed: everyone gets the fight view again
    public: bool = False  # it changed the fight everyone sees: shared with everyone, whatever privacy was asked


class TableHost(Protocol):
    """The session under way, as the table uses it; every method may be called from the table's thread."""

    @property
    def rules_name(self) -> str: ...

    def say(self, text: str, hero: str | None, gm: bool, who: str | None = None) -> Said:
        """Apply `text` as `hero` (the GM's: gm); the session's journal names `who` said it (None: the GM)."""

    def fight(self) -> dict[str, Any] | None: ...  # the fight view, every number in it (PROTOCOL.md)

    def heroes(self) -> tuple[str, ...]: ...  # the heroes a player may choose

    def words(self) -> tuple[str, ...]: ...  # the statement words to suggest

    def commitment(self) -> str | None: ...  # the session seed's commitment (issue 35), or None

    def salt(self, who: str, salt: bytes) -> str | None:
        """A player's salt mixed into the dice at join (issue 35); the commitment to show them, or None."""
