"""Shared pieces of every grammar: the input check, numbers, and turning pyparsing's
failures into errors a person can act on.

Grammars are built lazily (one statement's grammar at a time) because building
pyparsing elements costs start-up time and a one-shot roll needs only one. pyparsing
itself is imported on first use, through `pp` below: plain statements are read by the
scanners (rulesets/crux/scan.py, dice/scan.py) without it, so neither a one-shot roll
nor the REPL's first answer waits for its import.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_INPUT, MAX_INTEGER, MAX_NESTING

Tree = TypeVar("Tree")  # the syntax tree a statement's fold builds


class _Pyparsing:
    """The pyparsing module, imported when a grammar first asks for it, set to skip only spaces and tabs.

    Every grammar module takes `pp` from here rather than importing pyparsing, so the whitespace
    setting always comes before the first element is built.
    """

    module: Any = None

    def __getattr__(self, name: str) -> Any:
        module = _Pyparsing.module
        if module is None:
            import pyparsing

            pyparsing.ParserElement.set_default_whitespace_chars(" \t")
            module = _Pyparsing.module = pyparsing
        return getattr(module, name)


if TYPE_CHECKING:  # checked as the module it stands for
    import pyparsing

    pp = pyparsing
else:
    pp = _Pyparsing()


class Pattern:
    """A regular expression compiled when first used: a statement typed the instant the REPL's prompt
    shows should not wait for the patterns of words it does not use (each costs a few milliseconds),
    nor a command for the patterns of statements it is not given."""

    __slots__ = ("compiled", "match", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.compiled: re.Pattern[str] | None = None
        # the first match compiles; from then on `match` is the compiled pattern's own, called with no layer
        # of Python around it (a scanner matches a dozen words a line: tests/bench/bench_batch.py)
        self.match: Callable[..., re.Match[str] | None] = self.first_match

    def first_match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        compiled = self.compiled
        if compiled is None:
            compiled = self.compiled = re.compile(self.source)
        self.match = compiled.match
        return compiled.match(text, pos)

    def __getattr__(self, name: str) -> Any:
        """The compiled pattern's other methods (`search`, `fullmatch`, `sub`, `split`…), compiled at the first."""
        if name in self.__slots__:  # an unset slot: never a method of the pattern
            raise AttributeError(name)
        if self.compiled is None:
            self.compiled = re.compile(self.source)
        return getattr(self.compiled, name)


