"""The config file: where it is, what it may say, how a bad one is reported, and what it costs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_crux

from crux_cli.core.style import Palette, output_codes, sgr
from crux_cli.repl.style import repl_styles
from crux_cli.running.config import (
    DEFAULTS_TEXT,
    Config,
    config_path,
    expand_aliases,
    load_config,
    write_defaults,
)


def config(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config({"CRUX_CONFIG": str(path)})


def test_the_path_follows_xdg_and_crux_config() -> None:
    assert config_path({"XDG_CONFIG_HOME": "/x", "HOME": "/h"}) == "/x/crux/config.toml"
    assert config_path({"XDG_CONFIG_HOME": "relative", "HOME": "/h"}) == "/h/.config/crux/config.toml"
    assert config_path({"CRUX_CONFIG": "/elsewhere.toml", "XDG_CONFIG_HOME": "/x"}) == "/elsewhere.toml"


def test_no_file_is_the_defaults(tmp_path: Path) -> None:
    assert load_config({"CRUX_CONFIG": str(tmp_path / "none.toml")}) == Config()


def test_the_commented_defaults_read_as_the_defaults(tmp_path: Path) -> None:
    loaded = config(tmp_path, DEFAULTS_TEXT)
    assert loaded.problem is None
    assert (loaded.rules, loaded.theme, loaded.edit_mode, dict(loaded.aliases)) == (
        None, "default", "emacs", {})


def test_every_key_is_read(tmp_path: Path) -> None:
    loaded = config(tmp_path, 'rules = "challenge"\nsheet = "~/wren.toml"\ntheme = "mono"\nedit-mode = "vi"\n'
                              'pager = "less -RS"\ntoolbar = ["seed", "rules"]\n[colors]\ngood = "#ff8700 bold"\n'
                              '[aliases]\nSmite = "atk 2d8+3 heavy"\n')
    assert loaded.problem is None
    assert (loaded.rules, loaded.theme, loaded.edit_mode, loaded.pager, loaded.toolbar) == (
        "challenge", "mono", "vi", "less -RS", ("seed", "rules"))
    assert loaded.sheet == os.path.expanduser("~/wren.toml")
    assert dict(loaded.colors) == {"good": "#ff8700 bold"} and dict(loaded.aliases) == {"smite": "atk 2d8+3 heavy"}


@pytest.mark.parametrize(("text", "where", "reason"), [
    ('rules = "crux"\nrulez = "crux"\n', ":2:", "'rulez' is not a key: did you mean 'rules'?"),
    ('theme = "mon"\n', ":1:", "did you mean 'mono'?"),
    ('edit-mode = "vim"\n', ":1:", "did you mean 'vi'?"),
    ('rules = "stepdic"\n', ":1:", "did you mean 'stepdice'?"),
    ('\n[colors]\nprompy = "ansigreen"\n', ":3:", "did you mean 'prompt'?"),
    ('\n[colors]\ngood = "gren"\n', ":3:", "'gren' is neither a colour"),
    ('pager = 3\n', ":1:", "pager is true, false or a command"),
    ('[aliases]\n"two words" = "DEX"\n', ":2:", "cannot be an alias name"),
    ('rules = "crux\n', ":1:", ""),
])
def test_a_bad_file_is_reported_with_its_line_and_reason_and_not_used(tmp_path: Path, text: str, where: str,
                                                                        reason: str) -> None:
    loaded = config(tmp_path, text)
    assert loaded.problem is not None and loaded.problem.startswith(f"{tmp_path / 'config.toml'}{where} ")
    assert reason in loaded.problem
    assert loaded.rules is None and loaded.theme == "default"  # the defaults


def test_the_command_warns_about_a_bad_file_and_rolls_with_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('rules = "challenge"\ntheme = 7\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "crux_cli", "--seed", "3", "DEX +2b"], capture_output=True,
                          text=True, env={**os.environ, "CRUX_CONFIG": str(path)}, check=False)
    assert done.returncode == 0 and done.stdout.startswith("DEX +2b: success (5)")  # crux rules, not challenge
    assert f"{path}:2: theme must be a string" in done.stderr


def test_the_config_sets_the_default_rule_set_but_the_command_line_wins(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('rules = "stepdice"\n', encoding="utf-8")
    env = {**os.environ, "CRUX_CONFIG": str(path)}
    run = [sys.executable, "-m", "crux_cli", "--seed", "1", "--json"]
    assert '"rules": "stepdice"' in subprocess.run([*run, "save d8"], capture_output=True, text=True, env=env).stdout
    done = subprocess.run([*run, "--rules", "crux", "save WIL"], capture_output=True, text=True, env=env)
    assert '"rules": "crux"' in done.stdout


def test_aliases_expand_at_the_start_of_each_statement() -> None:
    aliases = {"smite": "atk 2d8+3 heavy", "sneak": "DEX +1b"}
    expanded = expand_aliases("smite rushed; Sneak grit # goblin", aliases)
    assert expanded == "atk 2d8+3 heavy rushed; DEX +1b grit # goblin"
    assert expand_aliases("  DEX  +1b", aliases) == "  DEX  +1b"  # untouched when no alias is used
    assert expand_aliases("smite", {}) == "smite"


def test_the_defaults_are_written_once_and_never_over_a_file(tmp_path: Path) -> None:
    path = tmp_path / "crux" / "config.toml"
    assert write_defaults(path) and path.read_text(encoding="utf-8") == DEFAULTS_TEXT
    path.write_text("# mine\n", encoding="utf-8")
    assert not write_defaults(path) and path.read_text(encoding="utf-8") == "# mine\n"


def test_styles_become_escape_codes_without_prompt_toolkit() -> None:
    assert sgr("bold ansimagenta") == "1;35" and sgr("ansibrightred") == "91" and sgr("bg:ansiblue") == "44"
    assert sgr("#ff8700 underline") == "4;38;2;255;135;0"
    with pytest.raises(ValueError):
        sgr("gren")
    palette = Palette(True, output_codes("default", {"good": "ansiblue underline"}))
    assert palette.paint("success", "good") == "\x1b[4;34msuccess\x1b[0m"
    assert palette.outcome("hit", {"hit": "good"}) == "\x1b[4;34mhit\x1b[0m"  # every good outcome of a rule set


def test_without_colour_suggestions_and_bad_words_keep_an_attribute() -> None:
    styles = repl_styles("default", {"suggestion": "ansired"}, no_color=True)
    assert "italic" in styles["auto-suggestion"] or "underline" in styles["auto-suggestion"]
    assert "reverse" in styles["error"]


def test_reading_no_config_costs_the_one_shot_path_no_toml_import() -> None:
    probe = ("import sys\nfrom crux_cli.cli import main\n"
             "try:\n    main(['--seed', '1', 'DEX', '+1b'])\nexcept SystemExit:\n    pass\n"
             "print('tomllib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "CRUX_CONFIG": "/nonexistent/config.toml"})
    assert done.stdout.splitlines()[-1] == "False"


def test_the_readme_example_is_a_config_crux_takes(tmp_path: Path) -> None:
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Preferences"):]
    example = re.search(r"```toml\n(.*?)```", section, re.S)
    assert example is not None
    loaded = config(tmp_path, example.group(1))
    assert loaded.problem is None and loaded.edit_mode == "vi" and "smite" in loaded.aliases


def test_sheet_statements_get_did_you_mean_too() -> None:
    from crux_cli.core.errors import CruxError
    from crux_cli.running.runner import Runner

    with pytest.raises(CruxError) as caught:
        Runner().execute("rest feild 2")
    assert (caught.value.hint or "").startswith("did you mean 'field'?")


def test_the_untouched_defaults_are_read_without_the_toml_reader(tmp_path: Path) -> None:
    """The file crux writes sets nothing, so reading it needs no tomllib (10 ms of every command)."""
    path = tmp_path / "config.toml"
    path.write_text(DEFAULTS_TEXT, encoding="utf-8")
    script = ("import sys; from crux_cli.running.config import load_config, Config; "
              f"c = load_config({{'CRUX_CONFIG': {str(path)!r}}}); "
              "assert c.problem is None and c.rules is None and not c.aliases; "
              "print('tomllib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    # one value set, and the reader reads it
    assert config(tmp_path, DEFAULTS_TEXT.replace('# rules = "crux"', 'rules = "stepdice"')).rules == "stepdice"
    assert config(tmp_path, "[colors] # the table, with a comment after it\n").problem is None


# -- a hostile config: read as sheets are read, every failure a one-line warning and the defaults ---------------

HOSTILE_CONFIGS = {
    "nested brackets": "a = " + "[" * 10_000 + "]" * 10_000 + "\n",
    "a 5,000-digit number": "a = " + "9" * 5_000 + "\n",
    "a 3,000-level inline table": "a = " + "{b = " * 3_000 + "1" + "}" * 3_000 + "\n",
    "a deep value where a string goes": "rules = " + "[" * 900 + "]" * 900 + "\n",
    "a 4,200-digit number where a string goes": "rules = " + "9" * 4_200 + "\n",
    "a 100,000-letter key": "[" + "x" * 100_000 + "]\na = 1\n",
    "a 100,000-letter alias name": '[aliases]\n"' + "x y" * 30_000 + '" = "DEX"\n',
    "a huge float": "pager = 1e999999\n",
    "bytes that are not UTF-8": "rules = \"caf\udce9\"\n",
}


@pytest.mark.parametrize("name", HOSTILE_CONFIGS)
def test_a_hostile_config_is_a_one_line_warning_and_the_defaults(tmp_path: Path, name: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(HOSTILE_CONFIGS[name].encode("utf-8", "surrogateescape"))
    loaded = load_config({"CRUX_CONFIG": str(path)})
    assert loaded.problem is not None and loaded.problem.startswith(str(path))
    assert "\n" not in loaded.problem and len(loaded.problem) < 300
    assert loaded.rules is None and loaded.theme == "default" and loaded.pager is True


def test_a_config_over_1_mb_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# padding\n" * 110_000, encoding="utf-8")
    assert load_config({"CRUX_CONFIG": str(path)}).problem == f"{path}: is larger than 1 MB"


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "/dev/urandom", "directory"])
def test_a_config_that_is_not_a_regular_file_is_never_read(tmp_path: Path, special: str) -> None:
    """A FIFO would hang every command; a character device would be read until memory runs out. The config
    path is chosen through XDG_CONFIG_HOME, as a user's would be, with a symbolic link to the special file."""
    folder = tmp_path / "xdg" / "crux"
    folder.mkdir(parents=True)
    if special == "fifo":
        target = tmp_path / "fifo"
        os.mkfifo(target)
    elif special == "directory":
        target = tmp_path / "a-folder"
        target.mkdir()
    else:
        target = Path(special)
        if not target.exists():
            pytest.skip(f"no {special} here")
    (folder / "config.toml").symlink_to(target)
    done = run_crux("--seed", "2", "d6", env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, timeout=10)
    assert done.returncode == 0 and done.stdout == "d6: 2 · 1d6 [2]\n"
    warning = done.stderr.splitlines()
    assert warning[0].startswith(f"crux: warning: the config file is not used: {folder / 'config.toml'}: is ")
    assert "not a regular file" in warning[0] and "Traceback" not in done.stderr


