"""Crux's words as the REPL and the renderers ask for them, through the `RuleSet` value.

What fits after each statement word (`suggest`, by kind of word, and `words_for`, the
words of a kind), the words coloured while typing (`lexicon`), the `/help notation`
lines (`HELP`) and the colour role of each outcome (`COLOURS`). The words are taken
from the Crux grammar and the shared vocabulary, so completion cannot drift from
what the parser accepts.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from crux_cli.core.style import BAD, CRIT, GOOD, MIXED
from crux_cli.core.vocabulary import ARMOUR_WORDS, ATTRIBUTE_NAMES, ATTRIBUTES, CONDITIONS
from crux_cli.rulesets.crux import grammar, sheet_grammar

COLOURS: Mapping[str, str] = MappingProxyType({
    "success": GOOD, "resisted": GOOD, "hit": GOOD,
    "partial": MIXED,
    "failure": BAD, "full effect": BAD, "miss": BAD,
    "crit": CRIT,
})

HELP = (
    "DEX +2b -1B grit            test: (1+net)d6, keep highest (lowest when net < 0); 5-6 success, 3-4 partial",
    "test +1b help               a test with no attribute (rating 0); help is +1 Boon",
    "save WIL adv vs rushed      save: adv/dis are +1 Boon/Bane, vs rushed +1 Boon",
    "init ambush                 initiative: 5-6 three actions, 3-4 two, 1-2 one; ambush: 3, no roll",
    "atk 2d8+3 heavy rushed      attack: primary die 1 misses, max crits (explodes, ignores armour)",
    "atk d6+STR medium resist    armour medium|heavy, resist, vuln, minion, rushed N",
    "odds DEX +1b                exact probabilities",
    "DEX +1b; atk d8 # goblin    several statements with ;, a comment after #",
    "modifiers: +Nb boons, -NB banes, grit, help, controlled|risky|desperate, limited|standard|great",
    "on a sheet (/load FILE):    damage N [crit], heal N, wound N, rest field N | rest safe,",
    "                            cond add|remove CONDITION, show",
)

PATTERNS = (  # the REPL colours boons and banes as they are typed
    ("bonus", r"(?<![\w])(?:\+\d*b|\d+b)(?![\w])"),
    ("penalty", r"(?<![\w])(?:-\d*B|\d+B)(?![\w])"),
)

# The kinds of word that may follow a Crux statement word (`suggest` names them, `words_for` spells them).
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

SAVE_OPTIONS = ("adv", "dis", "vs rushed")
INIT_OPTIONS = ("ambush",)
CONDITION_ACTIONS = ("add", "remove")
REST_OPTIONS = ("field", "safe")
DAMAGE_OPTIONS = ("crit",)


@functools.cache
def conditions() -> tuple[str, ...]:
    """The conditions a sheet can carry (`cond add NAME`), and dying."""
    return (*CONDITIONS, "dying")


def modifiers() -> tuple[str, ...]:
    return ("grit", "help", "boon", "boons", "bane", "banes", *grammar.POSITIONS, *grammar.EFFECTS)


def attack_words() -> tuple[str, ...]:
    return (*ARMOUR_WORDS, "resist", "vuln", "minion", "ranged", "melee", "rushed")


def statement_words(keywords: frozenset[str]) -> tuple[str, ...]:
    """First words of a statement as completion shows them: short attributes in capitals."""
    return tuple(sorted({ATTRIBUTE_NAMES[w] if w in ATTRIBUTE_NAMES and len(w) == 3 else w for w in keywords},
                        key=str.lower))


def suggest(before: Sequence[str], word: str) -> tuple[str, ...]:
    """The kinds of word that fit after the finished words `before` (a statement word first) while `word` is typed."""
    first, count = before[0].lower(), len(before)
    if first in sheet_grammar.CONDITION_WORDS:  # cond add NAME…, cond remove NAME…
        return (CONDITION_ACTION,) if count == 1 else (CONDITION,)
    if first in sheet_grammar.REST_WORDS:
        return (REST,) if count == 1 else ()
    if first in sheet_grammar.DAMAGE_WORDS:
        return (DAMAGE,) if count == 2 else ()
    if first in sheet_grammar.HEAL_WORDS + sheet_grammar.SHOW_WORDS:
        return ()
    if first in ATTRIBUTE_NAMES:
        return (MODIFIER,)
    kind = grammar.KIND.get(first)  # an attribute (a test with its word left out) is answered above
    if kind == "test":
        return (ATTRIBUTE, MODIFIER) if count == 1 else (MODIFIER,)
    if kind == "save":
        return (ATTRIBUTE,) if count == 1 else (SAVE, MODIFIER)
    if kind == "init":
        return (INIT, MODIFIER)
    if word[:1] in ("+", "-") and word[1:].isascii() and word[1:].isalpha():
        return (SIGNED_ATTRIBUTE,)  # +STR, -DEX: an attribute's modifier as damage
    return (ATTACK, MODIFIER)


def words_for(kind: str, word: str) -> tuple[tuple[str, str], ...]:
    """(word, what it is) for each word of `kind`; `word` is the one being typed."""
    if kind == SIGNED_ATTRIBUTE:
        return tuple((word[0] + a, "attribute modifier") for a in ATTRIBUTES)
    found = {MODIFIER: ("+1b", "-1B", *modifiers()), ATTACK: attack_words(), ATTRIBUTE: ATTRIBUTES,
             SAVE: SAVE_OPTIONS, INIT: INIT_OPTIONS, CONDITION_ACTION: CONDITION_ACTIONS, REST: REST_OPTIONS,
             DAMAGE: DAMAGE_OPTIONS}.get(kind)
    if found is None and kind == CONDITION:
        found = conditions()
    return tuple((w, "") for w in found or ())


@functools.cache
def lexicon() -> Mapping[str, str]:
    """Lower-case word -> how it is coloured while typing: 'attribute', or 'keyword' for the option words."""
    options = (*modifiers(), *attack_words(), *INIT_OPTIONS, "adv", "dis", "vs", "advantage", "disadvantage",
               *conditions(), *CONDITION_ACTIONS, *DAMAGE_OPTIONS, *REST_OPTIONS)
    table = {w.lower(): "keyword" for w in options}
    table.update((w, "attribute") for w in ATTRIBUTE_NAMES)
    return MappingProxyType(table)
