"""d20check's words for the REPL and its renderer: what follows each statement word, the words
coloured while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD
from crux_cli.rulesets.d20check import grammar

COLOURS: Mapping[str, str] = MappingProxyType({"pass": GOOD, "fail": BAD, "crit": CRIT})

FOLLOWING = {
    **dict.fromkeys(grammar.CHECK_WORDS, ("trained", "favored", "hindered")),
    **dict.fromkeys(grammar.DAMAGE_WORDS, ("armor", "immune", "weak")),
}
HELP = (*(f"{word}: {hint}" for word, hint in grammar.HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType({
    **{w: "keyword" for words in FOLLOWING.values() for w in words},
    **{w: "keyword" for w in ("favoured", "favor", "favour", "hinder", "armour")},
    **dict.fromkeys(grammar.STAT_NAMES, "attribute"),
})



def lexicon() -> Mapping[str, str]:
    return LEXICON
