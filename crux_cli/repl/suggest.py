"""What kind of word fits at the cursor: a pure function of the text before it.

Like litecli's `suggest_type`, this decides only the *kinds* of word (a statement
word, a path, a session command…); the completer turns kinds into words. Within a
statement the active rule set's `Vocabulary` decides: the words it declares after a statement
word (a `Following` table), or kinds of its own naming (`Kinds.suggest`), which the completer
spells with `Kinds.words_for`. Keeping the decision pure lets it be
tested without a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.repl import words

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

# The kinds every session knows; any other kind is the active rule set's own.
STATEMENT = "statement"  # a statement word, an attribute, or an alias
DECLARED = "declared"  # the words a rule set declares for after its statement word
PATH = "path"
COMMAND = "command"  # a session command, with its /
TOPIC = "topic"  # what /help explains
RULES = "rules"  # a rule-set name
COUNTDOWN = "countdown"  # what /countdown does
TABLE = "table"  # a random table's name, after `table`
SESSION_KINDS = frozenset({STATEMENT, DECLARED, PATH, COMMAND, TOPIC, RULES, COUNTDOWN, TABLE})

class Suggestion(Record):
    kinds: tuple[str, ...]
    word: str = ""  # the partial word before the cursor, which a completion replaces
    keyword: str = ""  # the statement word, for DECLARED and the rule set's own kinds


NOTHING = Suggestion(())


def suggest(text_before_cursor: str, rules: RuleSet) -> Suggestion:
    """The kinds of word that fit at the end of `text_before_cursor` in the rule set `rules`."""
    text = text_before_cursor.lstrip()
    if text.startswith("/"):
        return _after_command(text, rules)
    return _in_statement(text, rules)


def split_word(text: str) -> tuple[list[str], str]:
    """(the finished words, the word being typed) — '' when the cursor follows a space."""
    words = text.split()
    if not text or text[-1].isspace():
        return words, ""
    return words[:-1], words[-1]


def odds_statement(statement: str) -> str:
    """The statement being typed, after `odds` and its options (`odds --cumulative atk og`) when there."""
    body = lines.odds_body(statement)
    if body is None:
        return statement
    try:
        asked = lines.odds_asked(body)
    except CruxError:
        return body  # an option still being typed
    return body[asked.start:] if body.rstrip().endswith(asked.statement) else body


def _in_statement(text: str, rules: RuleSet) -> Suggestion:
    if lines.has_comment(text):
        return NOTHING  # a comment: free text
    statement = lines.last_part(text)
    before, word = split_word(odds_statement(statement))
    if not before:
        return Suggestion((STATEMENT,), word)
    first = before[0].lower()
    fights = rules.fight_rules()
    if fights is not None and fights.takes_path(first):  # a fight word that takes a file
        return Suggestion((PATH,), word)
    if first == TABLE and first not in rules.keywords:  # `table lo…`: the tables there are
        return Suggestion((TABLE,), word) if len(before) == 1 else NOTHING
    vocabulary = words.vocabulary(rules)
    if vocabulary.following(first) is not None:
        return Suggestion((DECLARED,), word, first)
    if first not in rules.keywords:
        return NOTHING
    return Suggestion(vocabulary.kinds(before, word), word, first)


def _after_command(text: str, rules: RuleSet) -> Suggestion:
    before, word = split_word(text)
    if not before:
        return Suggestion((COMMAND,), word)
    name = before[0][1:].lower()
    if name == "alias" and "=" in text:
        return _in_statement(text.split("=", 1)[1], rules)
    if name == "load":
        return Suggestion((PATH,), word)
    if len(before) > 1:
        return NOTHING
    return {"rules": Suggestion((RULES,), word), "help": Suggestion((TOPIC,), word),
            "countdown": Suggestion((COUNTDOWN,), word)}.get(name, NOTHING)
