"""The grammar of Crux statements (crux-notation(7) CRUX STATEMENTS): tests, saves, initiative and attacks.

Each statement's grammar yields a list of tagged words `(tag, value, loc)`;
`fold_*` turns them into the immutable syntax tree, refusing contradictions
(`grit grit`, `-2b`, two armour types) with the position of the offending word.

A statement is declared once, in `STATEMENTS` at the end: its first words, grammar, fold, hint and
name. The keywords, the choice of a statement by its first word and the words of a refusal are all
read from there; a new statement is its grammar, its fold and one entry.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import integer, keyword, number, parse_and_fold, pp, tagged
from crux_cli.core.grammar_parts import single
from crux_cli.core.record import Record, field
from crux_cli.core.vocabulary import ARMOUR_WORDS, ATTRIBUTE_HINT, ATTRIBUTE_NAMES
from crux_cli.rulesets.crux import syntax
from crux_cli.rulesets.crux.scan import scan

FAST_PATH = True  # plain statements are split by scan.py's regular expressions; tests turn it off to compare

POSITIONS = ("controlled", "risky", "desperate")
EFFECTS = ("limited", "standard", "great")

MODIFIERS = "+Nb (boons), -NB (banes), grit, help, and labels like risky or great"


def _attribute() -> pp.ParserElement:
    words = pp.MatchFirst(pp.CaselessKeyword(w) for w in sorted(ATTRIBUTE_NAMES, key=len, reverse=True))
    return words.set_parse_action(lambda t: ATTRIBUTE_NAMES[t[0].lower()]).set_name("attribute")


def _unknown_attribute() -> pp.ParserElement:
    def refuse(s: str, loc: int, toks: pp.ParseResults) -> None:
        raise CruxError(f"unknown attribute '{toks[0]}'", text=s, position=loc, hint=ATTRIBUTE_HINT)

    return pp.Regex(r"[A-Za-z_]\w*").set_parse_action(refuse)


def _boons_and_banes() -> pp.ParserElement:
    """`+2b`, `2b`, `+b`, `-1B`, `1B`, `-B`; a sign that contradicts its letter is refused with advice."""

    def fold(s: str, loc: int, toks: pp.ParseResults) -> tuple[str, int, int]:
        sign, count, letter = toks.get("sign", ""), toks.get("count", ""), toks["letter"]
        n = integer(count, s, loc) if count else 1
        is_boon = letter == "b"
        if (sign == "-" and is_boon) or (sign == "+" and not is_boon):
            raise CruxError(f"'{s[loc:].split()[0]}' mixes a {'minus' if sign == '-' else 'plus'} sign with "
                            f"{'a lower-case b (boons)' if is_boon else 'a capital B (banes)'}",
                            text=s, position=loc,
                            hint=f"boons are +Nb and banes are -NB: write +{n}b for {_count(n, 'boon')} "
                                 f"or -{n}B for {_count(n, 'bane')}")
        return ("boons" if is_boon else "banes", n, loc)

    token = pp.Regex(r"(?P<sign>[+-])?(?P<count>\d+)?(?P<letter>[bB])(?![A-Za-z0-9_])")
    token.add_condition(lambda t: bool(t.get("sign") or t.get("count")))
    return token.set_parse_action(fold).set_name("boons or banes")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _counted_words() -> pp.ParserElement:
    """`2 boons`, `boon`, `1 bane`; a plural without its count (`boons`) is refused: it says no number."""
    boon = keyword("boon", "boons")
    bane = keyword("bane", "banes")

    def fold(s: str, loc: int, t: pp.ParseResults) -> tuple[str, int, int]:
        if len(t) == 1:
            bare_plural(s, loc)
            return ("boons" if t[0] == "boon" else "banes", 1, loc)
        return ("boons" if t[1] == "boon" else "banes", t[0], loc)

    return (pp.Optional(number()) + (boon | bane)).set_parse_action(fold)


def bare_plural(text: str, loc: int) -> None:
    """Refuse `boons` or `banes` with no count before it; `rushed 2 boons` says which reading it could be."""
    word = text[loc:].split()[0] if text[loc:].split() else ""
    if not word.lower().endswith("s"):
        return
    one = word[:-1].lower()
    before = re.search(r"rushed[ \t]+(\d+)[ \t]*$", text[:loc], re.IGNORECASE)
    if before:
        n = before.group(1)
        sign = "+" if one == "boon" else "-"
        letter = "b" if one == "boon" else "B"
        raise CruxError(f"'rushed {n} {word}' could be rushed {n} and one {one}, or rushed and {n} {word}",
                        text=text, position=loc,
                        hint=f"write rushed {n} {sign}1{letter}, or rushed {sign}{n}{letter}")
    raise CruxError(f"'{word}' needs how many: 2 {word}, or {one} for one", text=text, position=loc,
                    hint=f"{'boons are +Nb' if one == 'boon' else 'banes are -NB'}, or N {word}")


@functools.cache
def _modifier() -> pp.ParserElement:
    return (
        _boons_and_banes()
        | _counted_words()
        | tagged(keyword("grit"), "grit")
        | tagged(keyword("help"), "help")
        | tagged(keyword(*POSITIONS[:1]) | keyword(POSITIONS[1]) | keyword(POSITIONS[2]), "position")
        | tagged(keyword(EFFECTS[0]) | keyword(EFFECTS[1]) | keyword(EFFECTS[2]), "effect")
    ).set_name("modifier")


def fold_modifiers(words: Iterable[tuple[str, Any, int]], text: str) -> syntax.Modifiers:
    """Sum boons and banes; refuse a second grit, help, position or effect."""
    boons = banes = 0
    seen: dict[str, tuple[Any, int]] = {}
    for tag, value, loc in words:
        if tag == "boons":
            boons += value
        elif tag == "banes":
            banes += value
        elif tag in seen:
            raise CruxError(*_twice(tag, value, seen[tag][0]), text=text, position=loc)
        else:
            seen[tag] = (value, loc)
    return syntax.Modifiers(boons=boons, banes=banes, grit="grit" in seen, help="help" in seen,
                         position=seen.get("position", (None,))[0], effect=seen.get("effect", (None,))[0])


def each_once(words: list[Any]) -> dict[str, Any] | None:
    """{tag: value} of tagged words when no tag comes twice (the usual statement: nothing to sum, nothing to
    refuse), else None: the folds below then read the words one rule at a time and word any refusal."""
    tagged_words = {w[0]: w[1] for w in words}
    return tagged_words if len(tagged_words) == len(words) else None


def modifiers_of(once: dict[str, Any]) -> syntax.Modifiers:
    """`fold_modifiers` of words that each came once (`each_once`)."""
    return syntax.Modifiers(boons=once.get("boons", 0), banes=once.get("banes", 0), grit="grit" in once,
                            help="help" in once, position=once.get("position"), effect=once.get("effect"))


def _twice(tag: str, value: Any, first: Any) -> tuple[str]:
    if tag == "grit":
        return ("grit is spent at most once per roll (Steady the Roll)",)
    if tag == "help":
        return ("only one Help reaction counts on a roll: it is worth +1 Boon",)
    return (f"a roll has one {tag}: '{first}' and '{value}' both given",)


def _split(words: list[Any], *tags: str) -> tuple[list[Any], list[Any]]:
    """(words with one of `tags`, the rest)."""
    chosen = [w for w in words if w[0] in tags]
    return chosen, [w for w in words if w[0] not in tags]


# -- statements ---------------------------------------------------------------------------------

@functools.cache
def _test_grammar(words: tuple[str, ...]) -> pp.ParserElement:
    head = (keyword(*words) + pp.Optional(tagged(_attribute(), "attribute"))) | tagged(_attribute(),
                                                                                           "attribute")
    return head + pp.ZeroOrMore(_modifier())


def fold_test(words: list[Any], text: str) -> syntax.Test:
    words = [w for w in words if w != "test"]
    once = each_once(words)
    if once is not None:
        return syntax.Test(once.get("attribute"), modifiers_of(once))
    attribute = single(words, "attribute", text, "a test has one attribute")
    mods = fold_modifiers(_split(words, "attribute")[1], text)
    return syntax.Test(attribute, mods)


@functools.cache
def _save_grammar(words: tuple[str, ...]) -> pp.ParserElement:
    stance = tagged(keyword("adv", "advantaged", "advantage") | keyword("dis", "disadvantaged", "disadvantage"),
                    "stance")
    rushed = tagged(pp.Optional(pp.CaselessKeyword("vs")).suppress() + keyword("rushed"), "vs rushed")
    attribute = tagged(_attribute(), "attribute") | _unknown_attribute()
    return keyword(*words).suppress() - attribute.set_name("attribute") + pp.ZeroOrMore(
        stance | rushed | _modifier())


def fold_save(words: list[Any], text: str) -> syntax.Save:
    (_, attribute, _), *rest = words
    once = each_once(rest)
    if once is not None:
        return syntax.Save(attribute, once.get("stance"), "vs rushed" in once, modifiers_of(once))
    stance = single(rest, "stance", text, "a save is adv or dis, not both (they would cancel: leave both out)")
    vs_rushed = single(rest, "vs rushed", text, "'vs rushed' is one Boon, given once") is not None
    mods = fold_modifiers(_split(rest, "stance", "vs rushed")[1], text)
    return syntax.Save(attribute, stance, vs_rushed, mods)


@functools.cache
def _init_grammar(words: tuple[str, ...]) -> pp.ParserElement:
    return keyword(*words).suppress() + pp.ZeroOrMore(tagged(keyword("ambush"), "ambush") | _modifier())


def fold_init(words: list[Any], text: str) -> syntax.Initiative:
    once = each_once(words)
    if once is not None:
        return syntax.Initiative(modifiers_of(once), "ambush" in once)
    ambush = single(words, "ambush", text, "ambush is said once") is not None
    return syntax.Initiative(fold_modifiers(_split(words, "ambush")[1], text), ambush)


@functools.cache
def _attack_grammar(words: tuple[str, ...]) -> pp.ParserElement:
    def pool(s: str, loc: int, t: pp.ParseResults) -> tuple[str, syntax.Pool, int]:
        count = integer(t["count"], s, loc) if t.get("count") else 1
        return ("pool", syntax.Pool(count, integer(t["sides"], s, loc), loc), loc)

    pool_token = pp.Regex(r"(?P<count>\d+)?[dD](?P<sides>\d+)(?![A-Za-z0-9_])").set_parse_action(pool)
    flat = pp.Regex(r"[+-]\s*\d+(?![A-Za-z0-9_])").set_parse_action(
        lambda s, loc, t: ("flat", integer(t[0], s, loc), loc))
    sign = pp.one_of("+ -")
    bonus = (sign + _attribute()).set_parse_action(
        lambda s, loc, t: ("bonus", syntax.AttributeBonus(1 if t[0] == "+" else -1, t[1], loc), loc))
    rushed = (keyword("rushed") + pp.Optional(number(), default=1)).set_parse_action(
        lambda s, loc, t: ("rushed", t[1], loc))
    armour = pp.MatchFirst(pp.CaselessKeyword(w) for w in ARMOUR_WORDS).set_parse_action(
        lambda s, loc, t: ("armour", ARMOUR_WORDS[t[0].lower()], loc))
    flags = (tagged(keyword("resist", "resistant", "resistance"), "resist")
             | tagged(keyword("vuln", "vulnerable", "vulnerability"), "vuln")
             | tagged(keyword("minion"), "minion")
             | tagged(keyword("ranged"), "ranged")
             | tagged(keyword("melee"), "melee"))
    word = _modifier() | flat | bonus | rushed | armour | flags
    return keyword(*words).suppress() + pp.Optional(pool_token) + pp.ZeroOrMore(word)


def fold_attack(words: list[Any], text: str) -> syntax.Attack:
    once = each_once(words)
    if once is not None and not ("ranged" in once and "melee" in once):
        return syntax.Attack(once.get("pool"), once.get("flat", 0), (once["bonus"],) if "bonus" in once else (),
                             modifiers_of(once), once.get("rushed", 0), once.get("armour") or "unarmoured",
                             "resist" in once, "vuln" in once, "minion" in once, "ranged" in once)
    pool = single(words, "pool", text, "an attack has one pool of dice")
    flat = sum(w[1] for w in words if w[0] == "flat")
    bonuses = tuple(w[1] for w in words if w[0] == "bonus")
    rushed = sum(w[1] for w in words if w[0] == "rushed")
    armour = single(words, "armour", text, "a target wears one kind of armour") or "unarmoured"
    flags = {tag: single(words, tag, text, f"'{tag}' is said once") is not None
             for tag in ("resist", "vuln", "minion", "ranged", "melee")}
    if flags["ranged"] and flags["melee"]:
        raise CruxError("an attack is melee or ranged, not both", text=text,
                        position=max(w[2] for w in words if w[0] in ("ranged", "melee")))
    rest = _split(words, "pool", "flat", "bonus", "rushed", "armour", "resist", "vuln", "minion", "ranged",
                  "melee")[1]
    return syntax.Attack(pool, flat, bonuses, fold_modifiers(rest, text), rushed, armour, flags["resist"],
                      flags["vuln"], flags["minion"], flags["ranged"])


# -- the statements, each declared once ----------------------------------------------------------

class Statement(Record):
    """One Crux statement: everything the grammar knows of it, in one entry of `STATEMENTS`.

    - `kind`: its name in the grammar and the scanner (scan.py reads the same kinds);
    - `words`: its statement words, lower case, which `grammar` is given;
    - `grammar(words)`: its pyparsing grammar (built at first use, `parser()`), giving tagged words;
    - `fold(words, text)`: the syntax tree of those words (or the scanner's), refusing contradictions;
    - `hint`: what it takes, under a refusal; `name`: how a refusal names it ("a save");
    - `implied`: other first words that start it, its statement word left out (a test's attributes).
    """

    kind: str
    words: tuple[str, ...]
    grammar: Callable[[tuple[str, ...]], pp.ParserElement] = field(compare=False)
    fold: Callable[[list[Any], str], syntax.CruxStatement] = field(compare=False)
    hint: str
    name: str
    implied: tuple[str, ...] = ()

    def parser(self) -> pp.ParserElement:
        return self.grammar(self.words)


STATEMENTS: dict[str, Statement] = {statement.kind: statement for statement in (
    Statement("test", ("test",), _test_grammar, fold_test, "a test takes an attribute and " + MODIFIERS, "a test",
              implied=tuple(ATTRIBUTE_NAMES)),  # DEX +1b
    Statement("save", ("save",), _save_grammar, fold_save,
              "a save takes an attribute, adv or dis, vs rushed, and " + MODIFIERS, "a save"),
    Statement("init", ("init", "initiative"), _init_grammar, fold_init,
              "initiative takes ambush and " + MODIFIERS, "initiative"),
    Statement("atk", ("atk", "attack"), _attack_grammar, fold_attack,
              "an attack takes a pool (2d8), flat damage (+3, +STR), rushed [N], armour (medium, heavy), "
              "resist, vuln, minion, ranged, and " + MODIFIERS, "an attack"),
)}
KIND = {word: statement.kind for statement in STATEMENTS.values()  # first word -> the statement it starts
        for word in (*statement.words, *statement.implied)}
KEYWORDS = frozenset(KIND)


def parse(text: str, first_word: str) -> syntax.CruxStatement:
    """Parse a Crux statement whose first word is `first_word` (one of KEYWORDS)."""
    statement = STATEMENTS[KIND[first_word.lower()]]
    words = scan(statement.kind, text) if FAST_PATH else None
    if words is None:
        try:
            return parse_and_fold(text, statement.parser(), statement.fold, statement.name, statement.hint)
        except CruxError as error:
            raise dice_first(error, text) if statement.kind == "test" else error from None
    try:
        return statement.fold(words, text)
    except CruxError as error:
        raise error.at(text) from None


def dice_first(error: CruxError, text: str) -> CruxError:
    """`DEX + 1d20` is refused (a test takes boons and banes, not dice), with the dice expression it may mean:
    dice first, then the sheet's value, `1d20 + DEX` (a statement's first word says what it is)."""
    written = re.fullmatch(r"\s*([A-Za-z]+)\s*([+-])\s*([0-9]*[dD][0-9%].*?)\s*", text)
    if written is None or error.position != text.index(written.group(2), len(written.group(1))):
        return error
    attribute, sign, dice = written.groups()
    return error.with_hint(f"to add {attribute} to dice, write the dice first: "
                           f"{'' if sign == '+' else '-'}{dice} + {attribute}")

