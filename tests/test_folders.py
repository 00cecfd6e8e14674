"""crux's folders where each platform keeps them (state/files.py `user_folder`), and an OSError that escapes a
command said as what it is (running/streams.py `os_error`), the traceback under CRUX_DEBUG=1 (issue 38)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from crux_cli.running.config import config_path
from crux_cli.state import files
from crux_cli.state.files import user_folder

HOME = {"HOME": "/home/ann"}
WINDOWS = {"HOME": "/nowhere", "USERPROFILE": "C:\\Users\\ann", "APPDATA": "C:\\Users\\ann\\AppData\\Roaming",
           "LOCALAPPDATA": "C:\\Users\\ann\\AppData\\Local"}


@pytest.fixture
def platform(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def on(name: str) -> None:
        monkeypatch.setattr(files, "PLATFORM", name)
    return on


def test_linux_keeps_the_xdg_folders_existing_stores_live_in(platform) -> None:  # type: ignore[no-untyped-def]
    platform("linux")
    assert user_folder("STATE", HOME) == "/home/ann/.local/state/crux"
    assert user_folder("CONFIG", HOME) == "/home/ann/.config/crux"
    assert user_folder("DATA", HOME) == "/home/ann/.local/share/crux"
    assert user_folder("STATE", {**HOME, "XDG_STATE_HOME": "/srv/state"}) == "/srv/state/crux"
    assert user_folder("STATE", {**HOME, "XDG_STATE_HOME": "relative"}) == "/home/ann/.local/state/crux"  # XDG: ignored


def test_macos_keeps_them_in_application_support(platform) -> None:  # type: ignore[no-untyped-def]
    platform("darwin")
    for kind in ("STATE", "CONFIG", "DATA"):
        assert user_folder(kind, HOME) == "/home/ann/Library/Application Support/crux"
    assert user_folder("CONFIG", {**HOME, "XDG_CONFIG_HOME": "/x"}) == "/x/crux"  # a variable set still wins


def test_windows_keeps_state_local_and_config_and_data_roaming(platform) -> None:  # type: ignore[no-untyped-def]
    platform("win32")
    assert user_folder("STATE", WINDOWS) == os.path.join(WINDOWS["LOCALAPPDATA"], "crux")
    assert user_folder("CONFIG", WINDOWS) == os.path.join(WINDOWS["APPDATA"], "crux")
    assert user_folder("DATA", WINDOWS) == os.path.join(WINDOWS["APPDATA"], "crux")
    bare = {"HOME": "/nowhere", "USERPROFILE": "C:\\Users\\ann"}  # the variables unset: the profile's own folders
    assert user_folder("STATE", bare) == os.path.join("C:\\Users\\ann", "AppData", "Local", "crux")
    assert config_path({**WINDOWS, "CRUX_CONFIG": "D:\\crux.toml"}) == "D:\\crux.toml"  # CRUX_CONFIG still wins


def test_an_older_cruxs_xdg_folder_is_kept_on_macos_and_windows(platform, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home = {"HOME": str(tmp_path), "USERPROFILE": str(tmp_path), "LOCALAPPDATA": str(tmp_path / "Local")}
    (tmp_path / ".local" / "state" / "crux").mkdir(parents=True)  # where crux kept its store before
    for name in ("darwin", "win32"):
        platform(name)
        assert user_folder("STATE", home) == str(tmp_path / ".local" / "state" / "crux")
        assert user_folder("DATA", home) != str(tmp_path / ".local" / "share" / "crux")  # none there: native


def test_finding_a_folder_imports_nothing(platform) -> None:  # type: ignore[no-untyped-def]
    before = set(sys.modules)
    for name in ("linux", "darwin", "win32"):
        platform(name)
        user_folder("STATE", WINDOWS | HOME)
    assert set(sys.modules) - before == set()


# An OSError raised deep in a command (a lock the file system refuses), not by the output.
LOCK_REFUSED = """
import errno, sys
import crux_cli.state.locking as locking
def acquire(descriptor, wait=True):
    raise OSError(errno.ENOLCK, "No locks available")
locking.acquire = acquire
sys.argv = ["crux", *sys.argv[1:]]
from crux_cli.__main__ import main
main()
"""


def crux_with_a_refused_lock(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LOCK_REFUSED, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "NO_COLOR": "1", **env})


@pytest.mark.parametrize("statement", ["damage 1", "DEX"])
def test_an_os_error_is_said_as_what_it_is(tmp_path: Path, statement: str) -> None:
    sheet = tmp_path / "w.toml"
    sheet.write_text('name = "Wren"\n', encoding="utf-8")
    result = crux_with_a_refused_lock("--sheet", str(sheet), statement)
    assert result.returncode == 1
    assert "cannot write the output" not in result.stderr
    assert "No locks available (ENOLCK)" in result.stderr and "CRUX_DEBUG=1" in result.stderr
    assert "Traceback" not in result.stderr
    debug = crux_with_a_refused_lock("--sheet", str(sheet), statement, CRUX_DEBUG="1")
    assert "Traceback (most recent call last)" in debug.stderr and "acquire" in debug.stderr
    assert "No locks available (ENOLCK)" in debug.stderr


def test_an_output_that_cannot_be_written_is_still_said_so(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "crux_cli", "d6"], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.startswith("crux: cannot write the output: No space left on device"), result.stderr
