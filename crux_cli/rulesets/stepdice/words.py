"""Step dice's words for the REPL and its renderer: what follows each statement word, the words
coloured while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD, MIXED
from crux_cli.rulesets.stepdice import grammar

COLOURS: Mapping[str, str] = MappingProxyType({"win": GOOD, "tie": MIXED, "lose": BAD, "critical": CRIT})
DEATH_COLOURS: Mapping[str, str] = MappingProxyType({"taken": BAD, "deal": MIXED, "return": GOOD})  # its line only

MODES = ("enhanced", "impaired")
FOLLOWING = {
    **dict.fromkeys(grammar.SAVE_WORDS, (*dict.fromkeys(grammar.ATTRIBUTES.values()), "vs", *MODES)),
    **dict.fromkeys(grammar.STEP_WORDS, ("up", "down")),
    **dict.fromkeys(grammar.ATTACK_WORDS, ("armor", "grit", "str", *MODES)),
    **dict.fromkeys(grammar.DEATH_WORDS, ("marked",)),
}
HELP = (*(f"{word}: {hint}" for word, hint in grammar.HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType({
    **{w: "keyword" for words in FOLLOWING.values() for w in words},
    **{w: "keyword" for w in ("enh", "imp", "armour", "strength")},
    **dict.fromkeys(grammar.ATTRIBUTES, "attribute"),
})



def lexicon() -> Mapping[str, str]:
    return LEXICON
