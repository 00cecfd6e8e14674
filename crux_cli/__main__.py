"""The `crux` program (the console script, and `python -m crux_cli`).

It sits above both faces: the command line (crux_cli.cli) opens the interactive session
(crux_cli.repl) through the function given here, so neither imports the other.
"""

from __future__ import annotations

import gc
import signal
import sys
from typing import TYPE_CHECKING

# The command line (click and crux's commands) is some 18,000 objects that live until the process
# ends. Collected while they are made, and once more as the interpreter exits, they cost a one-shot
# command a tenth of its time (`crux odds 1d6`: 68 ms -> 61 ms of CPU). So the collector waits while
# they are imported, and they are then frozen out of its reach (gc.freeze); whatever runs after that
# is collected as usual, so a batch or a session holds no more garbage than before.
_COLLECTING = gc.isenabled()  # as the importer had it (a program that turned it off keeps it off)
gc.disable()
from crux_cli.cli import main as command_line  # noqa: E402 (after the collector is paused)

gc.freeze()
if _COLLECTING:
    gc.enable()
if sys.modules["crux_cli"].__dict__.get("_interrupted") is signal.getsignal(signal.SIGINT):
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C is KeyboardInterrupt again: main handles it

if TYPE_CHECKING:
    from crux_cli.running.settings import Settings


def start_repl(settings: Settings) -> int:
    from crux_cli.repl.app import run_repl  # prompt-toolkit is imported only here: one-shot rolls stay quick

    return run_repl(settings)


def main(argv: list[str] | None = None) -> None:
    command_line(argv, repl=start_repl)


if __name__ == "__main__":
    main()
