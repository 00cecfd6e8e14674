"""The `crux` program (the console script, and `python -m crux_cli`).

It sits above both faces: the command line (crux_cli.cli) opens the interactive session
(crux_cli.repl) through the function given here, so neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.cli import main as command_line

if TYPE_CHECKING:
    from crux_cli.running.settings import Settings


def start_repl(settings: Settings) -> int:
    from crux_cli.repl.app import run_repl  # prompt-toolkit is imported only here: one-shot rolls stay quick

    return run_repl(settings)


def main(argv: list[str] | None = None) -> None:
    command_line(argv, repl=start_repl)


if __name__ == "__main__":
    main()
