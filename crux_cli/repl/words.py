"""The first words of a statement, as the session completes and colours them.

Everything else a statement may say comes from the active rule set (`RuleSet.words`,
`following`, `suggest`, `words_for`, `lexicon`); only the statements every rule set
shares are named here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core import lines

if TYPE_CHECKING:
    from crux_cli.core.ruleset import RuleSet

GLOBAL_STATEMENTS = (lines.ODDS, "roll", "table")  # exact odds, generic dice and tables: every rule set
DICE_WORDS = ("vs", "min", "max")  # words of generic dice, in every rule set: `1d20+5 vs 15`, `max(1d20, 1d20)`


def statement_words(rules: RuleSet) -> list[str]:
    """First words of a statement: the rule set's, and those every rule set shares."""
    return sorted(set(rules.statement_words()) | set(GLOBAL_STATEMENTS), key=str.lower)
