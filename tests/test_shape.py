"""The shape of the code (issue 33, "Knots untied"; CONTRIBUTING.md, "Tests").

- Every function is under 40 lines (`end_lineno - lineno + 1`, nested functions counted in their
  function), unless a comment starting `# long:` on the line before its `def` (or its decorators),
  or between the `def` and the first line of its body, says why its length reads better.
- A function imports a module inside it only where PERFORMANCE.md ("Function-local imports") names
  the start-up cost it saves: every function-local import in crux_cli imports a module that table
  names (or a submodule of one). Everything else is imported at the top of its module.

Each allow-list names what other work in progress still has to untie; an entry that no longer
needs to be there fails the test, so the lists only shrink.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "crux_cli"
LONG = 40  # lines: a function this long or longer says why, or is split
REASON = "# long:"

# Functions of 40 lines or more being split now in other work (issue 33), as `path:function` under crux_cli/.
KNOWN_LONG: set[str] = set()  # none left (issue 33): a long function says why, or is split

# Files whose function-local imports are being sorted now in other work (issue 33), under crux_cli/.
KNOWN_LOCAL = {
    "api.py",
    "core/ruleset.py",
    "cli/sheet.py",
    "repl/fighting.py",
    "repl/session.py",
    "running/runner.py",
    "state/autosave.py",
    "state/db.py",
    "state/encounter.py",
    "state/journal.py",
    "state/store.py",
}

# Imports inside a function that break an import circle (the grammar's words are imported back by its scanner),
# as `path:module`, until the circle is untied (issue 33: no import circle between modules).
CIRCLES = {
    "rulesets/challenge/grammar.py:crux_cli.rulesets.challenge.scan",
    "rulesets/d20check/grammar.py:crux_cli.rulesets.d20check.scan",
    "rulesets/stepdice/grammar.py:crux_cli.rulesets.stepdice.scan",
}


def files() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path


def functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def length(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return (function.end_lineno or function.lineno) - function.lineno + 1


def says_why(function: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> bool:
    """A comment starting `# long:` in the comment lines just above the def (or its decorators), or from the def
    to the first line of its body."""
    first = min([function.lineno, *(decorator.lineno for decorator in function.decorator_list)]) - 1  # from 0
    above = first
    while above > 0 and lines[above - 1].lstrip().startswith("#"):
        above -= 1
    comments = [line.lstrip() for line in lines[above:first]]
    comments += [line[line.index("#"):] for line in lines[first:function.body[0].lineno] if "#" in line]
    return any(comment.startswith(REASON) for comment in comments)


def long_functions() -> dict[str, int]:
    """`path:function` → its length, for every function of LONG lines or more that does not say why."""
    found: dict[str, int] = {}
    for name, path in files():
        text = path.read_text()
        lines = text.splitlines()
        for function in functions(ast.parse(text)):
            if length(function) >= LONG and not says_why(function, lines):
                found[f"{name}:{function.name}"] = length(function)
    return found


def test_every_function_is_under_40_lines_or_says_why() -> None:
    found = long_functions()
    new = {name: lines for name, lines in found.items() if name not in KNOWN_LONG}
    assert not new, (f"functions of {LONG} lines or more: split them into well-named short ones, or say on the "
                     f"line before the def, in a comment starting '{REASON}', why the length reads better: {new}")


def test_every_known_long_function_is_still_long() -> None:
    found = long_functions()
    gone = sorted(KNOWN_LONG - set(found))
    assert not gone, f"no longer long (or gone): take them out of KNOWN_LONG: {gone}"


def test_a_reason_is_found_before_the_def_or_before_its_body() -> None:
    body = "".join(f"    x = {n}\n" for n in range(LONG))
    for source in (f"# long: a table of cases\ndef f():\n{body}",
                   f"# long: one loop, bound once,\n# and its reason goes on\ndef f():\n{body}",
                   f"@decorated\n# long: a table of cases\ndef f():\n{body}",
                   f"def f(\n    a,\n):  # long: one loop, bound once\n{body}",
                   f"def f():\n    # long: one loop, bound once\n{body}"):
        tree = ast.parse(source)
        function = next(functions(tree))
        assert length(function) >= LONG and says_why(function, source.splitlines()), source
    tree = ast.parse(f"# a comment\ndef f():\n{body}")
    assert not says_why(next(functions(tree)), f"# a comment\ndef f():\n{body}".splitlines())


def module_name(name: str) -> str:
    parts = ["crux_cli", *Path(name).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str) -> bool:
    """Whether `dotted` names a module of crux_cli (a file or a package), or any importable module."""
    if dotted.startswith("crux_cli.") or dotted == "crux_cli":
        relative = Path(*dotted.split(".")[1:])
        return (PACKAGE / relative).with_suffix(".py").exists() or (PACKAGE / relative / "__init__.py").exists()
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


def imported(node: ast.Import | ast.ImportFrom, name: str) -> list[str]:
    """The modules an import statement in module file `name` loads (a `from` of a submodule: the submodule)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = module_name(name).split(".")
        if not name.endswith("__init__.py"):
            package = package[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [f"{base}.{alias.name}" if is_module(f"{base}.{alias.name}") else base for alias in node.names]


def local_imports() -> dict[str, list[tuple[int, str]]]:
    """File under crux_cli/ → (line, module) of every import made inside a function."""
    found: dict[str, list[tuple[int, str]]] = {}
    for name, path in files():
        for function in functions(ast.parse(path.read_text())):
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.setdefault(name, []).extend((node.lineno, module) for module in imported(node, name))
    return {name: sorted(set(lines)) for name, lines in found.items()}


def lazy_table() -> set[str]:
    """The modules PERFORMANCE.md's "Function-local imports" table names (first column, in backticks)."""
    text = (ROOT / "PERFORMANCE.md").read_text()
    section = text.split("### Function-local imports", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|") and not line.startswith("|---")]
    return {module for row in rows[1:] for module in re.findall(r"`([\w.]+)`", row.split("|")[1])}


def named(module: str, table: set[str]) -> bool:
    return any(module == lazy or module.startswith(lazy + ".") for lazy in table)


def unnamed_local_imports() -> dict[str, list[tuple[int, str]]]:
    """File → (line, module) of every function-local import the table does not name (circles left out)."""
    table = lazy_table()
    found = {name: [(line, module) for line, module in imports
                    if not named(module, table) and f"{name}:{module}" not in CIRCLES]
             for name, imports in local_imports().items()}
    return {name: imports for name, imports in found.items() if imports}


def test_performance_md_names_the_modules_kept_lazy() -> None:
    table = lazy_table()
    assert {"crux_cli.repl.app", "crux_cli.cli", "pyparsing", "difflib"} <= table, table


def test_every_circle_still_has_its_function_local_import() -> None:
    present = {f"{name}:{module}" for name, imports in local_imports().items() for _, module in imports}
    assert not CIRCLES - present, f"untied: take them out of CIRCLES: {sorted(CIRCLES - present)}"


def test_every_function_local_import_saves_a_start_up_cost_named_in_performance_md() -> None:
    found = {name: imports for name, imports in unnamed_local_imports().items() if name not in KNOWN_LOCAL}
    assert not found, ("imports inside functions that PERFORMANCE.md's 'Function-local imports' table does not name: "
                       f"move them to the top of their module, or name the start-up cost they save there: {found}")


def test_every_file_allowed_function_local_imports_still_has_one() -> None:
    found = unnamed_local_imports()
    gone = sorted(name for name in KNOWN_LOCAL if name not in found)
    assert not gone, f"no function-local import left that the table does not name: take them out of KNOWN_LOCAL: {gone}"


def test_the_import_reader_resolves_relative_and_submodule_imports() -> None:
    relative = ast.parse("from .store import interned\nfrom . import store\nfrom ..core import errors\n").body
    assert [imported(node, "state/sheet.py") for node in relative] == [
        ["crux_cli.state.store"], ["crux_cli.state.store"], ["crux_cli.core.errors"]]
    absolute = ast.parse("import os.path\nfrom crux_cli.state import files, store_module\n").body
    assert [imported(node, "cli/log.py") for node in absolute] == [
        ["os.path"], ["crux_cli.state.files", "crux_cli.state"]]
    assert named("prompt_toolkit.application", {"prompt_toolkit"})
    assert not named("prompt_toolkitx", {"prompt_toolkit"})
