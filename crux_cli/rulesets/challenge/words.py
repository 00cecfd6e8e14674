"""Challenge rolls' words for the REPL and its renderer: what follows each statement word, the words
coloured while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD, MIXED
from crux_cli.rulesets.challenge import engine, grammar

COLOURS: Mapping[str, str] = MappingProxyType({"critical": CRIT, "strong hit": GOOD, "weak hit": MIXED,
                                               "miss": BAD})

FOLLOWING = {
    **dict.fromkeys(grammar.ACTION_WORDS, ("adv", "dis", *engine.RISKS)),
    **dict.fromkeys(grammar.FORTUNE_WORDS, ("adv", "dis")),
}
HELP = (*(f"{word}: {hint}" for word, hint in grammar.HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType(
    {w: "keyword" for w in (*FOLLOWING[grammar.ACTION_WORDS[0]], "advantage", "disadvantage", "risk")})



def lexicon() -> Mapping[str, str]:
    return LEXICON