def test_the_command_survives_a_hostile_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(HOSTILE_CONFIGS["nested brackets"], encoding="utf-8")
    done = run_crux("--seed", "2", "d6", env={"CRUX_CONFIG": str(path)})
    assert done.returncode == 0 and done.stdout == "d6: 2 · 1d6 [2]\n"
    assert done.stderr.startswith(f"crux: warning: the config file is not used: {path}: nested too deeply to read\n")


def test_a_config_alias_named_like_a_statement_word_is_left_out_with_its_line(tmp_path: Path) -> None:
    """`roll = "DEX +1b"` made `crux roll 2d6` roll DEX, silently; /alias refuses such a name."""
    path = tmp_path / "config.toml"
    path.write_text('[aliases]\nroll = "DEX +1b"\nsmite = "atk 2d8+3 heavy"\n', encoding="utf-8")
    for args, stdin in ((["--seed", "1", "roll 2d6"], None), (["--seed", "1", "-"], "roll 2d6\n")):
        done = run_crux(*args, stdin=stdin, env={"CRUX_CONFIG": str(path)})
        assert done.returncode == 0 and done.stdout.startswith("roll 2d6: 6 · 2d6"), done.stdout
        assert done.stderr == (f"crux: warning: the config file's alias 'roll' is not used: {path}:2: 'roll' is "
                               "already a statement word (pick another name)\n")
    done = run_crux("--seed", "1", "smite", env={"CRUX_CONFIG": str(path)})
    assert done.stdout.startswith("atk 2d8+3 heavy: ") and "'smite'" not in done.stderr  # the others work


