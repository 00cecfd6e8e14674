"""The packages import one another in one direction only (CONTRIBUTING.md, "Layers").

Lowest first: core → probability → plugin → dice → rulesets → render → state → running → api → table → cli | repl. A
package imports only from itself and the packages below it; cli and repl never import
each other; a rule set's folder (`rulesets/<name>/`) never imports another rule set's
folder (the registry, `rulesets/__init__.py`, may load any of them). `crux_cli/__init__.py`
(the version) sits under everything and imports nothing of crux; `crux_cli/__main__.py`
sits over everything: it is where the command line and the interactive session meet.

Every import counts, wherever it is written: at the top of a module, inside a function
(a lazy import is still a dependency, only a later one), and a module named in a string
constant (`importlib.import_module(BUILT_IN[name][0])`, the registry's table, the lazy
subcommands). Imports under `if TYPE_CHECKING:` do not count: they never run (every such
module has `from __future__ import annotations`, checked below), so they can make no
cycle and no load-order dependency, and forbidding them would force `Any` where a lower
layer's contract names a higher layer's type (a rule set's `odds` returns an `Odds`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "crux_cli"
ORDER = ("core", "probability", "plugin", "dice", "rulesets", "render", "state", "running", "api", "table", "cli",
         "repl")
TOP = ("cli", "repl")  # the two faces: the same level, and strangers to each other
BELOW_ALL, ABOVE_ALL = "crux_cli", "__main__"

# Imports allowed against the order for now, each with the issue that removes it.
KNOWN_EXCEPTIONS: set[str] = set()  # none: the fight words live in rulesets/crux/fight.py (issue 14)


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    imported: str
    line: int
    how: str  # "top", "lazy" (inside a function) or "named" (a module named in a string)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache
def parsed(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text())


def type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under `if TYPE_CHECKING:` (never run)."""
    guarded: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and is_type_checking(node.test):
            guarded.update(n for statement in node.body for n in ast.walk(statement))
    return guarded


def is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def resolved(module: str, name: str | None = None) -> str:
    """`from a.b import c` imports module `a.b.c` when there is one, else names from `a.b`."""
    if name is not None and f"{module}.{name}" in modules():
        return f"{module}.{name}"
    return module


