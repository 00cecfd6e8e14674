"""Errors meant for people: plain words, the position in the input, and a hint.

Every failure a user can cause is a `CruxError`; the CLI and the REPL print it
with the input echoed and a caret under `position`, and exit with status 2.
"""

from __future__ import annotations


class CruxError(Exception):
    """A problem with what the user asked for, explained in plain words."""

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        position: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position
        self.hint = hint

    def at(self, text: str, position: int | None = None) -> CruxError:
        """Attach the input (and a position, if none is known yet) and return self."""
        if self.text is None:
            self.text = text
        if self.position is None:
            self.position = position
        return self


class LimitError(CruxError):
    """A statement asked for more than NOTATION §5 allows."""


class SheetError(CruxError):
    """A character sheet (or encounter file) is missing, unreadable or breaks a rule."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(where + message, hint=hint)
        self.path = path
        self.line = line
