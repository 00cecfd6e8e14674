"""Errors meant for people: plain words, the position in the input, and a hint.

Every failure a user can cause is a `CruxError`; the CLI and the REPL print it
with the input echoed and a caret under `position`, and exit with status 2.
"""

from __future__ import annotations

from typing import Self


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

    def at(self, text: str, position: int | None = None) -> Self:
        """This error placed in the input `text` (at `position`), where it was not placed yet: a new error,
        so one already raised (and perhaps kept by a caller) never changes."""
        changes: dict[str, object] = {}
        if self.text is None:
            changes["text"] = text
        if self.position is None and position is not None:
            changes["position"] = position
        return self.replace(**changes) if changes else self

    def with_hint(self, hint: str) -> Self:
        """The same error with another hint (a new error)."""
        return self.replace(hint=hint)

    def replace(self, **changes: object) -> Self:
        """A copy with some of `text`, `position`, `hint` changed; of the same class, with the same message."""
        made = type(self).__new__(type(self), *self.args)  # no __init__: a subclass may take other arguments
        made.__dict__.update(self.__dict__)
        made.__dict__.update(changes)
        return made


class LimitError(CruxError):
    """A statement asked for more than the limits allow (crux-notation(7) LIMITS)."""


class SheetError(CruxError):
    """A character sheet (or encounter file) is missing, unreadable or breaks a rule."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(where + message, hint=hint)
        self.path = path
        self.line = line
