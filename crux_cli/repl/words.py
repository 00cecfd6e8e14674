"""The first words of a statement, as the session completes and colours them.

Everything else a statement may say comes from the active rule set's `Vocabulary` (its words,
what follows them, its lexicon); only the statements every rule set shares are named here, and
`vocabulary` is what the session knows of a rule set that gives none: its keywords.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from crux_cli.core import lines
from crux_cli.core.ruleset import EMPTY, Following, Vocabulary

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

GLOBAL_STATEMENTS = (lines.ODDS, "roll", "table")  # exact odds, generic dice and tables: every rule set
DICE_WORDS = ("vs", "min", "max")  # words of generic dice, in every rule set: `1d20+5 vs 15`, `max(1d20, 1d20)`


def statement_words(rules: RuleSet) -> list[str]:
    """First words of a statement: the rule set's, and those every rule set shares."""
    return sorted(set(rules.statement_words()) | set(GLOBAL_STATEMENTS), key=str.lower)


def vocabulary(rules: RuleSet) -> Vocabulary:
    """The rule set's vocabulary; for one without (a plug-in may give none), its keywords and nothing more."""
    return rules.vocabulary if rules.vocabulary is not None else keywords_only(rules.keywords)


@functools.cache
def keywords_only(keywords: frozenset[str]) -> Vocabulary:
    return Vocabulary(words=tuple(sorted(keywords)), after=Following(NONE_AFTER), lexicon=no_lexicon, patterns=(),
                      help=())


NONE_AFTER: Mapping[str, tuple[str, ...]] = MappingProxyType({})


def no_lexicon() -> Mapping[str, str]:
    return EMPTY
