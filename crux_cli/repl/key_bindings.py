"""Keys beyond prompt-toolkit's defaults (which already give Ctrl-R search, → for suggestions,
Ctrl-X Ctrl-E in Emacs mode and `v` in Vi mode to edit the line in $EDITOR)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator

from prompt_toolkit.application import application
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.filters import completion_is_selected, has_completions
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.key_bindings import Binding, KeyBindingsBase, KeysTuple
from prompt_toolkit.keys import Keys


def create_key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("c-c")
    def _abandon_line(event: KeyPressEvent) -> None:
        """Ctrl-C abandons the line, as in a shell: it stays on screen with ^C, and a new prompt follows."""
        buffer = event.current_buffer
        buffer.cursor_position = len(buffer.text)
        buffer.insert_text("^C", fire_event=False)
        event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    @bindings.add("enter", filter=has_completions & completion_is_selected)
    def _take_completion(event: KeyPressEvent) -> None:
        """Enter on a highlighted completion takes it rather than rolling a half-typed line."""
        event.current_buffer.complete_state = None

    @bindings.add("f4")
    def _switch_edit_mode(event: KeyPressEvent) -> None:
        """F4 switches between Emacs and Vi keys, as in pgcli and ptpython."""
        app = event.app
        app.editing_mode = EditingMode.EMACS if app.editing_mode == EditingMode.VI else EditingMode.VI

    @bindings.add(Keys.Vt100MouseEvent)
    def _not_a_mouse(event: KeyPressEvent) -> None:
        """The session asks the terminal for no mouse reports, so what parses as one was typed: ESC [ 3 1 m
        (a colour code pasted or keyed in) reached prompt-toolkit's mouse handler and ended in its traceback.
        It is let go, as a key with no binding is."""

    return bindings


class LaterBindings(KeyBindingsBase):
    """Key bindings made the first time anything asks for them, rather than when the prompt is made.

    prompt-toolkit makes its ~600 default bindings (Emacs, Vi, basic, mouse) as its Application is made,
    a twentieth of the REPL's first prompt (tests/bench/bench_repl_startup.py); drawing the prompt needs
    none of them. They are made at the first key, or by the warm-up just after the first draw.
    """

    def __init__(self, make: Callable[[], KeyBindingsBase]) -> None:
        self.make = make
        self.made: KeyBindingsBase | None = None

    def _made(self) -> KeyBindingsBase:
        if self.made is None:
            self.made = self.make()
        return self.made

    @property
    def _version(self) -> Hashable:
        return self._made()._version

    def get_bindings_for_keys(self, keys: KeysTuple) -> list[Binding]:
        return self._made().get_bindings_for_keys(keys)

    def get_bindings_starting_with_keys(self, keys: KeysTuple) -> list[Binding]:
        return self._made().get_bindings_starting_with_keys(keys)

    @property
    def bindings(self) -> list[Binding]:
        return self._made().bindings


@contextlib.contextmanager
def default_bindings_later() -> Iterator[None]:
    """Within, an Application made takes prompt-toolkit's default bindings as LaterBindings.

    The Application makes them with the `load_key_bindings` its module imported; that name is swapped for
    the block only. A prompt-toolkit without that name makes them at once, as before.
    """
    load = getattr(application, "load_key_bindings", None)
    if load is None:
        yield
        return
    application.load_key_bindings = lambda: LaterBindings(load)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        application.load_key_bindings = load  # type: ignore[attr-defined]
