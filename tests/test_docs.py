"""The man pages and the grammar cannot drift from the CLI and the parser.

- every option of every command's --help has an item in crux.1, and so do its
  subcommands and environment variables;
- every statement word of every rule set is in grammar/crux.ebnf, and has an entry of its own in
  crux-notation.7 (a synopsis line or a tagged item, not a mention in a sentence) with an example
  that runs, whose JSON fields are listed (crux.1 JSON OUTPUT, or the section's JSON fields);
  `test_an_undocumented_statement_word_is_reported` shows the check failing;
- every example in the man pages is parsed by the real parser (statements) or
  run by the real command (`crux …` lines), and the JSON fields they produce are
  documented;
- both pages pass `mandoc -Tlint -Wwarning` and render with `man -l`.

mandoc, man and groff must be installed (.ci/run installs them): a missing tool
fails these tests, it never skips them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import crux_here, gen_completions

from crux_cli import rulesets as rules
from crux_cli.cli import completion, crux
from crux_cli.core.errors import CruxError
from crux_cli.core.ruleset import RuleSet
from crux_cli.render.jsonl import record
from crux_cli.running.read import parse_statement
from crux_cli.running.runner import Runner

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "man").glob("*.[1-9]"))
COMMAND_PAGE = ROOT / "man" / "crux.1"
NOTATION_PAGE = ROOT / "man" / "crux-notation.7"
GRAMMARS = sorted((ROOT / "grammar").glob("*.ebnf"))
ESCAPES = {r"\e": "\\", r"\-": "-", r"\&": "", r"\(aq": "'", r"\(dq": '"', r"\(en": "–"}


def tool(name: str, package: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: .ci/run must install it (apt-get install -y {package})"
    return found


def unescape(text: str) -> str:
    for escape, plain in ESCAPES.items():
        text = text.replace(escape, plain)
    return text


def section(page: Path, title: str) -> str:
    """The source of one `.Sh` section."""
    match = re.search(rf"^\.Sh {re.escape(title)}\n(.*?)(?=^\.Sh |\Z)", page.read_text(), re.M | re.S)
    assert match, f"{page.name} has no section {title}"
    return match.group(1)


# -- the pages are well formed ---------------------------------------------------------------------

def test_there_are_pages_for_the_command_and_the_notation() -> None:
    assert COMMAND_PAGE in PAGES and NOTATION_PAGE in PAGES
    assert ROOT / "man" / "crux-table.7" in PAGES  # the shared table (issue 34): linted and rendered like the rest


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_passes_mandoc_lint(page: Path) -> None:
    result = subprocess.run([tool("mandoc", "mandoc"), "-Tlint", "-Wwarning", str(page)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_renders_with_man(page: Path) -> None:
    tool("groff", "groff-base")
    result = subprocess.run([tool("man", "man-db"), "-l", str(page)], capture_output=True, text=True,
                            check=False, env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "80", "LC_ALL": "C.UTF-8"})
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "NAME" in result.stdout and "SEE ALSO" in result.stdout
    # a word such as Nx or Ox on a macro line is read as a macro and printed as an operating system's name
    misread = re.findall(r"NetBSD|OpenBSD|FreeBSD|DragonFly|BSD/OS|AT&T UNIX", result.stdout)
    assert not misread, f"a word was read as an mdoc macro: {misread} (escape it as \\&Nx)"


# -- crux.1 documents the real command -------------------------------------------------------------

def help_options(path: tuple[str, ...]) -> set[str]:
    """The long and short options listed by `crux … --help`."""
    result = crux_here(*path[1:], "--help")
    assert result.returncode == 0, result.stderr
    options = result.stdout.split("Options:", 1)[1]
    options = re.split(r"^\S", options, maxsplit=1, flags=re.M)[0]  # up to the next heading
    return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", options))


def documented_options() -> set[str]:
    """The options that head an item (`.It Fl \\-json …`) in crux.1."""
    found = set()
    for line in COMMAND_PAGE.read_text().splitlines():
        if line.startswith(".It Fl "):
            found |= {"-" + unescape(name) for name in re.findall(r"\bFl (\S+)", line)}
    return found


VISIBLE_COMMANDS = [cmd.path for cmd in completion.commands(crux) if cmd.path[-1] != "_statement"]


@pytest.mark.parametrize("path", VISIBLE_COMMANDS, ids=" ".join)
def test_every_option_in_help_is_documented(path: tuple[str, ...]) -> None:
    missing = help_options(path) - documented_options()
    assert not missing, f"crux.1 has no item for {sorted(missing)} of `{' '.join(path)} --help`"


def test_every_subcommand_is_documented() -> None:
    """`crux sheet new` needs an item headed `.It Cm sheet new`."""
    text = COMMAND_PAGE.read_text()
    for cmd in completion.commands(crux):
        for name in cmd.subcommands:
            words = " ".join((*cmd.path[1:], name))
            assert re.search(rf"^\.It Cm {re.escape(words)}\b", text, re.M), f"crux.1 has no item for {words}"


def test_every_session_command_and_fight_word_is_documented() -> None:
    from crux_cli.repl import commands
    from crux_cli.rulesets.crux import fight_words as fight

    session = section(COMMAND_PAGE, "INTERACTIVE SESSION")
    for entry in commands.COMMANDS.values():
        assert f".It Cm {commands.PREFIX}{entry.name}" in session, f"crux.1 has no item for /{entry.name}"
        for alias in entry.aliases:
            assert re.search(rf"\bCm\b.*\s{re.escape(commands.PREFIX + alias)}(\s|$)", session, re.M), \
                f"crux.1 does not name the alias /{alias}"
    documented = {w.strip(",|").lower() for line in session.splitlines() if re.search(r"(^\.|\s)Cm\s", line)
                  for w in line.split()}
    missing = [w for w in (*fight.ALWAYS, *fight.DURING) if w not in documented]
    assert not missing, f"crux.1 INTERACTIVE SESSION does not name the fight words {missing}"


def test_every_environment_variable_is_documented() -> None:
    import click

    from crux_cli.cli import crux

    environment = section(COMMAND_PAGE, "ENVIRONMENT")
    variables = {"NO_COLOR", "CRUX_DEBUG"}

    def collect(command: click.Command) -> None:
        for param in command.params:
            envvar = getattr(param, "envvar", None)
            variables.update([envvar] if isinstance(envvar, str) else envvar or [])
        for sub in getattr(command, "commands", {}).values():
            collect(sub)

    collect(crux)
    for name in variables:
        assert f".It Ev {name}" in environment, f"crux.1 ENVIRONMENT has no item for {name}"


# -- the notation page and the grammar cover every statement ----------------------------------------

def command_words(page: Path) -> set[str]:
    """Every word given to a `Cm` macro, lower-cased."""
    return cm_words(page.read_text())


def cm_words(text: str) -> set[str]:
    """Every word given to a `Cm` macro in a piece of mdoc, lower-cased."""
    words = set()
    for line in text.splitlines():
        for run in re.findall(r"\bCm ((?:(?!\b(?:Ns|Oc|Op|Oo|Ar|Ql|Li|Pc|Po)\b)[^\n])*)", line):
            words |= {unescape(w).strip(",.|;:()").lower() for w in run.split()}
    return words


def entry_words(text: str) -> set[str]:
    """The words that head an entry of a piece of mdoc: a synopsis line (inside `.Bd -unfilled … .Ed`)
    or a tagged item (`.It Cm …`). A word merely mentioned in a sentence heads nothing."""
    heads, synopsis = [], False
    for line in text.splitlines():
        if line.startswith(".Bd -unfilled"):
            synopsis = True
        elif line.startswith(".Ed"):
            synopsis = False
        elif (synopsis and line.startswith((".Cm", ".Oo Cm"))) or line.startswith(".It Cm "):
            heads.append(line)
    return cm_words("\n".join(heads))


@pytest.mark.parametrize("rules_name", list(rules.BUILT_IN))
def test_every_statement_word_is_in_the_notation_page(rules_name: str) -> None:
    documented = command_words(NOTATION_PAGE)
    missing = [w for w in completion.statement_words()[rules_name] if w.lower() not in documented]
    assert not missing, f"crux-notation.7 does not mention {missing} of rule set {rules_name}"
    own = section(NOTATION_PAGE, f"{rules_name.upper()} STATEMENTS")  # a rule set's section of its own
    assert re.search(rf"^\.Cm {rules_name}\b", own, re.M), f"its section does not name the rule set {rules_name}"


def listed_rule_sets(text: str) -> list[str]:
    """The rule sets a RULE SETS section lists: the word of each `.It Cm` item (not one named in a sentence)."""
    return [unescape(match) for match in re.findall(r"^\.It Cm (\S+)", text, re.M)]


def test_the_rule_sets_list_names_every_built_in_rule_set_and_no_other() -> None:
    listed = listed_rule_sets(section(NOTATION_PAGE, "RULE SETS"))
    assert sorted(listed) == sorted(rules.BUILT_IN), (
        f"crux-notation.7 RULE SETS lists {listed}, the registry has {list(rules.BUILT_IN)}: "
        "each built-in rule set needs one `.It Cm <name>` item there")
    assert listed_rule_sets(".It Cm crux\nThe default; see\n.Cm stepdice .\n") == ["crux"]


def grammar_texts() -> list[str]:
    """grammar/*.ebnf, and the ```ebnf blocks of grammar/*.md (the kindred rule sets' grammars)."""
    blocks = [b for md in sorted((ROOT / "grammar").glob("*.md"))
              for b in re.findall(r"```ebnf\n(.*?)```", md.read_text(), re.S)]
    return [g.read_text() for g in GRAMMARS] + blocks


@pytest.mark.parametrize("rules_name", list(rules.BUILT_IN))
def test_every_statement_word_is_in_the_grammar(rules_name: str) -> None:
    quoted = {w.lower() for g in grammar_texts() for w in re.findall(r'"([^"]+)"', g)}
    missing = [w for w in completion.statement_words()[rules_name] if w.lower() not in quoted]
    assert not missing, f"grammar/*.ebnf has no terminal for {missing} of rule set {rules_name}"


# -- every example in the pages is real ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Example:
    page: str
    line: int
    text: str
    rules: str
    expect: str  # "ok", "error" (statements) or an exit status (commands)
    section: str = ""  # the `.Sh` it is under




def examples(page: Path) -> list[Example]:
    """Each `.Dl` line, with the rule set and expectation its preceding comments give."""
    found, rules_name, marker, heading = [], rules.DEFAULT, "", ""
    for number, line in enumerate(page.read_text().splitlines(), 1):
        if line.startswith(".Sh "):
            heading = line[4:]
        if line.startswith('.\\" rules: '):
            rules_name = line.split(":", 1)[1].strip()
        elif line.startswith('.\\" '):
            marker = line[4:].strip()
        elif line.startswith(".Dl "):
            expect = "error" if marker == "error" else marker if marker.startswith(("exit", "not run")) else "ok"
            found.append(Example(page.name, number, unescape(line[4:]), rules_name, expect, heading))
            marker = ""
    return found


ALL_EXAMPLES = [e for page in PAGES for e in examples(page)]
COMMANDS = [e for e in ALL_EXAMPLES if re.match(r"([A-Z_]+=\S+ )*(crux|printf) ", e.text)]
STATEMENTS = [e for e in ALL_EXAMPLES if e not in COMMANDS]


def test_the_pages_have_examples() -> None:
    assert len(STATEMENTS) >= 30 and len(COMMANDS) >= 5
    assert {e.rules for e in STATEMENTS} == set(rules.BUILT_IN), "every rule set needs examples"


@pytest.mark.parametrize("example", STATEMENTS, ids=lambda e: f"{e.page}:{e.line}:{e.text}")
def test_statement_example_parses(example: Example, campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(campaign)  # `table loot` reads ./tables/loot.toml
    module = rules.load(example.rules)
    if example.expect == "error":
        with pytest.raises(CruxError):
            parse_statement(example.text, module)
    else:
        parse_statement(example.text, module)


@pytest.fixture(scope="module")
def examples_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for all the command examples, run in order: a sheet made by one is used by the next."""
    return tmp_path_factory.mktemp("examples")


@pytest.mark.slow  # a shell and a crux process per example
@pytest.mark.parametrize("example", COMMANDS, ids=lambda e: f"{e.page}:{e.line}:{e.text}")
def test_command_example_runs(example: Example, examples_folder: Path) -> None:
    if example.expect.startswith("not run"):
        assert "crux --completion" in example.text  # the only example that writes outside a folder
        return
    status = int(example.expect.split()[1]) if example.expect.startswith("exit") else 0
    program = f'crux() {{ "{sys.executable}" -m crux_cli "$@"; }}; {example.text}'
    result = subprocess.run(["sh", "-c", program], cwd=examples_folder, capture_output=True, text=True, check=False,
                            env={**os.environ, "NO_COLOR": "1"}, timeout=30)
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr


def json_items(text: str) -> set[str]:
    """The names heading the items (`.It Li a , b`) of a piece of mdoc."""
    return {unescape(w).strip(",") for line in text.splitlines() if line.startswith(".It Li ")
            for w in line[len(".It Li "):].split() if w != ","}


def subsection(text: str, title: str) -> str:
    """The source of one `.Ss` subsection of a section (empty when it has none)."""
    match = re.search(rf"^\.Ss {re.escape(title)}\n(.*?)(?=^\.S[hs] |\Z)", text, re.M | re.S)
    return match.group(1) if match else ""


def home(word: str, rules_name: str) -> str:
    """The section of crux-notation.7 that documents a statement word: its rule set's, or, for the words
    every rule set shares, generic dice's and random tables'."""
    from crux_cli.dice import handler as dice
    from crux_cli.dice import tables

    if word in dice.KEYWORDS:
        return "DICE EXPRESSIONS"
    if word in tables.KEYWORDS:
        return "RANDOM TABLES"
    return f"{rules_name.upper()} STATEMENTS"


def listed_fields(heading: str) -> set[str]:
    """The JSON fields a statement of a section may give: those crux.1 lists under JSON OUTPUT (every object's
    and crux's), and those the section lists under its own `.Ss JSON fields`, where crux.1 sends a reader."""
    return json_items(section(COMMAND_PAGE, "JSON OUTPUT")) | json_items(
        subsection(section(NOTATION_PAGE, heading), "JSON fields"))


def rolled(example: Example, rules_name: str, campaign: Path) -> set[str] | None:
    """The JSON fields of an example rolled in a rule set, without a sheet or else with one; None when refused."""
    for sheet in (None, campaign / "wren.toml"):
        runner = Runner(rules=rules_name, seed=1, sheet=str(sheet) if sheet else None)
        try:
            answers = runner.execute(example.text + " # comment")
        except CruxError:
            continue  # needs a character sheet (or a table beside it), or one in another state
        return {name for answer in answers for name in record(answer)}
    return None


def undocumented(rules_name: str, campaign: Path) -> list[str]:
    """What crux-notation.7 lacks for the statement words of a rule set: each word needs an entry of its own
    (a synopsis line or a `.It Cm` item) in its section, an example there that starts with it and runs, and
    every JSON field that example gives listed (`listed_fields`)."""
    problems = []
    for shown in completion.statement_words()[rules_name]:
        word = shown.lower()
        heading = home(word, rules_name)
        if word not in entry_words(section(NOTATION_PAGE, heading)):
            problems.append(f"{shown}: no entry of its own (a synopsis line or `.It Cm {shown}`) in {heading}")
        mine = [e for e in STATEMENTS if e.page == NOTATION_PAGE.name and e.section == heading and e.expect == "ok"
                and e.text.split()[0].lower() == word]
        fields = [found for e in mine if (found := rolled(e, rules_name, campaign)) is not None]
        if not fields:
            problems.append(f"{shown}: no `.Dl {shown} …` example in {heading} that runs in {rules_name}")
        missing = set().union(*fields) - listed_fields(heading)
        if missing:
            problems.append(f"{shown}: the JSON fields {sorted(missing)} are not listed (crux.1 JSON OUTPUT, "
                            f"or {heading} JSON fields)")
    return problems


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A folder with a character sheet and the random table the RANDOM TABLES example rolls."""
    made = crux_here("sheet", "new", str(tmp_path / "wren.toml"), "--name", "Wren", "--attr", "DEX=+2/1",
                     "--attack", "d8", "--hp", "12", "--hit-dice", "2")
    assert made.returncode == 0, made.stderr
    (tmp_path / "tables").mkdir()
    for block in re.findall(r"^\.Bd -literal[^\n]*\n(# tables/.*?)^\.Ed", section(NOTATION_PAGE, "RANDOM TABLES"),
                            re.M | re.S):
        name = block.split()[1].rstrip(":")
        (tmp_path / name).write_text(unescape(block))
    assert (tmp_path / "tables" / "loot.toml").is_file()
    return tmp_path


@pytest.mark.parametrize("rules_name", list(rules.BUILT_IN))
def test_every_statement_word_has_an_entry_an_example_and_its_fields(rules_name: str, campaign: Path) -> None:
    problems = undocumented(rules_name, campaign)
    assert not problems, f"crux-notation.7, rule set {rules_name}:\n" + "\n".join(problems)


def test_an_undocumented_statement_word_is_reported(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a rule set that gains a word nobody documented (`luck N`) is refused."""
    load = rules.load

    def with_luck(name: str) -> RuleSet:
        found = load(name)
        return found.replace(keywords=found.keywords | {"luck"}) if name == "d20check" else found

    monkeypatch.setattr(rules, "load", with_luck)
    assert "luck" in completion.statement_words()["d20check"]
    problems = undocumented("d20check", campaign)
    assert [p for p in problems if p.startswith("luck: no entry")]
    assert [p for p in problems if p.startswith("luck: no `.Dl luck")]
    assert not [p for p in problems if not p.startswith("luck:")]


def test_an_unlisted_json_field_is_reported(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """And a field a statement gives that no list names is refused too."""
    load = rules.load

    def with_a_field(name: str) -> RuleSet:
        found = load(name)
        return found.replace(to_json=lambda result: {**found.to_json(result), "luck_spent": 0})

    monkeypatch.setattr(rules, "load", with_a_field)
    problems = undocumented("d20check", campaign)
    assert any(p.startswith("check: the JSON fields ['luck_spent']") for p in problems), problems


def odds_fields(example: Example) -> set[str]:
    """The JSON fields of `crux odds` on an example (with --at-least where it applies), or none."""
    from crux_cli.render.odds_json import odds_to_json

    runner = Runner(rules=example.rules)
    for at_least in (1, None):
        try:
            return {"input", "kind", "rules", *odds_to_json(runner.odds(example.text, at_least=at_least).result)}
        except CruxError:
            continue
    return set()


def test_every_odds_field_is_documented() -> None:
    documented = json_items(section(COMMAND_PAGE, "JSON OUTPUT"))
    seen = {field for e in STATEMENTS if e.expect == "ok" for field in odds_fields(e)}
    assert {"outcomes", "distribution", "mean", "at_least"} <= seen
    missing = seen - documented
    assert not missing, f"crux.1 JSON OUTPUT has no item for the odds fields {sorted(missing)}"


# -- pip installs them where a user finds them -----------------------------------------------------

def test_every_page_and_script_is_installed_under_share() -> None:
    import tomllib

    data_files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    installed = {source: folder for folder, sources in data_files.items() for source in sources}
    for page in PAGES:
        assert installed.get(f"man/{page.name}") == f"share/man/man{page.suffix[1:]}"
    for shell, name in gen_completions().SCRIPT_FILES.items():
        assert name in installed, f"the {shell} script is not installed"
    assert all((ROOT / source).is_file() for source in installed)
