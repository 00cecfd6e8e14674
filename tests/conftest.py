"""The fixtures every test gets: a state directory of its own and no user config.

The shared helpers (`crux_here`, `run_crux`, `roll`, `scripted`, the terminal harness) are the package
`tests/helpers/`: import them from there (`from helpers import crux_here`), never from this file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis's per-example deadline (200 ms) is a timed assertion: a busy machine fails it by chance. Examples
# are bounded by their count, and the work they test by the tests' own counts, never by the clock.
settings.register_profile("crux", deadline=None)
settings.load_profile("crux")

# Every crux a test runs keeps its journal and autosaves here, never in the user's own state directory.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="crux-test-state-")


@pytest.fixture(autouse=True, scope="session")
def no_user_config(tmp_path_factory: pytest.TempPathFactory) -> object:
    """No test reads the developer's crux config or writes one into their home (subprocesses included)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
        patch.delenv("CRUX_CONFIG", raising=False)
        yield


@pytest.fixture(autouse=True)
def own_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own journal and autosaves: a fight one test leaves is never offered to the next."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


@pytest.fixture
def environ(tmp_path: Path, own_state_dir: Path) -> dict[str, str]:
    """A clean environment for the REPL in a real terminal (`helpers.terminal`), with this test's folders."""
    from helpers import terminal

    return terminal.environ(tmp_path)
