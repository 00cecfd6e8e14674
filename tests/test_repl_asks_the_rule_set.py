"""The REPL asks the active rule set for its words, help and colours, and names none of its own.

Issue 12: `repl/suggest.py`, `commands.py` and `lexer.py` hard-coded Crux's words. Now the Crux
words live in `crux_cli/rulesets/crux/words.py` and reach the REPL only through the `RuleSet`
value, so these checks read the REPL's source for any Crux word or rule-set name left behind.
(`repl/fight.py` moves under the Crux rule set with the fights issue, and is left out until then.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from crux_cli import rulesets
from crux_cli.dice.handler import DICE
from crux_cli.repl import commands

REPL = Path(__file__).resolve().parent.parent / "crux_cli" / "repl"
MODULES = sorted(path for path in REPL.glob("*.py") if path.name != "fight.py")


def crux_only_words() -> set[str]:
    """Words of the Crux rule set that no other rule set, generic dice nor a session command uses."""
    crux = rulesets.load("crux")
    assert crux.vocabulary is not None
    mine = set(crux.keywords) | set(crux.vocabulary.lexicon())
    for kind in ("attribute", "modifier", "save", "init", "attack", "condition", "rest", "damage"):
        mine |= {word.lower() for word, _ in crux.vocabulary.words_for(kind, "")}
    others = set(DICE.keywords) | set(commands.names())
    others |= {w for c in commands.COMMANDS.values() for w in re.findall(r"[a-z]+", c.usage)}  # add, clear…
    for name in rulesets.BUILT_IN:
        if name != "crux":
            vocabulary = rulesets.load(name).vocabulary
            assert vocabulary is not None
            others |= set(rulesets.load(name).keywords) | set(vocabulary.lexicon())
            others |= {w for keyword in rulesets.load(name).keywords for w in vocabulary.following(keyword) or ()}
    return {word for word in mine - others if word.isalpha()}


def strings(tree: ast.Module) -> list[ast.Constant]:
    """Every string constant of the module except docstrings (prose may mention any rule set)."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_crux_word_in_the_repl(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    words = crux_only_words()
    found = {(node.lineno, word) for node in strings(tree)
             for word in re.findall(r"[A-Za-z]+", node.value) if word.lower() in words}
    assert not found, f"{path.name} names Crux words: {sorted(found)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_rule_set_is_singled_out_by_name(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set(rulesets.BUILT_IN)
    compared = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Compare)
                for part in (node.left, *node.comparators)
                if isinstance(part, ast.Constant) and part.value in names]
    assert not compared, f"{path.name} compares with a rule-set name on lines {compared}"


def test_the_check_would_catch_the_old_code() -> None:
    words = crux_only_words()
    assert {"ambush", "heavy", "cond", "rushed", "risky", "initiative", "boons"} <= words
    old = ast.parse('KINDS = ("adv", "dis", "vs rushed")\nif rules.name != "crux":\n    pass\n')
    assert any("rushed" in node.value for node in strings(old))


def test_every_rule_set_brings_its_own_words_help_and_colours() -> None:
    for name in rulesets.BUILT_IN:
        rules = rulesets.load(name)
        vocabulary = rules.vocabulary
        assert vocabulary is not None and vocabulary.help and rules.colours, name
        assert set(rules.colours.values()) <= {"good", "mixed", "bad", "crit"}, name
        assert any(vocabulary.following(k) or vocabulary.kinds((k,), "") for k in rules.keywords), name
