"""What kind of word fits at the cursor: a pure function of the text before it.

Like litecli's `suggest_type`, this decides only the *kinds* of word (a statement
word, an attribute, an armour word, a path…); the completer turns kinds into
words. Keeping the decision pure lets it be tested without a terminal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from crux_cli.core import lines
from crux_cli.repl.words import attribute_names, following_words

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

STATEMENT = "statement"  # a statement word, an attribute, or an alias
ATTRIBUTE = "attribute"
SIGNED_ATTRIBUTE = "signed attribute"  # +STR in an attack
MODIFIER = "modifier"  # boons, banes, grit, help, position and effect
SAVE = "save"  # adv, dis, vs rushed
INIT = "init"  # ambush
ATTACK = "attack"  # armour, resist, vuln, minion, rushed…
CONDITION = "condition"
CONDITION_ACTION = "condition action"  # add, remove
REST = "rest"  # field, safe
DAMAGE = "damage"  # crit
DECLARED = "declared"  # the words a rule set declares for after its statement word
PATH = "path"
COMMAND = "command"  # a session command, with its /
TOPIC = "topic"  # what /help explains
RULES = "rules"  # a rule-set name
COUNTDOWN = "countdown"  # what /countdown does

SIGNED_WORD = re.compile(r"[+-][A-Za-z]*")


class Suggestion(NamedTuple):  # NamedTuples, not dataclasses, here: cheaper to create at start-up
    kinds: tuple[str, ...]
    word: str = ""  # the partial word before the cursor, which a completion replaces
    keyword: str = ""  # the statement word, for DECLARED


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


def _in_statement(text: str, rules: RuleSet) -> Suggestion:
    if lines.has_comment(text):
        return NOTHING  # a comment: free text
    statement = lines.last_part(text)
    before, word = split_word(lines.odds_body(statement) or statement)
    if not before:
        return Suggestion((STATEMENT,), word)
    first = before[0].lower()
    if first == "load":
        return Suggestion((PATH,), word)
    if first in ("cond", "condition", "conditions"):  # cond add NAME…, cond remove NAME…
        return Suggestion((CONDITION_ACTION,) if len(before) == 1 else (CONDITION,), word)
    declared = following_words(rules, first)
    if declared is not None:
        return Suggestion((DECLARED,), word, first)
    if first not in rules.keywords or rules.name != "crux":
        return NOTHING
    return _crux(first, len(before), word)


def _crux(first: str, words_before: int, word: str) -> Suggestion:
    if first == "rest":
        return Suggestion((REST,) if words_before == 1 else (), word)
    if first in ("damage", "dmg"):
        return Suggestion((DAMAGE,) if words_before == 2 else (), word)
    if first in ("heal", "show"):
        return NOTHING
    if first in attribute_names():
        return Suggestion((MODIFIER,), word)
    if first == "test":
        return Suggestion((ATTRIBUTE, MODIFIER) if words_before == 1 else (MODIFIER,), word)
    if first == "save":
        return Suggestion((ATTRIBUTE,) if words_before == 1 else (SAVE, MODIFIER), word)
    if first in ("init", "initiative"):
        return Suggestion((INIT, MODIFIER), word)
    if SIGNED_WORD.fullmatch(word) and word[1:]:
        return Suggestion((SIGNED_ATTRIBUTE,), word)  # +STR, -DEX: an attribute's modifier as damage
    return Suggestion((ATTACK, MODIFIER), word)


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
