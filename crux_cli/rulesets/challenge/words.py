"""Challenge rolls' words: the statement words the grammar and its scanner read (so neither imports the
other for them), and for the REPL and its renderer what follows each statement word, the words coloured
while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD, MIXED
from crux_cli.rulesets.challenge import engine

ACTION_WORDS = ("action",)
FORTUNE_WORDS = ("fortune",)
RESIST_WORDS = ("resist", "resistance")
HINTS = {  # the statement's shape, under a refusal and in `/help notation`
    "action": "an action takes a rating (dice), adv, dis and a risk: minor, moderate or major",
    "fortune": "a fortune roll takes a rating (dice), then adv or dis for each major (dis)advantage",
    "resist": "a resistance roll takes a rating: the dice of the attribute the GM chose",
}

COLOURS: Mapping[str, str] = MappingProxyType({"critical": CRIT, "strong hit": GOOD, "weak hit": MIXED,
                                               "miss": BAD})

FOLLOWING = {
    **dict.fromkeys(ACTION_WORDS, ("adv", "dis", *engine.RISKS)),
    **dict.fromkeys(FORTUNE_WORDS, ("adv", "dis")),
}
HELP = (*(f"{word}: {hint}" for word, hint in HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType(
    {w: "keyword" for w in (*FOLLOWING[ACTION_WORDS[0]], "advantage", "disadvantage", "risk")})



def lexicon() -> Mapping[str, str]:
    return LEXICON