def imports_of(name: str, source: str | None = None, *, typing: bool = False) -> list[Import]:
    """Every import of module `name` that runs, found in one walk of its syntax tree; with `typing`, the imports
    under `if TYPE_CHECKING:` too (how: "typing")."""
    tree = parsed(name) if source is None else ast.parse(source)
    found: list[Import] = []

    def visit(node: ast.AST, how: str) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.body if typing else ():
                visit(child, "typing")
            for child in node.orelse:
                visit(child, how)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and how != "typing":
            how = "lazy"
        if isinstance(node, ast.Import):
            found.extend(Import(name, alias.name, node.lineno, how) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.extend(Import(name, resolved(node.module, alias.name), node.lineno, how) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules():
            found.append(Import(name, node.value, node.lineno, "named"))
        for child in ast.iter_child_nodes(node):
            visit(child, how)

    visit(tree, "top")
    return found


@cache
def crux_imports() -> list[Import]:
    return [i for name in sorted(modules()) for i in imports_of(name)
            if i.imported.split(".")[0] == "crux_cli" and i.imported != i.importer]


def package_of(module: str) -> str:
    """`crux_cli.rulesets.crux.grammar` → `rulesets/crux`; `crux_cli.running.output` → `running`."""
    parts = module.split(".")
    if len(parts) == 1:
        return BELOW_ALL
    if parts[1] == "rulesets" and len(parts) > 2:
        return f"rulesets/{parts[2]}"
    if parts[1].startswith("api_"):  # the library's typed fields and hero (api_fields.py, api_hero.py): the api's
        return "api"
    return parts[1]


def level(package: str) -> int:
    if package == BELOW_ALL:
        return -1
    if package == ABOVE_ALL:
        return len(ORDER)
    layer = package.split("/")[0]
    assert layer in ORDER, f"crux_cli/{layer} is in no layer: add it to ORDER here and to CONTRIBUTING.md"
    return ORDER.index(TOP[0]) if layer in TOP else ORDER.index(layer)


def against_the_order(edge: Import) -> str:
    """Why `edge` goes against the layering, or '' when it does not."""
    importer, imported = package_of(edge.importer), package_of(edge.imported)
    if importer == imported:
        return ""
    if importer == BELOW_ALL:
        # It imports nothing of crux when loaded; its module __getattr__ forwards the Python API's names
        # (crux_cli.roll, crux_cli.odds…) to `api` on first use.
        if edge.how != "top" and imported == "api":
            return ""
        return "crux_cli/__init__.py imports nothing of crux"
    if {importer, imported} == set(TOP):
        return "cli and repl never import each other"
    if importer.startswith("rulesets/") and imported.startswith("rulesets/"):
        return "a rule set's folder never imports another rule set's folder"
    if level(imported) > level(importer):
        return f"{importer} is below {imported}"
    return ""


def edges() -> list[Import]:
    return [e for e in crux_imports() if e.importer not in KNOWN_EXCEPTIONS]


def where(edge: Import) -> str:
    path = modules()[edge.importer].relative_to(ROOT)
    return f"{path}:{edge.line} ({edge.how}) imports {edge.imported}"


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        level(package_of(name))


def test_no_import_goes_against_the_layers() -> None:
    wrong = [f"{where(e)}: {why}" for e in edges() if (why := against_the_order(e))]
    assert not wrong, "\n".join(wrong)


def test_no_cycle_between_packages() -> None:
    graph: dict[str, set[str]] = {}
    for edge in edges():
        importer, imported = package_of(edge.importer), package_of(edge.imported)
        if importer != imported:
            graph.setdefault(importer, set()).add(imported)
    cycles = [cycle for cycle in map(lambda p: cycle_from(p, graph), sorted(graph)) if cycle]
    assert not cycles, "\n".join(" → ".join(c) for c in cycles)


def cycle_from(start: str, graph: dict[str, set[str]]) -> list[str]:
    """A path start → … → start, or [] (depth-first)."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for after in sorted(graph.get(node, ())):
            if after == start:
                return [*path, start]
            if after not in seen:
                seen.add(after)
                stack.append((after, [*path, after]))
    return []


# The layers above the rule sets know them through the registry alone (`crux_cli.rulesets`: BUILT_IN, DEFAULT, a
# rule set by its name): what they keep of a rule set's values (a hero, a fight) its facets read, write and
# journal, so not even a type of one is imported there, for the type checker or otherwise (issue 33).
KNOW_NO_RULE_SET = ("state", "running", "api", "table", "cli", "repl")


def rule_set_imports(name: str, source: str | None = None) -> list[Import]:
    """The imports of a rule set's own modules (`crux_cli.rulesets.<name>…`) in module `name`, any kind."""
    return [i for i in imports_of(name, source, typing=True) if i.imported.startswith("crux_cli.rulesets.")]


def test_state_running_api_cli_and_repl_import_no_rule_set() -> None:
    wrong = [where(i) for name in sorted(modules()) if package_of(name) in KNOW_NO_RULE_SET
             for i in rule_set_imports(name)]
    assert not wrong, "\n".join(wrong)


def test_the_rule_set_check_sees_every_kind_of_import() -> None:
    source = """
from typing import TYPE_CHECKING
from crux_cli import rulesets
from crux_cli.rulesets import DEFAULT
if TYPE_CHECKING:
    from crux_cli.rulesets.crux.hero import Hero
def later() -> None:
    from crux_cli.rulesets.crux import sheet_file
MODULE = "crux_cli.rulesets.crux.ruleset"
"""
    found = {(i.imported, i.how) for i in rule_set_imports("crux_cli.state.store", source)}
    assert found == {("crux_cli.rulesets.crux.hero", "typing"), ("crux_cli.rulesets.crux.sheet_file", "lazy"),
                     ("crux_cli.rulesets.crux.ruleset", "named")}


def test_type_checking_imports_are_never_evaluated() -> None:
    """The reason they are left out above: a name imported only for the type checker is never evaluated.

    With `from __future__ import annotations` no annotation is; without it, the names may be used
    only inside string annotations (`session: "Session"`).
    """
    for name, path in modules().items():
        tree = parsed(name)
        guarded = type_checking_only(tree)
        if not guarded or postponed_annotations(tree):
            continue
        names = {(a.asname or a.name).split(".")[0] for n in guarded if isinstance(n, ast.Import | ast.ImportFrom)
                 for a in n.names}
        used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names})
        assert not used, f"{path.relative_to(ROOT)} evaluates {used}, imported only under TYPE_CHECKING"


def postponed_annotations(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
               any(a.name == "annotations" for a in n.names) for n in tree.body)


def test_known_exceptions_still_exist() -> None:
    """An exception is removed with the file it excuses (issue 14 moves repl/fight.py)."""
    for name in KNOWN_EXCEPTIONS:
        assert name in modules(), f"{name} is gone: remove it from KNOWN_EXCEPTIONS"


# -- the checker itself catches what it must ---------------------------------------------------------

@pytest.mark.parametrize(("importer", "imported", "why"), [
    ("crux_cli.core.errors", "crux_cli.probability.dist", "core is below probability"),
    ("crux_cli.dice.engine", "crux_cli.rulesets.crux.engine", "dice is below rulesets/crux"),
    ("crux_cli.repl.app", "crux_cli.cli", "cli and repl never import each other"),
    ("crux_cli.cli", "crux_cli.repl.app", "cli and repl never import each other"),
    ("crux_cli.rulesets.stepdice.engine", "crux_cli.rulesets.crux.engine", "another rule set's folder"),
    ("crux_cli", "crux_cli.core.errors", "imports nothing of crux"),
])
def test_the_checker_refuses(importer: str, imported: str, why: str) -> None:
    assert why in against_the_order(Import(importer, imported, 1, "top"))


