"""The completion scripts cannot drift from the CLI, and Tab offers the right words in real shells.

`crux --completion SHELL` generates a script from the click command when asked
(crux_cli.cli.completion); completions/, which pip installs under share/, holds the same
text, written by tools/gen_completions.py. The words that come from the rule sets are asked
of crux at Tab (`crux --completion-words`), so the crux on PATH must be this one.

bash is driven through its completion function (COMP_WORDS/COMP_CWORD set as
bash sets them) and once interactively; zsh interactively with compinit; fish
through `complete -C`. The shells must be installed (.ci/run installs them): a
missing shell fails the tests rather than skipping them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import click
import pexpect
import pytest
from click.testing import CliRunner
from helpers import gen_completions

from crux_cli import rulesets as rules
from crux_cli.cli import completion, crux
from crux_cli.cli.params import RuleSetName

ROOT = Path(__file__).resolve().parent.parent
tool = gen_completions()
SCRIPTS = {shell: ROOT / name for shell, name in tool.SCRIPT_FILES.items()}
# the `crux` a script asks at Tab: the one installed beside this Python, first on PATH
WITH_CRUX = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}


def shell_path(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: .ci/run must install it (apt-get install -y {name})"
    return found


# -- no drift --------------------------------------------------------------------------------------

@pytest.mark.parametrize("shell", completion.SHELLS)
def test_committed_scripts_are_what_the_cli_generates(shell: str) -> None:
    generated = completion.script(shell, crux)
    assert SCRIPTS[shell].read_text() == generated, f"the CLI changed: run {completion.GENERATED_BY}"


def test_the_generator_reports_nothing_stale() -> None:
    assert tool.stale() == {}


def test_the_generator_writes_every_script(tmp_path: Path) -> None:
    written = tool.update(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(tool.SCRIPT_FILES.values())
    assert tool.update(tmp_path) == []  # nothing changed the second time


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_crux_completion_prints_the_committed_script(shell: str) -> None:
    result = CliRunner().invoke(crux, ["--completion", shell])
    assert result.exit_code == 0, result.output
    assert result.output == SCRIPTS[shell].read_text()


def test_the_scripts_are_committed_once() -> None:
    """completions/ only: the package generates what `crux --completion` prints, and holds no copy."""
    assert not (ROOT / "crux_cli" / "data" / "completions").exists()
    assert not (ROOT / "crux_cli" / "completion.py").exists()


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_no_rule_set_is_written_into_a_script(shell: str) -> None:
    """A new rule set (or statement word) needs no new script: the scripts ask crux for those words."""
    text = SCRIPTS[shell].read_text()
    assert not [name for name in rules.BUILT_IN if re.search(rf"\b{name}\b", text.replace("crux", ""))]
    assert not [word for word in ("atk", "initiative", "fortune", "step") if re.search(rf"\b{word}\b", text)]


def test_crux_tells_a_script_the_words_of_the_rule_sets() -> None:
    said = CliRunner().invoke(crux, ["--completion-words", "rules"])
    assert said.exit_code == 0 and said.output.split("\n") == [*rules.names(), "list", ""]
    said = CliRunner().invoke(crux, ["--completion-words", "statements:stepdice"])
    assert said.output.split() == list(completion.words_of("stepdice"))
    assert {"save", "step", "roll", "table"} <= set(said.output.split())
    assert CliRunner().invoke(crux, ["--completion-words", "statements:nosuch"]).output == ""
    assert "--completion-words" not in CliRunner().invoke(crux, ["--help"]).output


def test_options_carry_their_types() -> None:
    options = {p.name: p for p in crux.params}
    assert isinstance(options["sheet"].type, click.Path) and not options["sheet"].type.dir_okay
    assert isinstance(options["rules"].type, RuleSetName)


def test_click_completion_and_the_scripts_agree_on_rule_set_names() -> None:
    """click's own completion (`_CRUX_COMPLETE`) reads the same type the scripts were written from."""
    option = next(p for p in crux.params if p.name == "rules")
    ctx = click.Context(crux)
    offered = [item.value for item in option.type.shell_complete(ctx, option, "")]
    script_words = next(o for o in completion.commands(crux)[0].options if "--rules" in o.names)
    assert offered == [*rules.names(), "list"]  # plug-ins included
    assert (script_words.values, script_words.choices) == ("asked", ("rules",))  # asked of crux at Tab
    assert list(completion.asked("rules")) == offered
    assert [item.value for item in option.type.shell_complete(ctx, option, "st")] == ["stepdice"]


def test_click_completes_a_sheet_option_with_files() -> None:
    option = next(p for p in crux.params if p.name == "sheet")
    assert [item.type for item in option.type.shell_complete(click.Context(crux), option, "")] == ["file"]


def test_completion_option_offers_every_shell() -> None:
    option = next(p for p in crux.params if p.name == "completion")
    assert isinstance(option.type, click.Choice)
    assert tuple(option.type.choices) == completion.SHELLS


