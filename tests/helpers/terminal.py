"""The one pexpect harness: the REPL in a real pseudo-terminal, as a user's shell would start it.

`environ(...)` is a clean environment for it (none of the user's pager, config, rule set or sheet;
no colour; its own history, config and state folders); `start` spawns `crux` in it and waits for
the prompt; `say` types a line at the next prompt and waits for the answers; `leave` ends it with
Ctrl-D. `start(..., screen=True)` also feeds everything drawn to a terminal emulator (`Screen`)
for tests of what the screen shows (colours, marks, wrapping).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pexpect
import pyte

PROMPT = "crux> "
UP = "\x1b[A"
ESC = "\x1b"
F4 = "\x1bOS"
# what a user's shell may carry that would change the session under test
STRIPPED = ("PAGER", "LESS", "CRUX_CONFIG", "CRUX_RULES", "CRUX_SHEET")


def crux_command() -> list[str]:
    """The console script installed beside this Python, else the module."""
    script = Path(sys.executable).parent / "crux"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crux_cli"]


def environ(folder: Path) -> dict[str, str]:
    """This process's environment less `STRIPPED`, with history, data and config under `folder` (the state
    folder is the test's own, set by conftest's `own_state_dir`)."""
    env = {k: v for k, v in os.environ.items() if k not in STRIPPED}
    return {**env, "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
            "TERM": "xterm-256color", "NO_COLOR": "1",
            "PROMPT_TOOLKIT_NO_CPR": "1"}  # pexpect does not answer cursor position requests


def with_config(environ: dict[str, str], text: str) -> dict[str, str]:
    """`environ`, with this text as the crux config file in its config folder."""
    path = Path(environ["XDG_CONFIG_HOME"]) / "crux" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return environ


class Screen:
    """A terminal emulator fed with everything the child prints: the screen as a user sees it."""

    def __init__(self, rows: int, columns: int) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)

    def write(self, text: str) -> None:
        self.stream.feed(text)

    def flush(self) -> None:
        pass

    def row(self, text: str) -> int:
        rows = [number for number, line in enumerate(self.screen.display) if text in line]
        assert rows, f"{text!r} is not on the screen:\n" + "\n".join(self.screen.display)
        return rows[-1]

    def chars(self, text: str) -> list[pyte.screens.Char]:
        """The cells of the last `text` on the screen, with their attributes."""
        number = self.row(text)
        column = self.screen.display[number].rindex(text)
        line = self.screen.buffer[number]
        return [line[column + i] for i in range(len(text))]


def start(environ: dict[str, str], *args: str, rows: int = 30, columns: int = 120, timeout: float = 10,
          cwd: Path | None = None, prompt: str | None = PROMPT, screen: bool = False) -> pexpect.spawn:
    """`crux ARGS…` in a terminal of this size; waits for `prompt` unless it is None."""
    command, *rest = crux_command()
    child = pexpect.spawn(command, [*rest, *args], env=environ, encoding="utf-8", timeout=timeout,
                          dimensions=(rows, columns), cwd=str(cwd) if cwd else None)
    if screen:
        child.logfile_read = Screen(rows, columns)
    if prompt is not None:
        child.expect_exact(prompt)
    return child


def say(child: pexpect.spawn, line: str, *expected: str) -> None:
    """Type `line` at the next prompt, then wait for each expected text in turn."""
    child.expect_exact(PROMPT)
    child.sendline(line)
    for text in expected:
        child.expect_exact(text)


def answered(child: pexpect.spawn, line: str, *expected: str) -> None:
    """Type `line`, wait for each expected text in turn, then for the next prompt (`say` waits for it first)."""
    child.sendline(line)
    for text in expected:
        child.expect_exact(text)
    child.expect_exact(PROMPT)


def leave(child: pexpect.spawn) -> int | None:
    """Ctrl-D at the next prompt (between prompts the terminal is cooked, and would eat a ^D itself)."""
    child.expect_exact(PROMPT)
    return leave_now(child)


def leave_now(child: pexpect.spawn) -> int | None:
    """Ctrl-D when the prompt is already there (read, or settled on the screen); the exit status."""
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def settle(child: pexpect.spawn, seconds: float = 0.6) -> None:
    """Read what the terminal draws in the next moment onto the screen; later expects see only newer output."""
    time.sleep(seconds)
    with contextlib.suppress(pexpect.TIMEOUT, pexpect.EOF):
        while True:
            child.read_nonblocking(65536, timeout=0.2)
    child.buffer = ""


def screen(child: pexpect.spawn, showing: str = "") -> Screen:
    """The screen once `showing` is on it (the last thing sent), and the redraw has settled."""
    shown: Screen = child.logfile_read
    deadline = time.monotonic() + 10
    while showing and not any(showing in line for line in shown.screen.display) and time.monotonic() < deadline:
        settle(child, 0.2)
    settle(child)
    return shown