@pytest.mark.parametrize(("importer", "imported"), [
    ("crux_cli.rulesets.crux.engine", "crux_cli.core.rng"),
    ("crux_cli.rulesets", "crux_cli.rulesets.crux.ruleset"),  # the registry loads the folders
    ("crux_cli.rulesets.crux.ruleset", "crux_cli.rulesets"),
    ("crux_cli.repl.app", "crux_cli.running.settings"),
    ("crux_cli.__main__", "crux_cli.repl.app"),
    ("crux_cli.cli", "crux_cli"),
])
def test_the_checker_allows(importer: str, imported: str) -> None:
    assert against_the_order(Import(importer, imported, 1, "top")) == ""


SAMPLE = """
from __future__ import annotations
from typing import TYPE_CHECKING
import crux_cli.core.errors
from crux_cli.probability import dist
from crux_cli.dice.engine import roll
if TYPE_CHECKING:
    from crux_cli.repl.session import Session
PLUGINS = {"x": "crux_cli.rulesets.crux.ruleset"}
def later() -> None:
    from crux_cli.render import text
"""


def test_the_walker_sees_top_lazy_and_named_imports_and_skips_type_checking() -> None:
    found = {(i.imported, i.how) for i in imports_of("crux_cli.running.runner", SAMPLE) if "crux" in i.imported}
    assert found == {("crux_cli.core.errors", "top"), ("crux_cli.probability.dist", "top"),
                     ("crux_cli.dice.engine", "top"), ("crux_cli.rulesets.crux.ruleset", "named"),
                     ("crux_cli.render.text", "lazy")}


# -- no circle between modules -----------------------------------------------------------------------

# Circles between modules (each a strongly connected set of modules) being untied now, each by its own part
# of issue 33; every one must still be a circle (test_known_cycles_are_still_cycles), so the set shrinks to
# empty as they land.
KNOWN_CYCLES: set[frozenset[str]] = set()  # every circle of issue 33 untied: none is known, none allowed


def module_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (at the top, inside a function or by name; not under TYPE_CHECKING)."""
    graph: dict[str, set[str]] = {}
    for edge in edges():
        graph.setdefault(edge.importer, set()).add(edge.imported)
    return graph


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The sets of two or more nodes that reach one another (strongly connected components, Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, after = work[-1]
            for next_node in after:
                if next_node not in index:
                    index[next_node] = low[next_node] = len(index)
                    stack.append(next_node)
                    work.append((next_node, iter(sorted(graph.get(next_node, ())))))
                    break
                if next_node in stack:
                    low[node] = min(low[node], index[next_node])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = stack[stack.index(node):]
                    del stack[stack.index(node):]
                    if len(members) > 1:
                        found.add(frozenset(members))
    return found


def described(circle: frozenset[str], graph: dict[str, set[str]]) -> str:
    inside = sorted(f"  {a} → {b}" for a in circle for b in graph.get(a, ()) if b in circle)
    return "\n".join([", ".join(sorted(circle)), *inside])


def test_no_cycle_between_modules() -> None:
    """Inside a package too, modules import one another in one direction (a function-local import counts:
    it only moves the circle to run time)."""
    graph = module_graph()
    new = circles(graph) - KNOWN_CYCLES
    assert not new, "\n\n".join(described(circle, graph) for circle in sorted(new, key=sorted))


def test_known_cycles_are_still_cycles() -> None:
    """A circle untied (or changed) leaves KNOWN_CYCLES: remove it, or write the circle as it is now."""
    found = circles(module_graph())
    gone = [sorted(circle) for circle in KNOWN_CYCLES if circle not in found]
    assert not gone, f"no longer a circle, remove from KNOWN_CYCLES: {gone}"


def test_the_circle_finder_finds_each_circle_once() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": {"e"}, "e": {"d", "f"}, "f": set(), "g": {"g"}}
    assert circles(graph) == {frozenset("abc"), frozenset("de")}


# -- the shared table (issue 34): an extra, imported only by `crux serve`, `/serve` and `crux join` ------

TABLE_DOORS = ("crux_cli.repl.serving", "crux_cli.repl.joining")  # the faces' modules for it


def test_the_table_is_reached_only_through_its_doors_and_they_only_lazily() -> None:
    into_table = [e for e in edges() if package_of(e.imported) == "table" and package_of(e.importer) != "table"]
    assert into_table and all(e.importer in TABLE_DOORS for e in into_table), \
        "\n".join(where(e) for e in into_table if e.importer not in TABLE_DOORS)
    into_doors = [e for e in edges() if e.imported in TABLE_DOORS and e.importer not in TABLE_DOORS]
    eager = [where(e) for e in into_doors if e.how == "top"]
    assert into_doors and not eager, "\n".join(eager)


def test_a_roll_and_the_repl_without_a_table_import_none_of_it() -> None:
    import subprocess
    import sys

    code = ("import sys, crux_cli, crux_cli.repl.app, crux_cli.cli, crux_cli.api; crux_cli.roll('2d6'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'websockets') "
            "or m.startswith('crux_cli.table')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
    one_shot = subprocess.run([sys.executable, "-X", "importtime", "-m", "crux_cli", "2d6"], capture_output=True,
                              text=True, check=True)
    assert not [line for line in one_shot.stderr.splitlines()
                if any(name in line for name in ("starlette", "uvicorn", "websockets", "crux_cli.table"))]
