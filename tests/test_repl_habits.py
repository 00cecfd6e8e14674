"""The REPL's habits through a real pseudo-terminal (pexpect): the config file, vi keys and F4,
the pager, NO_COLOR marks, Ctrl-C, Up by prefix, suggestions, wrapping."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pexpect
import pyte
import pytest
from helpers.terminal import ESC, F4, PROMPT, UP, crux_command, leave, leave_now, screen, settle, with_config
from helpers.terminal import start as start_terminal

from crux_cli.core.errors import CruxError
from crux_cli.running.runner import Runner

pytestmark = pytest.mark.slow  # real pseudo-terminals (pexpect), a process each: 20 s of the fast tier otherwise


def marked(char: pyte.screens.Char) -> bool:
    """Drawn unlike plain text without any colour: italic, underlined or reversed."""
    return bool(char.italics or char.underscore or char.reverse)


@pytest.fixture
def children() -> Iterator[list[pexpect.spawn]]:
    started: list[pexpect.spawn] = []
    yield started
    for child in started:
        if child.isalive():
            child.terminate(force=True)


def start(environ: dict[str, str], *args: str, rows: int = 30, columns: int = 120,
          prompt: str = PROMPT) -> pexpect.spawn:
    """`helpers.terminal.start`, drawing onto a screen these tests read."""
    return start_terminal(environ, *args, rows=rows, columns=columns, prompt=prompt, screen=True)


# -- NO_COLOR, Ctrl-C, suggestions, history ---------------------------------------------------------

def test_under_no_color_a_suggestion_is_drawn_unlike_typed_text(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    child.sendline("DEX +2b")
    child.expect_exact("partial")
    child.expect_exact(PROMPT)
    child.send("DE")
    shown = screen(child, "DEX +2b")
    line = shown.chars("crux> DEX +2b")
    assert not any(marked(char) for char in line[6:8]), "typed text is drawn plain"
    assert all(marked(char) for char in line[8:] if char.data != " "), "the suggestion is italic or underlined"
    child.sendcontrol("c")
    child.expect_exact("^C")  # the abandoned line's last drawing (with a prompt) comes before the new prompt
    assert leave(child) == 0


def test_a_bad_word_is_marked_without_colour(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl")
    children.append(child)
    child.send("save WIL avd ")  # a word still being typed is never marked; one followed by a space is
    shown = screen(child, "save WIL avd")
    assert all(marked(char) for char in shown.chars("avd"))
    assert not any(marked(char) for char in shown.chars("save WIL"))
    child.sendcontrol("c")
    child.expect_exact("^C")  # the abandoned line's last drawing (with a prompt) comes before the new prompt
    assert leave(child) == 0


def test_ctrl_c_leaves_the_abandoned_line_visible_with_a_caret_c(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    child.send("atk 2d8")
    screen(child, "atk 2d8")
    child.sendcontrol("c")
    child.expect_exact("^C")
    child.expect_exact(PROMPT)
    shown = screen(child)
    assert shown.row("crux> atk 2d8^C") < shown.row("crux> ")  # the line stays, a new prompt below it
    child.sendline("DEX +2b")  # a new, empty line: the abandoned text is not part of it
    child.expect_exact("DEX +2b: partial (3)")
    assert leave(child) == 0


def test_a_refused_line_is_not_offered_back_as_a_suggestion(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    child.sendline("DEX +1b")
    child.expect_exact("partial")
    child.sendline("DEX +2")
    child.expect_exact("hint")
    child.expect_exact(PROMPT)
    child.send("DEX +")
    shown = screen(child, "crux> DEX +1")
    assert shown.screen.display[shown.row("DEX +")].rstrip().endswith("crux> DEX +1b")  # not the refused +2
    child.sendcontrol("c")
    child.expect_exact("^C")  # the abandoned line's last drawing (with a prompt) comes before the new prompt
    assert leave(child) == 0


def test_up_recalls_only_lines_that_start_with_what_is_typed(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    for line in ("save WIL adv", "DEX +1b", "init"):
        child.sendline(line)
        child.expect_exact(f"{line}: ")
    child.send("sa")
    child.send(UP)
    settle(child)
    child.send("\r")
    child.expect_exact("save WIL adv: ")
    assert leave(child) == 0


def test_hints_wrap_at_word_boundaries_to_the_terminal(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", columns=60)
    children.append(child)
    child.sendline("save WIL avd")
    child.expect_exact("hint:")
    child.expect_exact(PROMPT)
    shown = screen(child, "hint:")
    first = shown.row("hint:")
    lines = [line.rstrip() for line in shown.screen.display[first:] if line.strip() and "crux>" not in line]
    assert len(lines) >= 2 and all(len(line) <= 60 for line in lines)
    words = " ".join(line.strip() for line in lines).split()
    with pytest.raises(CruxError) as refused:
        Runner().execute("save WIL avd")
    hint = ["hint:", *(refused.value.hint or "").split()]
    assert words[words.index("hint:"):] == hint  # every word whole, none cut in two
    assert leave_now(child) == 0


# -- vi keys, F4, the pager ---------------------------------------------------------------------------

def test_vi_mode_from_the_config_file(environ: dict[str, str], children: list) -> None:
    child = start(with_config(environ, 'edit-mode = "vi"\n'), "repl", "--seed", "1")
    children.append(child)
    child.send("4d6kh3")
    child.send(ESC)  # to normal mode
    settle(child, 0.3)
    child.send("0x")  # start of line, delete the 4
    settle(child, 0.3)
    child.send("\r")
    child.expect_exact("d6kh3: ")
    assert leave(child) == 0


def test_f4_switches_from_emacs_to_vi_keys(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    child.send(F4)
    settle(child, 0.3)
    child.send("4d6kh3")
    child.send(ESC)
    settle(child, 0.3)
    child.send("0x")  # start of line, delete the 4: only vi keys do that (Emacs would type 'x')
    settle(child, 0.3)
    child.send("\r")
    child.expect_exact("d6kh3: ")
    assert leave(child) == 0


def test_tall_output_goes_through_the_pager(environ: dict[str, str], children: list) -> None:
    child = start(environ, "repl", rows=12, columns=80)
    children.append(child)
    child.sendline("odds atk 2d8+3")
    child.expect_exact("exact odds")
    child.expect(r"\n(:|\(END\))")  # less's prompt at the foot of the screen: the session waits for it
    child.send("q")
    child.expect_exact(PROMPT)
    child.sendline("DEX")  # the session goes on after the pager
    child.expect_exact("DEX: ")
    assert leave(child) == 0


def test_ctrl_c_in_the_pager_quits_it_and_leaves_the_page(environ: dict[str, str], children: list) -> None:
    """Ctrl-C while less shows the odds is less's (LESS=FRXK): it quits, the page stays on the screen (X, as
    git and pgcli have it), no "cancelled", and nothing the terminal answered is typed into the prompt."""
    for _ in range(3):  # it went wrong in 3 of 5 tries: every try must be right
        child = start(environ, "repl", rows=12, columns=80)
        children.append(child)
        child.sendline("odds atk 2d8+3")
        child.expect_exact("exact odds")
        child.expect(r"\n(:|\(END\))")  # less's prompt at the foot of the screen
        child.sendcontrol("c")
        child.expect_exact(PROMPT)
        shown = screen(child, PROMPT)
        text = "\n".join(shown.screen.display)
        assert "cancelled" not in text
        assert "miss" in text or "damage" in text  # the page is still there
        child.sendline("DEX")
        child.expect_exact("DEX: ")
        prompt_line = shown.screen.display[shown.row("DEX: ")]
        assert prompt_line.startswith("DEX: ") or "crux> DEX" in text, prompt_line
        assert "R" not in shown.screen.display[shown.row("crux> DEX")].replace("crux> DEX", "").strip()
        assert leave(child) == 0


def test_the_pager_can_be_switched_off(environ: dict[str, str], children: list) -> None:
    child = start(with_config(environ, "pager = false\n"), "repl", rows=12, columns=80)
    children.append(child)
    child.sendline("odds atk 2d8+3")
    child.expect_exact("mean")  # all of it printed at once, no pager to leave
    assert leave(child) == 0


# -- the config file --------------------------------------------------------------------------------

CONFIG = """\
theme = "bright"
edit-mode = "vi"
[colors]
good = "ansiblue underline"
prompt = "ansimagenta underline"
[aliases]
smite = "atk 2d8+3 heavy"
"""


def test_the_config_file_is_honoured_by_the_repl(environ: dict[str, str], children: list) -> None:
    environ = with_config({k: v for k, v in environ.items() if k != "NO_COLOR"}, CONFIG)
    child = start(environ, "repl", "--seed", "1")
    children.append(child)
    prompt = screen(child, "crux>").chars("crux>")
    assert all(char.fg == "magenta" and char.underscore for char in prompt)  # the [colors] override
    child.sendline("smite # goblin")
    child.expect_exact("atk 2d8+3 heavy")
    child.expect_exact(": ")
    child.expect_exact(PROMPT)
    child.send("4d6")
    child.send(ESC)
    settle(child, 0.3)
    child.send("0x\r")  # vi keys: the 4 deleted
    child.expect_exact("1d6 [")
    assert leave(child) == 0


def test_the_config_file_is_honoured_by_the_one_shot_command(environ: dict[str, str]) -> None:
    environ = with_config({k: v for k, v in environ.items() if k != "NO_COLOR"}, CONFIG)
    command, *rest = crux_command()
    child = pexpect.spawn(command, [*rest, "--seed", "3", "DEX +2b"], env=environ, encoding="utf-8", timeout=10)
    child.expect(pexpect.EOF)
    assert "\x1b[4;34msuccess" in child.before  # the [colors] override, on a terminal
    child.close()
    child = pexpect.spawn(command, [*rest, "--seed", "1", "smite"], env=environ, encoding="utf-8", timeout=10)
    child.expect(pexpect.EOF)
    assert "atk 2d8+3 heavy" in child.before
    child.close()
    assert child.exitstatus == 0


def test_the_first_session_writes_the_commented_defaults_once(environ: dict[str, str], children: list) -> None:
    path = Path(environ["XDG_CONFIG_HOME"]) / "crux" / "config.toml"
    child = start(environ, "repl")
    children.append(child)
    assert leave_now(child) == 0
    written = path.read_text(encoding="utf-8")
    assert "# rules = " in written and "[aliases]" in written
    path.write_text('rules = "stepdice"\n', encoding="utf-8")
    again = start(environ, "repl", prompt="stepdice> ")  # the user's file was read, and not rewritten
    children.append(again)
    again.sendline("save d8")
    again.expect_exact("save d8: ")
    again.expect_exact("stepdice> ")
    assert leave_now(again) == 0
    assert path.read_text(encoding="utf-8") == 'rules = "stepdice"\n'
