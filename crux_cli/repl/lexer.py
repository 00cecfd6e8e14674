"""Colours the notation while it is typed, and marks the word the parser would refuse.

The active rule set says which words are keywords and attributes (`RuleSet.keywords`
and `Vocabulary.lexicon`).

A plain prompt-toolkit Lexer over one regular expression rather than Pygments,
which would cost start-up time. The error span comes from the real parser, so
the colours never disagree with what Enter will do; it is cached by text,
because prompt-toolkit asks again on every redraw.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from prompt_toolkit.application.current import get_app_or_none
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer

from crux_cli import rulesets
from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import where_only
from crux_cli.repl import words
from crux_cli.running.read import parse_statement

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

HEAD = r"""
    (?P<comment>\#.*)
  | (?P<label>\[[^\]]*\]?)
"""
TAIL = r"""
  | (?P<dice>(?<![\w])[Cc]?\d*[dD](?:\d+|%|F)(?:!!?|[kd][hl]?\d*|r[or]<?\d*|>=?\d+|s)*|(?<=\})(?:[kd][hl]?)\d*)
  | (?P<word>[A-Za-z_]\w*)
  | (?P<number>\d+)
"""


@functools.cache
def tokens(patterns: tuple[tuple[str, str], ...] = ()) -> re.Pattern[str]:
    """The token expression, with a rule set's own `patterns` (lexer class, expression) before dice and words.

    Compiled on first use: start-up only draws an empty prompt.
    """
    own = "".join(f"\n  | (?P<{name}>{expression})" for name, expression in patterns)
    return re.compile(HEAD + own + TAIL, re.VERBOSE)


Fragments = list[tuple[str, str]]


def fragments(text: str, rules: RuleSet, aliases: frozenset[str] = frozenset(), judge: bool = True,
              marked: Mapping[str, str] = MappingProxyType({})) -> Fragments:
    """(style, text) pairs covering `text`: the lexer's answer for one line.

    With `judge` false (a line another reader claims, such as a fight word) no word is marked as an error;
    `marked` styles words of the moment (lower case): fight words, the combatants' names.
    """
    if text.lstrip().startswith("/"):
        return _command_line(text)
    out: Fragments = []
    error = error_span(text, rules, aliases) if judge else None
    at = 0
    for match in tokens(words.vocabulary(rules).patterns).finditer(text):
        out.append(("", text[at:match.start()]))
        word = match.group().lower()
        out.append((marked[word] if word in marked else _style(match, rules, aliases), match.group()))
        at = match.end()
    out.append(("", text[at:]))
    return _mark(out, error) if error else [f for f in out if f[1]]


def _style(match: re.Match[str], rules: RuleSet, aliases: frozenset[str]) -> str:
    kind = match.lastgroup or ""
    if kind != "word":
        return f"class:{kind}"
    word = match.group().lower()
    coloured = words.vocabulary(rules).lexicon().get(word)
    if coloured:
        return f"class:{coloured}"
    if word in rules.keywords or word in words.GLOBAL_STATEMENTS or word in words.DICE_WORDS:
        return "class:keyword"
    return "class:alias" if word in aliases else ""


def _command_line(text: str) -> Fragments:
    head = len(text) - len(text.lstrip()) + len(text.split(maxsplit=1)[0]) if text.strip() else len(text)
    return [f for f in [("class:command", text[:head]), ("", text[head:])] if f[1]]


def _mark(out: Fragments, span: tuple[int, int]) -> Fragments:
    """Split the fragments so the characters of `span` carry the error style too."""
    start, end = span
    marked: Fragments = []
    at = 0
    for style, piece in out:
        for i, ch in enumerate(piece):
            where = at + i
            here = f"{style} class:error".strip() if start <= where < end else style
            if marked and marked[-1][0] == here:
                marked[-1] = (here, marked[-1][1] + ch)
            else:
                marked.append((here, ch))
        at += len(piece)
    return marked


def error_span(text: str, rules: RuleSet, aliases: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    return _error_span(text, rules.name, aliases)


@functools.lru_cache(maxsize=512)
def _error_span(text: str, rules_name: str, aliases: frozenset[str]) -> tuple[int, int] | None:
    """(start, end) of the word the parser refuses, or None. A word still being typed is never an error."""
    rules = rulesets.load(rules_name)
    quoted = ""  # the quote `odds '…; …'` opened around its statements, until it closes
    for start, statement in lines.spans(lines.code(text)):
        body = lines.odds_body(statement)
        if body is not None:
            try:
                asked = lines.odds_asked(body)  # its options and quotes are not the statement's
            except CruxError:
                continue  # an option still being typed (`odds --at-least `)
            start += len(statement) - len(body) + asked.start
            statement = asked.statement
            if statement[:1] in lines.QUOTES and statement.count(statement[0]) % 2:
                quoted, statement, start = statement[0], statement[1:], start + 1
        elif quoted and quoted in statement:  # the last statement of the quoted comparison
            statement, quoted = statement[:statement.rindex(quoted)].rstrip(), ""
        if not statement or statement.split()[0].lower() in aliases:
            continue
        try:
            with where_only():  # the place is all the colours need: no 'did you mean' tried at every key
                parse_statement(statement, rules)
        except CruxError as error:
            first, last = _word_span(statement, error.position or 0)
            if first >= len(statement) or start + last >= len(text):
                return None  # 'ended too soon', or the word at the cursor: the user is still typing
            return (start + first, start + last)
    return None


def _word_span(text: str, position: int) -> tuple[int, int]:
    end = position
    while end < len(text) and not text[end].isspace():
        end += 1
    return position, max(end, position + 1)


class CruxLexer(Lexer):
    """The Lexer prompt-toolkit asks for each line; the rule set and aliases can change mid-session.

    `claimed(line)` tells a line the rule set's parser does not read (a fight word), so it is not judged.
    """

    def __init__(self, rules: Callable[[], RuleSet], aliases: Callable[[], frozenset[str]],
                 claimed: Callable[[str], bool] = lambda line: False,
                 marked: Callable[[], Mapping[str, str]] = dict) -> None:
        self.rules = rules
        self.aliases = aliases
        self.claimed = claimed
        self.marked = marked  # fight words and names, which change as a fight goes

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        rows = document.lines
        drawn: dict[int, tuple[object, StyleAndTextTuples]] = {}  # row -> (the frame it was lexed for, fragments)

        def line(number: int) -> StyleAndTextTuples:
            if number >= len(rows) or not rows[number]:
                return []  # an empty prompt needs no rule set: start-up stays quick
            frame = current_frame()
            kept = drawn.get(number)
            if kept is not None and frame is not None and kept[0] == frame:
                return kept[1]
            text = rows[number]
            lexed = fragments(text, self.rules(), self.aliases(), judge=not self.claimed(text), marked=self.marked())
            drawn[number] = (frame, lexed)  # type: ignore[assignment]
            return lexed  # type: ignore[return-value]

        return line


def current_frame() -> object | None:
    """The frame prompt-toolkit is drawing (its app and render count), or None outside a running app.

    One frame asks for a line's colours four times (its height, the cursor, the text, the margin): they are
    worked out once a frame. Each frame works them out anew, as the fight, the aliases or a file on disk
    may have changed what they are between two frames (tests/test_repl_lexer.py).
    """
    app = get_app_or_none()
    return None if app is None or not app.is_running else (id(app), app.render_counter)
