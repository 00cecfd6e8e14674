"""The real prompt-toolkit loop driven through its pipe input: keys in, printed lines out.

Keys are fed in steps from a thread because prompt-toolkit computes completions,
history and suggestions between key presses, as it does for a person typing.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from crux_cli.repl.app import run_repl
from crux_cli.repl.history import data_dir, open_history
from crux_cli.running.settings import Settings
from crux_cli.state.files import private_file

UP, RIGHT, CTRL_C, CTRL_D, CTRL_R, TAB = "\x1b[A", "\x1b[C", "\x03", "\x04", "\x12", "\t"
BANNER = 1


def drive(*steps: str, seed: int | None = 1, history: History | None = None) -> tuple[int, list[str]]:
    """Run a session on `steps` (each sent after the previous was handled); (status, printed lines)."""
    printed: list[str] = []
    finished, stuck = threading.Event(), threading.Event()
    with create_pipe_input() as keys:

        def type_steps() -> None:
            for step in steps:
                time.sleep(0.25)  # ample for the completion, history or suggestion of the step before
                keys.send_text(step)
            if not finished.wait(10):  # the session should have ended: end it, so the test fails, not hangs
                stuck.set()
                keys.send_text(CTRL_C + CTRL_D)

        typist = threading.Thread(target=type_steps, daemon=True)
        typist.start()
        status = run_repl(Settings(seed=seed), input=keys, output=DummyOutput(),
                          history=history or InMemoryHistory(), write=printed.append)
        finished.set()
        typist.join()
    assert not stuck.is_set(), f"the session did not end after {steps!r}"
    return status, "".join(printed).splitlines()[BANNER:]


def test_a_roll_prints_and_ctrl_d_leaves_with_status_0() -> None:
    status, lines = drive("DEX +2b\r", CTRL_D)
    assert status == 0
    assert lines == ["DEX +2b: partial (3) · 3d6 keep highest [3, 3, 2] · net +2: +2 boons"]


def test_an_error_shows_the_caret_and_the_session_goes_on() -> None:
    status, lines = drive("save XYZ\r", "init\r", "/quit\r")
    assert status == 0
    assert lines[:3] == ["crux: error: unknown attribute 'XYZ'", "  save XYZ", "       ^"]
    assert lines[-1].startswith("init: ")


def test_tab_completes_the_statement_word() -> None:
    _, lines = drive("sa", TAB, " WIL adv\r", CTRL_D)
    assert lines[0].startswith("save WIL adv: ")


def test_ctrl_c_clears_the_line_and_the_session_goes_on() -> None:
    _, lines = drive("atk 9d6", CTRL_C, "init\r", CTRL_D)
    assert len(lines) == 1 and lines[0].startswith("init: ")


def test_up_recalls_and_ctrl_r_searches_history() -> None:
    # Enter leaves the search with the line found; the next Enter rolls it
    _, lines = drive("DEX +2b\r", "init\r", UP, "\r", CTRL_R, "DEX", "\r", "\r", CTRL_D)
    assert [line.split(":")[0] for line in lines] == ["DEX +2b", "init", "init", "DEX +2b"]


def test_right_arrow_takes_the_suggestion_from_history() -> None:
    _, lines = drive("save WIL adv\r", "sa", RIGHT, "\r", CTRL_D)
    assert [line.split(":")[0] for line in lines] == ["save WIL adv", "save WIL adv"]


def test_session_commands_work_at_the_prompt() -> None:
    _, lines = drive("/seed 5\r", "/alias sneak = DEX +1b\r", "sneak\r", "/history\r", "/quit\r", seed=None)
    assert lines[:2] == ["seed: 5", "sneak = DEX +1b"]
    assert lines[2].startswith("DEX +1b: ")
    assert lines[3] == "  1  " + lines[2]


def test_history_is_kept_in_a_file_across_sessions(tmp_path: Path) -> None:
    path = str(tmp_path / "history")
    drive("save WIL adv\r", CTRL_D, history=FileHistory(path))
    _, lines = drive(UP, "\r", CTRL_D, history=FileHistory(path))
    assert lines[0].startswith("save WIL adv: ")


def test_the_data_dir_follows_xdg_and_falls_back_to_local_share(tmp_path: Path) -> None:
    assert data_dir({"XDG_DATA_HOME": str(tmp_path), "HOME": "/home/x"}) == tmp_path / "crux"
    assert data_dir({"HOME": "/home/x"}) == Path("/home/x/.local/share/crux")
    assert data_dir({"XDG_DATA_HOME": "relative/dir", "HOME": "/home/x"}) == Path("/home/x/.local/share/crux")


def test_the_history_file_is_private_to_the_user(tmp_path: Path) -> None:
    history, warning = open_history({"XDG_DATA_HOME": str(tmp_path / "data")})
    assert warning is None and isinstance(history, FileHistory)
    folder, file = tmp_path / "data" / "crux", tmp_path / "data" / "crux" / "history"
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    file.chmod(0o644)
    private_file(file)  # an existing file left readable by others is closed again
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600


def test_a_history_that_cannot_be_written_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    history, warning = open_history({"XDG_DATA_HOME": str(blocker)})
    assert isinstance(history, InMemoryHistory)
    assert warning is not None and "history is not kept" in warning


def test_a_sheet_given_on_the_command_line_rolls_in_the_session(tmp_path: Path) -> None:
    sheet = tmp_path / "aria.toml"
    subprocess.run([sys.executable, "-m", "crux_cli", "sheet", "new", str(sheet), "--name", "Aria", "--no-ask"],
                   check=True, capture_output=True)
    printed: list[str] = []
    with create_pipe_input() as keys:
        keys.send_text("damage 4\r")
        keys.send_text(CTRL_D)
        run_repl(Settings(sheet=str(sheet)), input=keys, output=DummyOutput(), history=InMemoryHistory(),
                 write=printed.append)
    assert "HP 6/10" in "".join(printed)