def test_printing_a_script_imports_no_grammar_and_no_prompt_toolkit() -> None:
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "crux_cli", "--completion", "bash"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in result.stderr.splitlines()}
    assert "pyparsing" not in imported
    assert "prompt_toolkit" not in imported


def test_every_option_of_every_command_is_in_the_scripts() -> None:
    for cmd in completion.commands(crux):
        for option in cmd.options:
            for name in option.names:
                for shell, path in SCRIPTS.items():
                    assert name in path.read_text(), f"{name} of {cmd.key} missing from the {shell} script"


# -- what Tab offers -------------------------------------------------------------------------------

def bash_offers(words: list[str], cwd: Path, env: dict[str, str] | None = None) -> list[str]:
    """COMPREPLY after Tab on `crux WORDS…` (the last word is the one being completed)."""
    program = (f'source "{SCRIPTS["bash"]}"; COMP_WORDS=(crux "$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ));'
               ' _crux; printf "%s\\n" "${COMPREPLY[@]}"')
    result = subprocess.run([shell_path("bash"), "--norc", "-c", program, "bash", *words], cwd=cwd,
                            capture_output=True, text=True, check=True, env={**os.environ, **WITH_CRUX, **(env or {})})
    return [line for line in result.stdout.splitlines() if line]


def fish_offers(line: str, cwd: Path) -> list[str]:
    quoted = line.replace("\\", "\\\\").replace("'", "\\'")
    result = subprocess.run([shell_path("fish"), "--no-config", "-c",
                             f"source '{SCRIPTS['fish']}'; complete -C '{quoted}'"],
                            cwd=cwd, capture_output=True, text=True, check=True, env={**os.environ, **WITH_CRUX})
    return [entry.split("\t")[0] for entry in result.stdout.splitlines() if entry]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "hero.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    return tmp_path


def all_rule_set_words() -> list[str]:
    return [*rules.names(), "list"]


def words_of(line: str) -> list[str]:
    """`crux --rules ` → ['--rules', ''] as bash splits it (the word after the cursor may be empty)."""
    words = line.split(" ")[1:]
    return words


CASES = [
    # (what is typed before Tab, what Tab must offer)
    ("crux --ru", ["--rules"]),
    ("crux --r", ["--repeat", "--rules"]),
    ("crux --rules ", all_rule_set_words()),
    ("crux --completion ", list(completion.SHELLS)),
    ("crux sa", ["save"]),
    ("crux in", ["init", "initiative", "INT", "intelligence"]),
    ("crux --json --seed 3 de", ["DEX", "dexterity"]),
    ("crux DEX +2b --j", ["--json"]),
    ("crux DEX -1", []),
    ("crux DEX +2b gr", []),
    ("crux od", ["odds"]),
    ("crux re", ["repl", "rest"]),
    ("crux odds sa", ["save"]),
    ("crux odds --j", ["--json"]),
    ("crux --rules stepdice odds st", ["step"]),
    ("crux --rules challenge a", ["action"]),
    ("crux --sheet he", ["hero.toml"]),
    ("crux --json --sheet notes.txt DEX --sheet ", ["hero.toml", "notes.txt"]),
    ("crux sh", ["sheet", "show"]),
    ("crux sheet ", ["check", "new", "redo", "undo"]),
    ("crux sheet new --attack", ["--attack", "--attack-attr"]),
    ("crux sheet new ", ["hero.toml", "notes.txt"]),
    ("crux sheet check no", ["notes.txt"]),
    ("crux sheet new hero.toml --adv ", ["STR", "DEX", "INT", "WIL"]),
    ("crux sheet new hero.toml --attack-attr D", ["DEX"]),
]


@pytest.mark.parametrize(("line", "offered"), CASES)
def test_bash_offers(line: str, offered: list[str], folder: Path) -> None:
    assert sorted(bash_offers(words_of(line), folder)) == sorted(offered)


@pytest.mark.parametrize(("line", "offered"), CASES)
def test_fish_offers(line: str, offered: list[str], folder: Path) -> None:
    got = fish_offers(line, folder)
    if offered:  # fish falls back to fuzzy matches when nothing starts with the word
        assert sorted(got) == sorted(offered)
    else:
        assert not [w for w in got if w.lower().startswith(line.split(" ")[-1].lower())]


def test_bash_completes_an_option_value_after_an_equals_sign(folder: Path) -> None:
    assert bash_offers(["--rules", "=", "l"], folder) == ["list"]  # bash splits at '='
    assert bash_offers(["--rules=l"], folder) == ["--rules=list"]  # when COMP_WORDBREAKS lacks '='


def test_bash_offers_subcommands_by_their_first_letters(folder: Path) -> None:
    for name in completion.commands(crux)[0].subcommands:
        assert name in bash_offers([name[:2]], folder)


