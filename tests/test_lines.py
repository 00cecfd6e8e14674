"""The one line splitter (crux_cli.core.lines) every reader of a line uses: `;`, `#` and `odds`."""

from __future__ import annotations

import pytest

from crux_cli.core import lines


def test_statements_and_a_comment():
    text, comment = lines.split_comment("DEX +1b; odds atk d8 # goblin")
    assert (lines.split_statements(text), comment) == (["DEX +1b", "odds atk d8"], "goblin")


def test_spans_know_where_each_statement_starts():
    line = "DEX;  atk d8 ;"
    assert lines.spans(line) == [(0, "DEX"), (6, "atk d8"), (len(line), "")]
    assert all(line[at:at + len(part)] == part for at, part in lines.spans(line))


@pytest.mark.parametrize(("statement", "body"), [("odds DEX", " DEX"), ("ODDS  atk d8", "  atk d8"), ("odds", ""),
                                                 ("oddsy", None), ("DEX", None), ("  odds x", " x")])
def test_odds_is_a_word_at_the_start(statement, body):
    assert lines.odds_body(statement) == body


def test_blank_lines_and_comments_answer_nothing():
    assert lines.is_blank("   # a note") and lines.is_blank("") and not lines.is_blank("DEX # note")
    assert lines.last_part("DEX; atk d8 he") == " atk d8 he" and lines.code("DEX # a; b") == "DEX "


def test_the_runner_session_lexer_and_suggester_share_it():
    import inspect

    from crux_cli.repl import lexer, session, suggest
    from crux_cli.running import runner

    for module in (runner, session, lexer, suggest):
        source = inspect.getsource(module)
        assert "lines." in source or "crux_cli.core.lines" in source, module.__name__
        assert 'split("#"' not in source and 'split(";")' not in source, module.__name__
