"""Completion decided by the pure suggest() and turned into words by the completer, without a terminal."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from crux_cli import rulesets
from crux_cli.core.ruleset import Following, Vocabulary
from crux_cli.dice.handler import DICE
from crux_cli.repl import suggest as kinds
from crux_cli.repl.completer import CruxCompleter
from crux_cli.repl.session import Session
from crux_cli.repl.suggest import suggest
from crux_cli.rulesets.crux import words as crux
from crux_cli.running.runner import Runner

CRUX = rulesets.load("crux")


@pytest.mark.parametrize(("text", "expected", "word"), [
    ("", (kinds.STATEMENT,), ""),
    ("sa", (kinds.STATEMENT,), "sa"),
    ("   DE", (kinds.STATEMENT,), "DE"),
    ("save ", (crux.ATTRIBUTE,), ""),
    ("save W", (crux.ATTRIBUTE,), "W"),
    ("save WIL ", (crux.SAVE, crux.MODIFIER), ""),
    ("test ", (crux.ATTRIBUTE, crux.MODIFIER), ""),
    ("test DEX ", (crux.MODIFIER,), ""),
    ("DEX +1b g", (crux.MODIFIER,), "g"),
    ("init ", (crux.INIT, crux.MODIFIER), ""),
    ("atk 2d8+3 he", (crux.ATTACK, crux.MODIFIER), "he"),
    ("attack d6 +S", (crux.SIGNED_ATTRIBUTE,), "+S"),
    ("cond ", (crux.CONDITION_ACTION,), ""),
    ("cond add pr", (crux.CONDITION,), "pr"),
    ("cond add prone d", (crux.CONDITION,), "d"),
    ("rest ", (crux.REST,), ""),
    ("damage 5 ", (crux.DAMAGE,), ""),
    ("heal ", (), ""),
    ("load ", (kinds.PATH,), ""),
    ("odds ", (kinds.STATEMENT,), ""),
    ("odds save ", (crux.ATTRIBUTE,), ""),
    ("DEX +1b; sa", (kinds.STATEMENT,), "sa"),
    ("DEX +1b; atk d8 ", (crux.ATTACK, crux.MODIFIER), ""),
    ("atk d8 # goblin h", (), ""),
    ("/", (kinds.COMMAND,), "/"),
    ("/se", (kinds.COMMAND,), "/se"),
    ("/load her", (kinds.PATH,), "her"),
    ("/rules ", (kinds.RULES,), ""),
    ("/help ", (kinds.TOPIC,), ""),
    ("/countdown ", (kinds.COUNTDOWN,), ""),
    ("/countdown add Cd8 ", (), ""),
    ("/alias sneak = ", (kinds.STATEMENT,), ""),
    ("/alias sneak = save ", (crux.ATTRIBUTE,), ""),
    ("/seed ", (), ""),
    ("frobnicate ", (), ""),
])
def test_suggest_knows_where_the_cursor_is(text: str, expected: tuple[str, ...], word: str) -> None:
    suggestion = suggest(text, CRUX)
    assert suggestion.kinds == expected
    if expected:
        assert suggestion.word == word


# a rule set that declares the words following its statement words, as any rule set may
OtherRules = DICE.replace(name="other", keywords=frozenset({"check"}),
                          vocabulary=Vocabulary(words=("check",), after=Following({"check": ("trained", "favored")}),
                                                lexicon=dict, patterns=(), help=()))


def test_a_rule_set_declares_what_follows_its_statements() -> None:
    suggestion = suggest("check STR fa", OtherRules)
    assert suggestion == kinds.Suggestion((kinds.DECLARED,), "fa", "check")


def words(text: str, session: Session | None = None) -> list[str]:
    completer = CruxCompleter(session or Session(Runner(seed=1)))
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_statement_words_come_from_the_rule_set_keywords() -> None:
    first = words("")
    assert {"save", "init", "atk", "attack", "test", "DEX", "STR", "INT", "WIL", "odds"} <= set(first)
    assert words("sa") == ["save"]
    assert words("de") == ["DEX", "dexterity"]


def test_completions_replace_the_word_being_typed() -> None:
    completer = CruxCompleter(Session(Runner()))
    [completion] = completer.get_completions(Document("atk 2d8 hea"), CompleteEvent(completion_requested=True))
    assert (completion.text, completion.start_position) == ("heavy", -3)


def test_words_after_each_statement() -> None:
    assert words("save ") == ["STR", "DEX", "INT", "WIL"]
    assert "vs rushed" in words("save WIL ")
    assert words("save WIL a") == ["adv"]
    assert {"medium", "heavy", "resist", "vuln", "minion", "rushed", "grit"} <= set(words("atk 2d8+3 "))
    assert words("atk d6 +S") == ["+STR"]
    assert words("init a") == ["ambush"]
    assert words("cond ") == ["add", "remove"]
    assert words("cond add ") == ["prone", "grappled", "restrained", "blinded", "frightened", "dazed", "dying"]
    assert words("rest s") == ["safe"]
    assert words("DEX +1b r") == ["risky"]


def test_session_commands_and_their_arguments() -> None:
    assert words("/se") == ["/seed", "/serve"]  # /serve: the shared table (issue 34)
    assert {"/help", "/load", "/rules", "/seed", "/alias", "/history", "/countdown", "/quit"} <= set(words("/"))
    assert words("/rules c") == [name for name in rulesets.names() if name.startswith("c")]
    assert {"crux", "challenge"} <= set(words("/rules c"))
    assert words("/rules st") == [name for name in rulesets.names() if name.startswith("st")]
    assert words("/help no") == ["notation"]
    assert words("/countdown a") == ["add"]


def test_every_rule_set_completes_its_statement_words() -> None:
    session = Session(Runner(rules="stepdice"))
    assert {"save", "step", "attack", "death", "roll", "odds"} <= set(words("", session))
    session.handle("/rules d20check")
    assert words("ch", session) == ["check"]


def test_aliases_complete_as_statements() -> None:
    session = Session(Runner())
    session.handle("/alias sneak = DEX +1b")
    assert words("sn", session) == ["sneak"]


def test_paths_after_load_offer_sheets_and_folders(tmp_path, monkeypatch) -> None:
    (tmp_path / "aria.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "party").mkdir()
    monkeypatch.chdir(tmp_path)
    assert sorted(words("/load ")) == ["aria.toml", "party"]
    assert words("/load ar") == ["ia.toml"]  # prompt-toolkit's path completer inserts the rest
    assert words("load ar") == ["ia.toml"]


def test_undo_and_redo_complete_like_statements() -> None:
    offered = words("re")
    assert "redo" in offered and "rest" in offered
    assert "undo" in words("un")