def test_a_config_alias_named_in_capitals_is_said_as_written_with_its_line(tmp_path: Path) -> None:
    """`DEX = "STR"` is the alias `dex`, a statement word: left out with a warning that names it as the file
    spells it, with its line and why; one in capitals that hides nothing works in any case (issue 38)."""
    path = tmp_path / "config.toml"
    path.write_text('[aliases]\nsmite = "atk 2d8"\nDEX = "STR +1b"\nGoblin = "atk d6"\n', encoding="utf-8")
    done = run_crux("--seed", "1", "DEX", env={"CRUX_CONFIG": str(path)})
    assert done.returncode == 0 and done.stdout.startswith("DEX: "), done.stdout
    assert done.stderr == (f"crux: warning: the config file's alias 'DEX' is not used: {path}:3: 'dex' is already a "
                           "statement word (an alias's name is read in any case: 'DEX' is 'dex') (pick another name)\n")
    for word in ("goblin", "GOBLIN"):
        done = run_crux("--seed", "1", word, env={"CRUX_CONFIG": str(path)})
        assert done.stdout.startswith("atk d6: "), done.stdout


@pytest.mark.parametrize(("text", "needs_tomllib", "aliases"), [
    ('rules = "stepdice"\n\n[aliases]\nfb = "save d8"  # a comment\n', False, {"fb": "save d8"}),
    ('rules = "stepdice"\n\n[aliases]\nfb = "save d8\\tnow"\n', True, {"fb": "save d8\tnow"}),  # an escape
])
def test_a_plain_config_is_read_without_tomllib(tmp_path: Path, text: str, needs_tomllib: bool,
                                                aliases: dict[str, str]) -> None:
    (tmp_path / "config.toml").write_text(text)
    script = ("import sys; from crux_cli.running.config import load_config; "
              "c = load_config({'CRUX_CONFIG': sys.argv[1]}); "
              "print(repr(('tomllib' in sys.modules, c.rules, dict(c.aliases))))")
    shown = subprocess.run([sys.executable, "-c", script, str(tmp_path / "config.toml")], capture_output=True,
                           text=True, check=True).stdout
    assert shown.strip() == repr((needs_tomllib, "stepdice", aliases))
