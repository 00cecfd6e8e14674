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


def test_a_line_is_lexed_once_a_frame_and_anew_in_the_next(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """prompt-toolkit asks for a line's colours several times a frame: worked out once a frame, and again in the
    next, so a name that became a combatant's between two frames is coloured as one (never stale)."""
    from crux_cli.repl import lexer

    frame = [("app", 1)]
    monkeypatch.setattr(lexer, "current_frame", lambda: frame[0])
    marks: dict[str, str] = {}
    lexed: list[str] = []
    real = lexer.fragments

    def counted(text: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        lexed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(lexer, "fragments", counted)
    line = CruxLexer(lambda: CRUX, frozenset, marked=lambda: marks).lex_document(Document("atk rat"))
    first = [line(0) for _ in range(4)]
    assert lexed == ["atk rat"] and all(f == first[0] for f in first)
    assert ("class:name", "rat") not in first[0]
    marks["rat"] = "class:name"  # a fight began between two frames
    frame[0] = ("app", 2)
    assert ("class:name", "rat") in line(0) and lexed == ["atk rat"] * 2


def test_outside_a_running_app_every_ask_lexes_anew(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from crux_cli.repl import lexer

    assert lexer.current_frame() is None
    marks: dict[str, str] = {}
    line = CruxLexer(lambda: CRUX, frozenset, marked=lambda: marks).lex_document(Document("atk rat"))
    assert ("class:name", "rat") not in line(0)
    marks["rat"] = "class:name"
    assert ("class:name", "rat") in line(0)


def test_the_colours_look_for_no_near_word_but_the_message_still_does() -> None:
    """The lexer needs only where a statement is refused (core.grammar.where_only): the 'did you mean' a
    refusal shows is looked for when the statement is answered, as before."""
    from crux_cli.core.errors import CruxError
    from crux_cli.core.grammar import where_only
    from crux_cli.running.read import parse_statement

    assert error_span("save WIL avd ", CRUX) == (9, 12)
    try:
        parse_statement("save WIL avd", CRUX)
    except CruxError as error:
        assert error.hint is not None and "did you mean 'adv'" in error.hint
        said, where = error.hint, error.position
    with where_only():
        try:
            parse_statement("save WIL avd", CRUX)
        except CruxError as error:
            assert error.position == where and "did you mean" not in (error.hint or "")
    try:
        parse_statement("save WIL avd", CRUX)
    except CruxError as error:
        assert error.hint == said