@pytest.mark.parametrize("rules_name", list(rules.BUILT_IN))
def test_statement_words_follow_the_rule_set(rules_name: str, folder: Path) -> None:
    words = set(completion.statement_words()[rules_name])
    subcommands = set(completion.commands(crux)[0].subcommands)
    assert set(bash_offers(["--rules", rules_name, ""], folder)) == words | subcommands
    assert set(bash_offers([""], folder, env={"CRUX_RULES": rules_name})) == words | subcommands


def test_file_options_complete_file_names(folder: Path) -> None:
    file_options = [(cmd, name) for cmd in completion.commands(crux) for o in cmd.options if o.values == "files"
                    for name in o.names if name.startswith("--")]
    for cmd, name in file_options:
        path = [] if cmd.path == ("crux",) else list(cmd.path[1:])
        if path[:1] == ["_statement"]:
            path = ["DEX"]  # options after a statement
        assert sorted(bash_offers([*path, name, ""], folder)) == ["hero.toml", "notes.txt"]
        assert bash_offers([*path, name, "he"], folder) == ["hero.toml"]


def test_sheet_files_complete_in_a_command_that_takes_them(folder: Path,
                                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    """The generator turns a file-typed option and argument into file completion, wherever they land."""

    @click.group()
    @click.option("--sheet", type=click.Path(dir_okay=False), metavar="FILE", envvar="CRUX_SHEET")
    def app(sheet: str | None) -> None: ...

    @app.group()
    def sheet() -> None: ...

    @sheet.command()
    @click.option("--name")
    @click.argument("file", type=click.Path())
    def new(file: str, name: str | None) -> None: ...

    script = tmp_path_factory.mktemp("script") / "crux.bash"
    script.write_text(completion.bash_script(completion.walk(app, ("crux",))))
    program = (f'source "{script}"; COMP_WORDS=(crux "$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ));'
               ' _crux; printf "%s\\n" "${COMPREPLY[@]}"')

    def offers(*words: str) -> list[str]:
        result = subprocess.run([shell_path("bash"), "--norc", "-c", program, "bash", *words], cwd=folder,
                                capture_output=True, text=True, check=True)
        return sorted(line for line in result.stdout.splitlines() if line)

    assert offers("--sheet", "") == ["hero.toml", "notes.txt"]
    assert offers("--sheet", "h") == ["hero.toml"]
    assert offers("sh") == ["sheet"]
    assert offers("sheet", "n") == ["new"]
    assert offers("sheet", "new", "--name", "x", "n") == ["notes.txt"]
    assert offers("sheet", "new", "--n") == ["--name"]


# -- real interactive shells -----------------------------------------------------------------------

def interactive(shell: list[str], setup: str, folder: Path) -> pexpect.spawn:
    """A shell where `crux` is a function printing its arguments, with the completion loaded."""
    session = pexpect.spawn(shell[0], shell[1:], encoding="utf-8", cwd=str(folder), timeout=10,
                            env={"PS1": "$ ", "PROMPT": "$ ", "TERM": "dumb", "HOME": str(folder), **WITH_CRUX},
                            dimensions=(24, 200))
    session.expect_exact("$ ")
    session.sendline(setup + "; crux() { printf 'ARGS'; printf '<%s>' \"$@\"; echo; }")
    session.expect_exact("$ ")
    return session


def tab_then_run(session: pexpect.spawn, typed: str) -> str:
    """Type, press Tab, press Enter: the arguments `crux` received, as `<a><b>`."""
    session.send(typed + "\t")
    time.sleep(0.4)  # let the line editor finish completing before Enter
    session.sendline("")
    session.expect(r"ARGS(\S*)\r?\n")
    got = session.match.group(1)
    session.expect_exact("$ ")
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", got)


UNIQUE = [("crux --ru", "<--rules>"), ("crux sa", "<save>"), ("crux --rules=cr", "<--rules=crux>"),
          ("crux --json ini", "<--json><init>"),
          ("crux --completion fi", "<--completion><fish>")]


@pytest.mark.slow  # a real interactive shell (pexpect)
def test_tab_in_an_interactive_bash(folder: Path) -> None:
    session = interactive([shell_path("bash"), "--norc", "--noprofile", "-i"],
                          f"source '{SCRIPTS['bash']}'", folder)
    for typed, args in UNIQUE:
        assert tab_then_run(session, typed) == args, typed
    session.close()


@pytest.mark.slow  # a real interactive shell (pexpect)
def test_tab_in_an_interactive_zsh(folder: Path) -> None:
    functions = folder / "zfunc"
    functions.mkdir()
    shutil.copy(SCRIPTS["zsh"], functions / "_crux")
    session = interactive([shell_path("zsh"), "-f", "-i"],
                          f"fpath=('{functions}' $fpath); autoload -U compinit; compinit -u -D", folder)
    for typed, args in UNIQUE:
        assert tab_then_run(session, typed) == args, typed
    session.close()
