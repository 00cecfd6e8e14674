"""Syntax highlighting of the notation, and the error span taken from the real parser."""

from __future__ import annotations

from prompt_toolkit.document import Document

from crux_cli import rulesets
from crux_cli.repl.lexer import CruxLexer, error_span, fragments

CRUX = rulesets.load("crux")


def styled(text: str, aliases: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The non-blank fragments, as (style, text)."""
    return [(style, piece) for style, piece in fragments(text, CRUX, aliases) if piece.strip()]


def test_fragments_cover_the_text_exactly() -> None:
    for text in ["DEX +2b -1B grit", "atk 2d8+3 heavy # goblin", "save XYZ adv ", "  /seed 3", ""]:
        assert "".join(piece for _, piece in fragments(text, CRUX)) == text


def test_attributes_boons_banes_and_keywords() -> None:
    assert styled("DEX +2b -1B grit") == [("class:attribute", "DEX"), ("class:bonus", "+2b"),
                                          ("class:penalty", "-1B"), ("class:keyword", "grit")]
    assert styled("save will 2 boons")[1:] == [("class:attribute", "will"), ("class:number", "2"),
                                               ("class:keyword", "boons")]


def test_dice_numbers_labels_and_comments() -> None:
    assert styled("atk 2d8+3 heavy # goblin") == [("class:keyword", "atk"), ("class:dice", "2d8"), ("", "+"),
                                                  ("class:number", "3"), ("class:keyword", "heavy"),
                                                  ("class:comment", "# goblin")]
    assert ("class:dice", "4d6kh3") in styled("roll 4d6kh3")
    assert ("class:dice", "d%") in styled("roll d%")
    assert ("class:label", "[fire]") in styled("roll 2d6 [fire]")


def test_a_refused_word_is_marked_once_it_is_finished() -> None:
    assert ("class:error", "XYZ") in styled("save XYZ adv")
    assert ("class:error", "bogus") in styled("DEX +1b; atk d8 bogus ")
    assert error_span("save XYZ adv", CRUX) == (5, 8)


def test_the_word_being_typed_is_not_an_error_yet() -> None:
    assert error_span("sav", CRUX) is None
    assert error_span("save WIL ad", CRUX) is None
    assert error_span("save ", CRUX) is None  # 'ended too soon' is just unfinished
    assert error_span("save WIL ad ", CRUX) == (9, 11)


def test_odds_and_aliases_are_understood() -> None:
    assert error_span("odds DEX +1b ", CRUX) is None
    assert error_span("odds DEX bogus ", CRUX) == (9, 14)
    assert error_span("sneak grit ", CRUX, frozenset({"sneak"})) is None
    assert styled("sneak grit", frozenset({"sneak"}))[0] == ("class:alias", "sneak")


def test_session_commands_colour_the_command() -> None:
    assert styled("/seed 42") == [("class:command", "/seed"), ("", " 42")]


def test_the_lexer_follows_the_rule_set_of_the_moment() -> None:
    rules = [CRUX]
    lexer = CruxLexer(lambda: rules[0], lambda: frozenset())
    line = lexer.lex_document(Document("save WIL adv"))
    assert line(0)[0] == ("class:keyword", "save")
    assert line(1) == []
