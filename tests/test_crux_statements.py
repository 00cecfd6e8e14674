"""Each Crux statement is declared once (`rulesets/crux/grammar.py`, `STATEMENTS`): its words, grammar, fold, hint
and name. The keywords, the choice of a statement by its first word and a refusal's words come from there."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import ATTRIBUTE_NAMES
from crux_cli.rulesets.crux import grammar, scan, syntax


def test_every_first_word_starts_the_statement_that_declares_it() -> None:
    declared = [(word, statement.kind) for statement in grammar.STATEMENTS.values()
                for word in (*statement.words, *statement.implied)]
    assert len(declared) == len(dict(declared)), "a word starts one statement"
    assert dict(declared) == grammar.KIND
    assert grammar.KEYWORDS == frozenset(grammar.KIND) >= frozenset(ATTRIBUTE_NAMES)


def test_the_scanner_reads_the_declared_statements() -> None:
    assert set(scan.WORDS) == set(grammar.STATEMENTS)


@pytest.mark.parametrize(("text", "kind"), [("test DEX +1b", syntax.Test), ("dex +1b", syntax.Test),
                                            ("save WIL adv", syntax.Save), ("initiative ambush", syntax.Initiative),
                                            ("init", syntax.Initiative), ("attack 2d8+3", syntax.Attack),
                                            ("atk 2d8 heavy", syntax.Attack)])
def test_each_word_of_a_statement_parses_as_it(text: str, kind: type, monkeypatch: pytest.MonkeyPatch) -> None:
    for fast in (True, False):
        monkeypatch.setattr(grammar, "FAST_PATH", fast)
        assert isinstance(grammar.parse(text, text.split()[0]), kind)


@pytest.mark.parametrize("kind", sorted(grammar.STATEMENTS))
def test_a_refusal_names_the_statement_and_gives_its_hint(kind: str) -> None:
    statement = grammar.STATEMENTS[kind]
    with pytest.raises(CruxError) as refused:
        grammar.parse(f"{statement.words[0]} ???", statement.words[0])
    assert statement.name in refused.value.message
    assert refused.value.hint == statement.hint
