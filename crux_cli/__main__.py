"""The `crux` program (the console script, and `python -m crux_cli`).

It sits above both faces: the command line (crux_cli.cli) opens the interactive session
(crux_cli.repl) through the function given here, so neither imports the other.
"""

from __future__ import annotations

import gc
import signal
import sys
from typing import TYPE_CHECKING, Any

# The forms people type most (`crux 'DEX +2b'`, `crux --json 4d6kh3`, `crux odds …`) are answered
# without importing click, a third of a roll's start-up (running/quick.py; tests/bench/bench_startup.py).
from crux_cli.running.quick import answer

if TYPE_CHECKING:
    from crux_cli.running.settings import Settings


def command_line() -> Any:
    """crux_cli.cli's `main`, imported with the collector paused.

    The command line (click and crux's commands) is some 18,000 objects that live until the process
    ends. Collected while they are made, and once more as the interpreter exits, they cost a one-shot
    command a tenth of its time (`crux odds 1d6`: 68 ms -> 61 ms of CPU). So the collector waits while
    they are imported, and they are then frozen out of its reach (gc.freeze); whatever runs after that
    is collected as usual, so a batch or a session holds no more garbage than before.
    """
    collecting = gc.isenabled()  # as the caller had it (a program that turned it off keeps it off)
    gc.disable()
    try:
        from crux_cli.cli import main
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    return main


def hand_back_ctrl_c() -> None:
    """While crux was imported, Ctrl-C left at once (crux_cli._interrupted); from here on it is a
    KeyboardInterrupt again, which the command answers (status 130, no traceback)."""
    if sys.modules["crux_cli"].__dict__.get("_interrupted") is signal.getsignal(signal.SIGINT):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def quick_answer(argv: list[str]) -> int | None:
    """`running.quick.answer`, with the collector paused while it imports and answers.

    A one-shot command's objects are nearly all modules, classes and functions that live until it ends:
    collecting them while they are made, and again at exit, cost `crux 4d6kh3` an eighth of its
    instructions. A one-shot answer makes little garbage of cycles (a batch, a session and what click
    answers are collected as usual); what is left is frozen out of the exit's collection (gc.freeze).
    """
    collecting = gc.isenabled()  # as the caller had it (a program that turned it off keeps it off)
    gc.disable()
    try:
        if argv[:1] == ["log"]:  # `crux log`: read without click too (running.log_view, issue 38)
            from crux_cli.running.log_view import answer as answer_log

            return answer_log(argv, ready=hand_back_ctrl_c)
        return answer(argv, ready=hand_back_ctrl_c)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def start_repl(settings: Settings) -> int:
    if settings.table is not None and settings.table.link is not None:  # crux join LINK: the table answers
        from crux_cli.repl.joining import run_join

        return run_join(settings)
    from crux_cli.repl.app import run_repl  # prompt-toolkit is imported only here: one-shot rolls stay quick

    return run_repl(settings)


def main(argv: list[str] | None = None) -> None:
    status = quick_answer(sys.argv[1:] if argv is None else argv)
    if status is not None:
        raise SystemExit(status)
    run = command_line()
    hand_back_ctrl_c()
    run(argv, repl=start_repl)


if __name__ == "__main__":
    main()
