"""d20check's words: the statement words and Stat names the grammar and its scanner read (so neither
imports the other for them), and for the REPL and its renderer what follows each statement word, the words
coloured while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD

CHECK_WORDS = ("check",)
DAMAGE_WORDS = ("damage", "dmg")
STAT_NAMES = {"might": "Might", "mig": "Might", "dexterity": "Dexterity", "dex": "Dexterity",
              "awareness": "Awareness", "awa": "Awareness", "reason": "Reason", "rea": "Reason",
              "presence": "Presence", "pre": "Presence", "luck": "Luck"}
HINTS = {  # the statement's shape, under a refusal and in `/help notation`
    "check": "a check takes a Stat (a number, the seed's run 2 to 7), trained, favored, hindered",
    "damage": "damage takes dice (2d6, d8+1), armor N, immune, weak",
}

COLOURS: Mapping[str, str] = MappingProxyType({"pass": GOOD, "fail": BAD, "crit": CRIT})

FOLLOWING = {
    **dict.fromkeys(CHECK_WORDS, ("trained", "favored", "hindered")),
    **dict.fromkeys(DAMAGE_WORDS, ("armor", "immune", "weak")),
}
HELP = (*(f"{word}: {hint}" for word, hint in HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType({
    **{w: "keyword" for words in FOLLOWING.values() for w in words},
    **{w: "keyword" for w in ("favoured", "favor", "favour", "hinder", "armour")},
    **dict.fromkeys(STAT_NAMES, "attribute"),
})



def lexicon() -> Mapping[str, str]:
    return LEXICON
