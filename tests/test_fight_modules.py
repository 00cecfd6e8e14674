"""The fight as functions over its value (issue 33): a line read once into a `FightWord`, one word → function
table, rolls built as statement values, and fight modules that import one another in one direction."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_repl_fight import said

from crux_cli.core.rng import ScriptedSource
from crux_cli.core.ruleset import FightLine
from crux_cli.repl.session import Session
from crux_cli.running.runner import Runner

CRUX = Path(__file__).resolve().parent.parent / "crux_cli" / "rulesets" / "crux"
FIGHT_MODULES = [CRUX / f"{name}.py" for name in (  # the fight's words, its line, its value and what it shows
    "fight", "fight_attack", "fight_line", "fight_rolls", "fight_setup", "fight_state", "fight_step", "fight_turns",
    "fight_view", "fight_words", "fights")]


def session_with(*lines: str, faces: list[int] | None = None) -> Session:
    session = Session(Runner(source=ScriptedSource(faces or [])))
    for line in lines:
        said(session, line)
    return session


def imports_of(path: Path) -> set[str]:
    """The modules of rulesets/crux that `path` imports, at the top or in a function (not for the type checker
    alone), or names in a string (`lazy_value`)."""
    tree = ast.parse(path.read_text())
    checking = {id(node) for top in ast.walk(tree) if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(
        top.test) for node in ast.walk(top)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("crux_cli.rulesets.crux"):
            named = node.module.split(".")[3:] or [a.name for a in node.names]
            found.update(n for n in named if (CRUX / f"{n}.py").exists())
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value.startswith("crux_cli.rulesets.crux."):
            found.add(node.value.split(":")[0].split(".")[3])
    return found - {path.stem}


def test_the_crux_modules_import_one_another_in_one_direction() -> None:
    graph = {path.stem: imports_of(path) for path in CRUX.glob("*.py")}

    def reaches(start: str, goal: str) -> list[str]:
        stack, seen = [(start, [start])], set()
        while stack:
            name, path = stack.pop()
            for after in sorted(graph.get(name, ())):
                if after == goal:
                    return [*path, after]
                if after not in seen:
                    seen.add(after)
                    stack.append((after, [*path, after]))
        return []

    circles = [" → ".join(found) for name in sorted(graph) if (found := reaches(name, name))]
    assert not circles, circles


def test_no_fight_module_class_or_function_is_long() -> None:
    for path in FIGHT_MODULES:
        text = path.read_text()
        assert len(text.splitlines()) <= 600, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno - node.lineno < 400, f"{path.name}: class {node.name}"
            elif isinstance(node, ast.FunctionDef):
                assert node.end_lineno - node.lineno < 40, f"{path.name}: {node.name}"


def test_every_fight_word_is_a_function_of_the_one_table_built_at_import() -> None:
    from crux_cli.rulesets.crux import fight, fight_words

    for word in (*fight_words.DURING, *fight_words.ACTING):
        renamed = fight_words.RENAMED.get(word, word)
        assert renamed in fight.WORDS, word
    session = session_with("fight", "hero Bram", "enemy goblin hp 9 atk d6")
    table = fight.WORDS
    read = fight_words.read("status", session.fight)
    assert fight.found(read, session.fight) is table["status"]
    said(session, "status")
    assert fight.WORDS is table  # not built again for a word


def test_a_line_is_read_once_into_a_fight_word_with_named_fields() -> None:
    from crux_cli.rulesets.crux.fight_words import FightWord

    session = session_with("fight", "hero Bram", "enemy goblin hp 9 atk d6")
    fights = session.runner.rules.fight_rules()
    saved = fights.read("save! my fight.toml", session.fight)
    assert isinstance(saved, FightWord) and isinstance(saved, FightLine)
    assert (saved.file, saved.saves, saved.forced, saved.line) == ("my fight.toml", True, True, "save my fight.toml")
    assert "holds an earlier fight" in saved.question
    new = fights.read("fight", session.fight)
    assert new.line == "fight" and "start a new one?" in new.question and not new.saves
    assert fights.read("fight new", session.fight).question == ""
    loading = fights.read("load old.toml", session.fight)
    assert loading.file == "old.toml" and "replace it with old.toml" in loading.question
    attack = fights.read('atk "goblin" d6 +1b', session.fight)
    assert attack.word == "atk" and [w.text for w in attack.args] == ["goblin", "d6", "+1b"] and not attack.question
    assert fights.read("attack goblin", session.fight).word == "atk"


def test_the_guard_and_the_runner_share_one_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    session = session_with("fight", "hero Bram", "enemy goblin hp 9 atk d6", "init", faces=[5])
    fights = session.runner.rules.fight_rules()
    read, lines = fights.read, []

    def counted(line: str, fight: object) -> FightLine:
        lines.append(line)
        return read(line, fight)

    monkeypatch.setattr(fights, "read", counted)
    said(session, "cast")
    assert lines == ["cast"]


def test_an_attack_is_rolled_as_a_value_the_grammar_reads_only_what_was_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.rulesets.crux import grammar

    session = session_with("fight", "hero Bram", "enemy goblin hp 9 heavy atk d6", "init", faces=[5, 6, 3, 2])
    parse, parsed = grammar.parse, []

    def reading(text: str, keyword: str) -> object:
        parsed.append(text)
        return parse(text, keyword)

    monkeypatch.setattr(grammar, "parse", reading)
    out = said(session, "atk goblin d8 +1b")
    assert "Bram → goblin: atk d8 +1b heavy" in out  # shown as typed, with the target's armour
    assert parsed == ["atk d8 +1b"]  # the armour was added to the value, not read back from text
