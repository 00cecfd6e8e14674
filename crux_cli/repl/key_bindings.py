"""Keys beyond prompt-toolkit's Emacs defaults (which already give Ctrl-R search and → for suggestions)."""

from __future__ import annotations

from prompt_toolkit.filters import completion_is_selected, has_completions
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent


def create_key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("c-c")
    def _clear_line(event: KeyPressEvent) -> None:
        """Ctrl-C clears the line, as in a shell; the session goes on (Ctrl-D leaves)."""
        event.current_buffer.reset()

    @bindings.add("enter", filter=has_completions & completion_is_selected)
    def _take_completion(event: KeyPressEvent) -> None:
        """Enter on a highlighted completion takes it rather than rolling a half-typed line."""
        event.current_buffer.complete_state = None

    return bindings
