"""Step dice's words: the statement words and attribute names the grammar and its scanner read (so neither
imports the other for them), and for the REPL and its renderer what follows each statement word, the words
coloured while typing, the `/help notation` lines and the colour role of each outcome."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD, MIXED

SAVE_WORDS = ("save",)
STEP_WORDS = ("step",)
ATTACK_WORDS = ("attack", "atk")
DEATH_WORDS = ("death",)
ATTRIBUTES = {"str": "STR", "strength": "STR", "dex": "DEX", "dexterity": "DEX", "wil": "WIL",
              "will": "WIL", "willpower": "WIL"}
HINTS = {  # the statement's shape, under a refusal and in `/help notation`
    "save": "a save takes a die (d4 … d12, or 0), then vs N or vs a die, enhanced, impaired",
    "step": "write step d8 up, step d8 down 2",
    "attack": "an attack takes dice (d6 d8 or 2d6), enhanced, impaired, armor A, grit G, str DIE "
              "(or dex DIE, wil DIE: the attribute its Direct Damage goes to)",
    "death": "write death, or death marked",
}

COLOURS: Mapping[str, str] = MappingProxyType({"win": GOOD, "tie": MIXED, "lose": BAD, "critical": CRIT})
DEATH_COLOURS: Mapping[str, str] = MappingProxyType({"taken": BAD, "deal": MIXED, "return": GOOD})  # its line only

MODES = ("enhanced", "impaired")
FOLLOWING = {
    **dict.fromkeys(SAVE_WORDS, (*dict.fromkeys(ATTRIBUTES.values()), "vs", *MODES)),
    **dict.fromkeys(STEP_WORDS, ("up", "down")),
    **dict.fromkeys(ATTACK_WORDS, ("armor", "grit", "str", *MODES)),
    **dict.fromkeys(DEATH_WORDS, ("marked",)),
}
HELP = (*(f"{word}: {hint}" for word, hint in HINTS.items()),
        "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%")
LEXICON: Mapping[str, str] = MappingProxyType({
    **{w: "keyword" for words in FOLLOWING.values() for w in words},
    **{w: "keyword" for w in ("enh", "imp", "armour", "strength")},
    **dict.fromkeys(ATTRIBUTES, "attribute"),
})



def lexicon() -> Mapping[str, str]:
    return LEXICON
