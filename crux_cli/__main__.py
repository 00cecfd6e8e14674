"""The `crux` program (the console script, and `python -m crux_cli`).

It sits above both faces: the command line (crux_cli.cli) opens the interactive session
(crux_cli.repl) through the function given here, so neither imports the other.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

# The forms people type most (`crux 'DEX +2b'`, `crux --json 4d6kh3`, `crux odds …`) are answered
# without importing click, a third of a roll's start-up (running/quick.py; tests/bench/bench_startup.py).
from crux_cli.core import collector
from crux_cli.core.errors import CruxError
from crux_cli.running import quick
from crux_cli.running.modes import run_batch  # loaded with running.quick already
from crux_cli.running.output import Output
from crux_cli.running.quick import answer
from crux_cli.running.settings import Settings
from crux_cli.running.streams import guard_streams, internal_error, is_terminal, os_error, output_failed


def command_line() -> Any:
    """crux_cli.cli's `main`, imported with the collector paused.

    The command line (click and crux's commands) is some 18,000 objects that live until the process
    ends. Collected while they are made, and once more as the interpreter exits, they cost a one-shot
    command a tenth of its time (`crux odds 1d6`: 68 ms -> 61 ms of CPU). So the collector waits while
    they are imported, and they are then frozen out of its reach (gc.freeze); whatever runs after that
    is collected as usual, so a batch or a session holds no more garbage than before.
    """
    with collector.paused(freeze=True):
        from crux_cli.cli import main
    return main


def hand_back_ctrl_c() -> None:
    """While crux was imported, Ctrl-C left at once (crux_cli._interrupted); from here on it is a
    KeyboardInterrupt again, which the command answers (status 130, no traceback)."""
    if sys.modules["crux_cli"].__dict__.get("_interrupted") is signal.getsignal(signal.SIGINT):
        try:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        except KeyboardInterrupt:  # a Ctrl-C landing as it is handed back runs the new handler at once
            raise SystemExit(130) from None  # interrupted, as the command says it: no traceback


def quick_answer(argv: list[str]) -> int | None:
    """`running.quick.answer`, with the collector paused while it imports and answers.

    A one-shot command's objects are nearly all modules, classes and functions that live until it ends:
    collecting them while they are made, and again at exit, cost `crux 4d6kh3` an eighth of its
    instructions. A one-shot answer makes little garbage of cycles (a batch, a session and what click
    answers are collected as usual); what is left is frozen out of the exit's collection (gc.freeze).
    """
    with collector.paused(freeze=True):
        if argv[:1] == ["log"]:  # `crux log`: read without click too (running.log_view, issue 38)
            from crux_cli.running.log_view import answer as answer_log

            return answer_log(argv, ready=hand_back_ctrl_c)
        return answer(argv, ready=hand_back_ctrl_c)


def quick_batch(argv: list[str]) -> int | None:
    """`crux [OPTIONS] -`, a batch, started without importing click (a fourth of a batch's start-up); None: any
    other command line. The batch runs with the collector at work (it sets its own threshold), and says its
    refusals as click's path says them."""
    options = quick.read_batch(argv)
    if options is None:
        return None
    guard_streams()
    hand_back_ctrl_c()

    def batch() -> int:
        settings = Settings.from_config(quick.read_config())
        settings.update(options)
        return run_batch(settings, sys.stdin, Output(settings))

    return quick.answered(argv, batch)


def start_repl(settings: Settings) -> int:
    if settings.table is not None and settings.table.link is not None:  # crux join LINK: the table answers
        from crux_cli.repl.joining import run_join

        return run_join(settings)
    # prompt-toolkit is imported only here: one-shot rolls stay quick. Its ~120 modules and crux's REPL
    # live as long as the session: collected while they are made, they cost the first prompt ~4 % of its
    # instructions (tests/bench/bench_repl_startup.py), so the collector waits, then leaves them frozen.
    with collector.paused(freeze=True):
        from crux_cli.repl.app import run_repl
    return run_repl(settings)


def quick_session(argv: list[str]) -> int | None:
    """`crux repl` or `crux` alone on a terminal, opened without importing click (a twelfth of the first
    prompt's instructions, tests/bench/bench_repl_startup.py); None: any other command line, for click.

    Only the bare forms, with neither CRUX_RULES nor CRUX_SHEET set (click reads those as options), and
    not on Windows (as running/quick.py); the session is started and its errors said as click's path does.
    """
    if argv not in ([], ["repl"]) or quick.clicks_own():
        return None
    guard_streams()
    if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        return None  # batch mode, help, or the refusal of a session without a terminal: click's
    hand_back_ctrl_c()
    try:
        quick.check_text(argv)
        return start_repl(Settings.from_config(quick.read_config()))
    except CruxError as error:  # a config naming a rule set there is none of, as click's path says it
        return quick.refuse(error, argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return output_failed(None)
    except OSError as error:
        return os_error(error)
    except Exception as error:  # a bug in crux: said as crux_cli.cli.main says it
        return internal_error(error)


def main(argv: list[str] | None = None) -> None:
    words = sys.argv[1:] if argv is None else argv
    status = quick_answer(words)
    if status is None:
        status = quick_batch(words)
    if status is None:
        status = quick_session(words)
    if status is not None:
        raise SystemExit(status)
    run = command_line()
    hand_back_ctrl_c()
    run(argv, repl=start_repl)


if __name__ == "__main__":
    main()
