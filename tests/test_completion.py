"""The completion scripts cannot drift from the CLI, and Tab offers the right words in real shells.

tools/gen_completions.py writes each script twice (package data that `crux --completion`
prints, and completions/ that pip installs under share/); both must be a fresh generation.

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
from crux_cli.cli import crux
from crux_cli.cli.params import RuleSetName

ROOT = Path(__file__).resolve().parent.parent
completion = gen_completions()
SCRIPTS = {shell: ROOT / name for shell, name in completion.SCRIPT_FILES.items()}
PACKAGED = {shell: ROOT / name for shell, name in completion.PACKAGED.items()}


def shell_path(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: .ci/run must install it (apt-get install -y {name})"
    return found


# -- no drift --------------------------------------------------------------------------------------

@pytest.mark.parametrize("shell", completion.SHELLS)
def test_committed_scripts_are_what_the_cli_generates(shell: str) -> None:
    fresh = completion.script(shell)
    for path in (SCRIPTS[shell], PACKAGED[shell]):
        assert path.read_text() == fresh, f"the CLI changed: run {completion.GENERATED_BY}"


def test_the_generator_reports_nothing_stale() -> None:
    assert completion.stale() == {}


def test_the_generator_writes_every_script(tmp_path: Path) -> None:
    written = completion.update(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(
        [*completion.SCRIPT_FILES.values(), *completion.PACKAGED.values()])
    assert completion.update(tmp_path) == []  # nothing changed the second time


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_crux_completion_prints_the_packaged_script(shell: str) -> None:
    result = CliRunner().invoke(crux, ["--completion", shell])
    assert result.exit_code == 0, result.output
    assert result.output == PACKAGED[shell].read_text()


def test_the_runtime_package_holds_no_generator() -> None:
    assert not (ROOT / "crux_cli" / "completion.py").exists()
    assert not (ROOT / "crux_cli" / "statement_words.py").exists()


def test_options_carry_their_types() -> None:
    options = {p.name: p for p in crux.params}
    assert isinstance(options["sheet"].type, click.Path) and not options["sheet"].type.dir_okay
    assert isinstance(options["rules"].type, RuleSetName)


def test_click_completion_and_the_scripts_agree_on_rule_set_names() -> None:
    """click's own completion (`_CRUX_COMPLETE`) reads the same type the scripts were written from."""
    option = next(p for p in crux.params if p.name == "rules")
    ctx = click.Context(crux)
    offered = [item.value for item in option.type.shell_complete(ctx, option, "")]
    script_words = next(o.choices for o in completion.commands()[0].options if "--rules" in o.names)
    assert offered == [*rules.names(), "list"]  # plug-ins included
    assert script_words == (*rules.BUILT_IN, "list")  # written before any plug-in is installed
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
    for cmd in completion.commands():
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
                            capture_output=True, text=True, check=True, env={**os.environ, **(env or {})})
    return [line for line in result.stdout.splitlines() if line]


def fish_offers(line: str, cwd: Path) -> list[str]:
    quoted = line.replace("\\", "\\\\").replace("'", "\\'")
    result = subprocess.run([shell_path("fish"), "--no-config", "-c",
                             f"source '{SCRIPTS['fish']}'; complete -C '{quoted}'"],
                            cwd=cwd, capture_output=True, text=True, check=True)
    return [entry.split("\t")[0] for entry in result.stdout.splitlines() if entry]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "hero.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    return tmp_path


def all_rule_set_words() -> list[str]:
    return [*rules.BUILT_IN, "list"]


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
    for name in completion.commands()[0].subcommands:
        assert name in bash_offers([name[:2]], folder)


@pytest.mark.parametrize("rules_name", list(rules.BUILT_IN))
def test_statement_words_follow_the_rule_set(rules_name: str, folder: Path) -> None:
    words = set(completion.statement_words()[rules_name])
    subcommands = set(completion.commands()[0].subcommands)
    assert set(bash_offers(["--rules", rules_name, ""], folder)) == words | subcommands
    assert set(bash_offers([""], folder, env={"CRUX_RULES": rules_name})) == words | subcommands


def test_file_options_complete_file_names(folder: Path) -> None:
    file_options = [(cmd, name) for cmd in completion.commands() for o in cmd.options if o.values == "files"
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
    script.write_text(completion.bash_script(completion.walk(app, ("crux",)), {"crux": ("DEX",)}))
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
                            env={"PS1": "$ ", "PROMPT": "$ ", "TERM": "dumb", "HOME": str(folder),
                                 "PATH": os.environ.get("PATH", "/usr/bin:/bin")}, dimensions=(24, 200))
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