def check_input(text: str) -> None:
    """Refuse what no grammar should ever see: too long, too deep, or invisible characters."""
    if len(text) > MAX_INPUT:
        raise LimitError(f"the statement is {len(text):,} characters long; the limit is {MAX_INPUT:,}",
                         text=text[:60] + "…", position=None, hint="split it into several statements")
    if text.isprintable() and text.count("(") + text.count("{") <= MAX_NESTING:  # the usual line, checked in C
        return
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(" or ch == "{":  # parentheses, min( and max(, and grouped rolls all nest
            depth += 1
            if depth > MAX_NESTING:
                raise LimitError(f"parentheses nest more than {MAX_NESTING} levels deep (the limit)",
                                 text=text, position=i)
        elif ch == ")" or ch == "}":
            depth -= 1
        elif not ch.isprintable() and ch != "\t":
            raise CruxError(f"the input contains an invisible or control character ({_codepoint(ch)})",
                            text=text, position=i, hint="type the statement as plain text")


REPEAT_TIMES = r"^(\s*\d+)×(?=\s)"  # `6× 4d6kh3` repeats, as `6x 4d6kh3` does (compiled when a × comes)


def typographic(text: str) -> str:
    """The characters crux prints, read as their ASCII forms: − (U+2212) as -, × as * (or the x of `6× …`).

    One character for one, so positions in errors still point at what was typed.
    """
    if "−" not in text and "×" not in text:
        return text
    text = re.sub(REPEAT_TIMES, lambda m: m.group(1) + "x", text.replace("−", "-"))
    return text.replace("×", "*")


def _codepoint(ch: str) -> str:
    import unicodedata

    return f"U+{ord(ch):04X} {unicodedata.name(ch, '').lower()}".strip()


SHORT_DIGITS = len(str(MAX_INTEGER))  # a literal of fewer digits is under the limit


def integer(value: str, text: str, loc: int) -> int:
    """An integer literal, refused before conversion when it is over the limit."""
    if len(value) < SHORT_DIGITS and value.isascii() and value.isdigit():  # plain digits under the limit
        return int(value)
    digits = value.lstrip("+-").strip().lstrip("0") or "0"
    if len(digits) > SHORT_DIGITS or int(digits) > MAX_INTEGER:
        raise LimitError(f"{value.strip()[:12]}{'…' if len(value) > 12 else ''} is larger than "
                         f"{MAX_INTEGER:,} (the limit for a number)", text=text, position=loc)
    return int("".join(value.split()))  # `+ 2` and `+\t2` (flat damage) as +2


def number() -> pp.ParserElement:
    """A whole number (no sign), checked against the limit."""
    word = pp.Regex(r"\d+(?![A-Za-z0-9_])").set_name("number")
    return word.set_parse_action(lambda s, loc, t: integer(t[0], s, loc))


def keyword(*words: str) -> pp.ParserElement:
    """Case-insensitive keywords; the first spelling is the canonical one."""
    canonical = words[0]
    element = pp.MatchFirst(pp.CaselessKeyword(w) for w in sorted(words, key=len, reverse=True))
    return element.set_parse_action(pp.replace_with(canonical)).set_name(canonical)


def tagged(element: pp.ParserElement, tag: str, value: Callable[[Any], Any] | None = None) -> pp.ParserElement:
    """Each match becomes (tag, value, location), so the folding code can report positions."""

    def action(s: str, loc: int, toks: pp.ParseResults) -> tuple[str, Any, int]:
        loc += len(s[loc:]) - len(s[loc:].lstrip(" \t"))  # a Group reports where its whitespace began
        return (tag, value(toks) if value else toks[0], loc)

    return pp.Group(element).set_parse_action(lambda s, loc, t: action(s, loc, t[0]))


def parse_with(grammar: pp.ParserElement, text: str, explain: Callable[[str, int], CruxError]) -> list[Any]:
    """Parse all of `text`, turning a pyparsing failure into a CruxError from `explain`."""
    grammar.parse_with_tabs()  # else pyparsing expands tabs and its positions no longer match the input
    try:
        return grammar.parse_string(text, parse_all=True).as_list()
    except pp.ParseBaseException as failure:
        raise explain(text, failure.loc) from None
    except RecursionError:
        raise LimitError("the statement nests too deeply to read", text=text) from None
    except CruxError as error:
        raise error.at(text) from None


def word_at(text: str, loc: int) -> str:
    """The word (or single symbol) that starts at `loc`, for messages."""
    rest = text[loc:].lstrip()
    if not rest:
        return ""
    run = []
    for ch in rest:
        if ch.isspace():
            break
        run.append(ch)
        if not (ch.isalnum() or ch in "+-_"):
            break
    return "".join(run)


def not_understood(text: str, loc: int, what: str, hint: str | None,
                   grammar: pp.ParserElement | None = None) -> CruxError:
    """The common parse error: something at `loc` that the statement does not take.

    Given the grammar, a word it nearly takes is named (`avd` → did you mean 'adv'?).
    """
    loc = len(text) - len(text[loc:].lstrip())
    word = word_at(text, loc)
    if not word:
        return CruxError(f"{what} ended too soon", text=text, position=loc, hint=hint)
    if not word.isascii():
        return CruxError(f"'{word[0]}' ({_codepoint(word[0])}) is not part of the notation", text=text,
                         position=loc, hint="use plain ASCII letters, digits and signs")
    fix = did_you_mean(text, loc, word, grammar) if grammar is not None and _HINTED.get() else None
    if fix is not None:
        hint = f"did you mean '{fix}'?" + (f" ({hint})" if hint else "")
    return CruxError(f"{what} does not take '{word}' here", text=text, position=loc, hint=hint)


_HINTED = contextvars.ContextVar("hinted", default=True)


@contextlib.contextmanager
def where_only() -> Iterator[None]:
    """Within, a refusal says where and what, without looking for a word the statement nearly takes: for a
    reader that needs only the place (the REPL's colours, at every key). Nothing keeps these refusals."""
    token = _HINTED.set(False)
    try:
        yield
    finally:
        _HINTED.reset(token)


def did_you_mean(text: str, loc: int, word: str, grammar: pp.ParserElement) -> str | None:
    """A word close to `word` that makes the statement read further, in the case `word` was typed."""
    import difflib

    candidates = [f"{word}b", f"{word}B"] if re.fullmatch(r"[+-]\d+", word) else []  # DEX +2 → +2b
    candidates += [in_case_of(word, close) for close in
                   difflib.get_close_matches(word.lower(), vocabulary(grammar), n=4, cutoff=0.6)]
    for candidate in candidates:
        if candidate != word and reads_past(grammar, text[:loc] + candidate + text[loc + len(word):],
                                            loc + len(candidate)):
            return candidate
    return None


def in_case_of(typed: str, word: str) -> str:
    """`word` in the case `typed` was written in: AVD → ADV, Avd → Adv, avd → adv."""
    if typed.isupper() and any(ch.isalpha() for ch in typed):
        return word.upper()
    if typed[:1].isupper():
        return word[:1].upper() + word[1:].lower()
    return word.lower()


def reads_past(grammar: pp.ParserElement, text: str, end: int) -> bool:
    """Does `grammar` take all of `text`, or fail only after `end`?"""
    try:
        grammar.parse_string(text, parse_all=True)
    except pp.ParseBaseException as failure:
        return failure.loc > end
    except (CruxError, RecursionError):
        return False
    return True


def vocabulary(grammar: pp.ParserElement) -> list[str]:
    """The keywords `grammar` matches, lower-cased (found by walking its elements)."""
    seen: set[int] = set()
    words: set[str] = set()
    stack = [grammar]
    while stack:
        element = stack.pop()
        if id(element) in seen:
            continue
        seen.add(id(element))
        if isinstance(element, pp.Keyword | pp.Literal) and element.match.isalpha():
            words.add(element.match.lower())
        stack += getattr(element, "exprs", [])
        inner = getattr(element, "expr", None)
        if isinstance(inner, pp.ParserElement):
            stack.append(inner)
    return sorted(words)


def parse_and_fold(text: str, grammar: pp.ParserElement, fold: Callable[[list[Any], str], Tree], name: str,
                   hint: str | None) -> Tree:
    """Parse `text` with one statement's grammar and fold its tagged words into the syntax tree.

    `name` ("a save", "an attack") and `hint` word the error when the grammar does not match.
    """
    words = parse_with(grammar, text, lambda s, loc: not_understood(s, loc, name, hint, grammar))
    try:
        return fold(words, text)
    except CruxError as error:
        raise error.at(text) from None


def scanned_or_parsed(text: str, kind: str, scan: Callable[[str, str], list[Any] | None] | None,
                      grammar: Callable[[], pp.ParserElement], fold: Callable[[list[Any], str], Tree], name: str,
                      hint: str | None) -> Tree:
    """A statement read by its rule set's scanner when it can (`scan`: a plain statement without pyparsing,
    tests/bench/bench_startup.py), else by its grammar, which also words every refusal the scanner gave up on."""
    if scan is not None:
        try:
            words = scan(kind, text)
            if words is not None:
                return fold(words, text)
        except CruxError:
            pass  # a refusal: the grammar reads the statement again and words it
    return parse_and_fold(text, grammar(), fold, name, hint)


def join_words(*parts: object) -> str:
    """Canonical text: the words that are there, one space apart (a 0 is a word; None, False, '' are not)."""
    return " ".join(str(p) for p in parts if p is not None and p is not False and p != "")
