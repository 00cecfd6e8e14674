"""crux: a scriptable dice language for tabletop role-playing games.

As a library (`man crux-python`):

    >>> import crux_cli
    >>> print(crux_cli.roll("DEX +2b", seed=3))
    DEX +2b: success (5) · 3d6 keep highest [2, 5, 5] · net +2: +2 boons
    >>> crux_cli.odds("DEX +2b").outcomes["success"]
    Fraction(19, 27)

The API's names are loaded on first use (module `__getattr__`), so `crux` on the command
line does not pay for them, and importing crux_cli never imports click or prompt-toolkit.
"""

# No `from __future__ import annotations` here: at run time it imports the __future__ module, read from disk
# in an installed crux before the Ctrl-C handler below is set, and a Ctrl-C in that read came back as a
# traceback in this file (tests/test_streams_and_echo.py). The annotations here need no postponing.
import os
import sys


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C while the `crux` program is still being imported: leave as an interrupted command does
    (status 130), not with a traceback of whichever import it fell in. At once: a SystemExit raised here
    can land in a callback of the import system, which ignores it. `crux_cli.__main__` hands Ctrl-C
    back to Python once the command line is imported, and the command line handles it from there."""
    os._exit(130)


def _is_the_program(argv0: str) -> bool:
    """Is this the `crux` program (`python -m crux_cli`, the console script), not a library's import? The script's
    name as each platform gives it: `/usr/bin/crux`, `C:\\...\\Scripts\\crux.exe`, `crux-script.py`, any case."""
    name = argv0.replace("\\", "/").rpartition("/")[2].lower()
    return argv0 == "-m" or name in ("crux", "crux.exe", "crux-script.py")


if sys.argv and _is_the_program(sys.argv[0]):  # the program, not a library
    # _signal, the interpreter's own module, is loaded already: `import signal` runs Python code (its enums),
    # and a Ctrl-C during it came back as a traceback in this file (tests/test_streams_and_echo.py)
    import _signal  # type: ignore[import-not-found]

    try:
        _signal.signal(_signal.SIGINT, _interrupted)
    except KeyboardInterrupt:  # a Ctrl-C still pending: signal() runs the handler it replaces first
        _interrupted(_signal.SIGINT, None)

from typing import TYPE_CHECKING, Any  # noqa: E402

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ below imports them on first use
    from crux_cli.api import CruxError as CruxError
    from crux_cli.api import Hero as Hero
    from crux_cli.api import LimitError as LimitError
    from crux_cli.api import OddsComparison as OddsComparison
    from crux_cli.api import OddsResult as OddsResult
    from crux_cli.api import RollResult as RollResult
    from crux_cli.api import Session as Session
    from crux_cli.api import SheetError as SheetError
    from crux_cli.api import compare as compare
    from crux_cli.api import format_error as format_error
    from crux_cli.api import new_hero as new_hero
    from crux_cli.api import odds as odds
    from crux_cli.api import read_sheet as read_sheet
    from crux_cli.api import roll as roll
    from crux_cli.api import rolls as rolls
    from crux_cli.api import write_sheet as write_sheet

__version__ = "0.1.0"

API = ("roll", "rolls", "odds", "compare", "Session", "RollResult", "OddsResult", "OddsComparison", "CruxError",
       "LimitError", "SheetError", "format_error", "new_hero", "read_sheet", "write_sheet", "Hero")
__all__ = ["__version__", *API]


def __getattr__(name: str) -> Any:
    if name in API:
        from crux_cli import api

        return getattr(api, name)
    raise AttributeError(f"module 'crux_cli' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *API])
