"""The line grammar of a fight: its words as tokens, and the combatants' names in them.

Names may have spaces: quote them, or give any unique beginning of the name or of one
of its words. A name is refused when it could be read as another part of a fight line
(a keyword, a number, dice). Pure: the words (`fight`) and the view (`fight_view`) read
lines through this module.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.core.limits import MAX_INTEGER
from crux_cli.core.vocabulary import ARMOUR_WORDS
from crux_cli.rulesets.crux import encounter as ledger
from crux_cli.rulesets.crux import grammar, sheet_grammar
from crux_cli.rulesets.crux.fight_words import ACTING, ALWAYS, ANYTIME, DURING, FightWord, Token
from crux_cli.rulesets.crux.hero import CONDITIONS

if TYPE_CHECKING:
    from crux_cli.rulesets.crux.fight_state import FightState

NAMED = ("atk", "attack", "react", "damage", "dmg", "heal", "wound", "remove", "show", "save", "rest")  # a name next
ARMOUR = ("medium", "heavy", "unarmoured", "unarmored")
POOL = re.compile(r"\d*[dD](\d+|%|F)\S*")  # damage dice written in the attack itself
NUMBER = re.compile(r"[+-]?\d+[bB]?")


def is_count(text: str) -> bool:
    """A whole number as the grammar reads one: ASCII digits (not ² or ٣), refused past the integer limit."""
    if not (text.isascii() and text.isdigit()):
        return False
    if len(text) > len(str(MAX_INTEGER)) or int(text) > MAX_INTEGER:
        raise LimitError(f"{text[:12]}{'…' if len(text) > 12 else ''} is more than {MAX_INTEGER:,} (the limit)",
                         hint="numbers in a fight are counts of actions, HP or damage")
    return True


@functools.cache
def reserved() -> frozenset[str]:
    """Words no combatant may be named: they already mean something in a fight line."""
    return frozenset(w.lower() for w in (
        *ALWAYS, *ANYTIME, *DURING, *ACTING, *grammar.KEYWORDS, *sheet_grammar.KEYWORDS, *ARMOUR, *ARMOUR_WORDS,
        *grammar.POSITIONS, *grammar.EFFECTS, *CONDITIONS, *ledger.REACTIONS, "dying", "hp", "area", "crit",
        "critical", "crits",
        "ambush", "adv", "dis", "vs", "on", "add", "remove", "grit", "hd", "help", "ranged", "melee", "rushed",
        "minion", "resist", "vuln", "boon", "boons", "bane", "banes", "odds", "roll", "all", "field", "safe", "by",
        "wounds"))


def plain_word(word: str) -> bool:
    """A word that is never part of a name: a keyword, a number, dice, `+STR`."""
    low = word.lower()
    return low in reserved() or bool(NUMBER.fullmatch(low) or POOL.fullmatch(low)) or low[:1] in "+-"


def check_name(name: str) -> str:
    """Refuse names a fight line could not tell from its other words."""
    name = " ".join(name.split())
    if not name:
        raise CruxError("a combatant needs a name")
    if plain_word(name) or any(ch in name for ch in "#;\"'"):
        raise CruxError(f"'{name}' cannot name a combatant: it reads as part of a fight line",
                        hint="pick a name that is not a keyword, number or dice (e.g. goblin, \"Bram Ironfoot\")")
    return name


def folded(text: str) -> str:
    """A name as typing compares it: any case, accents left out (`zoe` finds Zoë), spaces single."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in plain if not unicodedata.combining(ch)).split())


def name_matches(encounter: ledger.Encounter, typed: str) -> list[ledger.Combatant]:
    """Combatants `typed` names: the whole name, else any beginning of the name or of one of its words."""
    key = folded(typed)
    exact = [c for c in encounter.combatants if folded(c.name) == key]
    if exact or not key:
        return exact
    return [c for c in encounter.combatants
            if folded(c.name).startswith(key) or any(w.startswith(key) for w in folded(c.name).split())]


def shadowed(encounter: ledger.Encounter, name: str) -> ledger.Combatant | None:
    """A combatant a newcomer called `name` would hide: `name` begins their name or one of its words, so
    typing it would reach the newcomer (a whole name wins) where it reached them before."""
    key = folded(name)
    return next((c for c in encounter.combatants if folded(c.name) != key and (
        folded(c.name).startswith(key) or any(w.startswith(key) for w in folded(c.name).split()))), None)


class Ambiguous(CruxError):
    """A beginning that names more than one combatant: refused with the candidates, by a word and by its odds
    alike (`odds atk gob` is refused as `atk gob` is, never read as the plain odds of a statement)."""


def resolve(encounter: ledger.Encounter, typed: str, line: str = "", at: int = 0,
            besides: str = "") -> ledger.Combatant | None:
    """The one combatant `typed` names, None when none; an ambiguous name is refused with the candidates.
    `besides`: one who cannot be meant (an attack's attacker), left out when the name fits several."""
    found = name_matches(encounter, typed)
    if len(found) > 1 and besides:
        found = [c for c in found if c.name != besides]
    if len(found) > 1:
        raise Ambiguous(f"'{typed}' could be " + " or ".join(c.name for c in found), text=line or None,
                        position=at if line else None, hint="give more of the name, or quote it whole")
    return found[0] if found else None


def unknown(encounter: ledger.Encounter, typed: str, line: str, at: int) -> CruxError:
    names = ", ".join(c.name for c in encounter.combatants) or "nobody yet"
    return CruxError(f"there is no '{typed}' in this fight", text=line, position=at, hint=f"in the fight: {names}")


def take_name(encounter: ledger.Encounter, words: list[Token], line: str,
              start: int = 0, besides: str = "") -> tuple[ledger.Combatant, int] | None:
    """The combatant named from `words[start]` on, and how many words the name took (longest name first);
    `besides`: one who cannot be meant, left out of a beginning that fits several."""
    if start >= len(words):
        return None
    if words[start].quoted:
        found = resolve(encounter, words[start].text, line, words[start].at, besides)
        if found is None:
            raise unknown(encounter, words[start].text, line, words[start].at)
        return found, 1
    for end in range(len(words), start + 1, -1):  # an unquoted name with spaces, written whole
        found_whole = [c for c in encounter.combatants
                       if folded(c.name) == folded(" ".join(w.text for w in words[start:end]))]
        if found_whole:
            return found_whole[0], end - start
    if plain_word(words[start].text):
        return None
    found = resolve(encounter, words[start].text, line, words[start].at, besides)
    return (found, 1) if found is not None else None


def names_someone(word: FightWord, state: FightState) -> bool:
    """Does a statement name a combatant (`save Bram STR`, `cond add goblin prone`), or try to?"""
    at = 1 if word.word == "cond" else 0
    try:
        return take_name(state.encounter, list(word.args), word.line, at) is not None
    except CruxError:
        return True  # an ambiguous name: the fight says which ones it could be
