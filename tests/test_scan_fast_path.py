"""The regular-expression fast paths (rulesets/crux/scan.py, dice/scan.py) read a statement exactly as the
pyparsing grammars do: the same tagged words and the same tree, positions included, or nothing at all
(the grammar then reads it and words any error). Compared on statements built at random from words
both accept and refuse, odd spacing and case included, and on every line of the examples corpus."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import not_understood, parse_with
from crux_cli.dice import grammar as dice_grammar
from crux_cli.dice import scan as dice_scan
from crux_cli.rulesets.crux import grammar as crux_grammar
from crux_cli.rulesets.crux import scan as crux_scan
from crux_cli.running.read import first_word, read_uncached

CRUX_WORDS = [
    "DEX", "dex", "Str", "INT", "wil", "will", "strength", "dexterity", "+1b", "2b", "-1B", "1B", "+b", "-B", "b", "B",
    "-2b", "+2B", "grit", "GRIT", "help", "risky", "controlled", "desperate", "limited", "standard", "great", "2 boons",
    "boon", "banes", "1 bane", "3boons", "adv", "advantage", "dis", "disadvantaged", "vs rushed", "rushed", "vs",
    "rushed 2", "ambush", "+3", "- 2", "-1", "+\t2", "+STR", "- dex", "+ WIL", "heavy", "medium", "unarmored",
    "resist", "resistance", "vuln", "minion", "ranged", "melee", "2d8", "d6", "d8+3", "foo", "+", "99999999999b",
    "+1bgrit", "grit2", "$", "_x", "test", "save", "init", "atk", "ambush2", "dıs",
]
CRUX_HEADS = {"test": ["DEX", "str", "Will", "test", "TEST", "test DEX"], "save": ["save", "SAVE"],
              "init": ["init", "initiative"], "atk": ["atk", "attack", "ATK 2d8", "atk 2d8+3", "atk d6", "atk 3d10-1"]}
DICE_TERMS = ["d6", "2d6", "D20", "4d6kh3", "4d6KL1", "3d6!", "3d6!!", "d%", "4dF", "d66", "2d66", "8d6>=5", "4d6rr1",
              "4d6ro<2", "3d6!>=5", "0d6", "d0", "5", "0", "12", "1000000000000", "1001d6", "d20kh", "4d6dl1", "6d6k3",
              "2d6rr<=6", "d1!", "3d6kh3rr1", "4d6k", "x", "(2d4)", "( 2d4+1 )", "(d6*(2+d4))", "(3d6", "()", "-3",
              "d6[fire]", "Cd8", "d6 kh1", "{1d8, 1d10}kh1", "{4d6kh3,4d6kh3}", "{ 3d6 , 2 }dl1", "{1d6, 2}k", "{}",
              "{1d6,}", "{d6}kh1s", "max(1d20, 1d20)", "MIN (2d6, 7)", "min(d6", "DEX", "dex", "Strength", "dexx",
              "d6 [fire]", "(2d6 + 3) [to  hit]", "d6 [a[b]", "-d6", "--2", "- -3", "+-d4", "cd4", "Cd7", "cd8 + 1",
              "d20 vs 15", "1d20+5 vs15", "d20 VS 10+5", "vs", "1d20 vs 1d20+DEX", "2d6 vs"]
DICE_OPERATORS = ["+", "-", "*", "/", " + ", " - ", "\t*\t", " / ", "++", "", " vs ", " - -"]
DICE_PREFIXES = ["", "roll ", "ROLL ", "6x ", "roll 3x ", "3X", "1001x ", "0x ", "rolld6"]


def spaced(rng: random.Random, words: list[str]) -> str:
    return rng.choice(["", " ", "  "]) + rng.choice([" ", "  ", "\t", ""]).join(words) + rng.choice(["", " ", "\t"])


def crux_words_by_grammar(kind: str, text: str) -> list | None:
    grammar = crux_grammar.STATEMENTS[kind].parser()
    try:
        return parse_with(grammar, text, lambda s, loc: not_understood(s, loc, "it", None))
    except (CruxError, ValueError):
        return None


def dice_tree_by_grammar(monkeypatch: pytest.MonkeyPatch, text: str) -> str | None:
    with monkeypatch.context() as patch:
        patch.setattr(dice_grammar, "FAST_PATH", False)
        try:
            return repr(dice_grammar.parse(text))
        except CruxError:
            return None


@pytest.mark.parametrize("seed", range(3))
def test_crux_scanner_yields_the_grammars_words_or_nothing(seed: int):
    rng, scanned = random.Random(seed), 0
    for _ in range(800):
        kind = rng.choice(list(CRUX_HEADS))
        text = spaced(rng, [rng.choice(CRUX_HEADS[kind]), *rng.choices(CRUX_WORDS, k=rng.randint(0, 4))])
        words = crux_scan.scan(kind, text)
        if words is not None:
            scanned += 1
            assert repr(words) == repr(crux_words_by_grammar(kind, text)), text
    assert scanned > 100


@pytest.mark.parametrize("seed", range(3))
def test_dice_scanner_builds_the_grammars_tree_or_nothing(monkeypatch: pytest.MonkeyPatch, seed: int):
    rng, scanned = random.Random(seed), 0
    for _ in range(600):
        parts = [rng.choice(DICE_TERMS)]
        for _ in range(rng.randint(0, 3)):
            parts += [rng.choice(DICE_OPERATORS), rng.choice(DICE_TERMS)]
        text = rng.choice(["", " "]) + rng.choice(DICE_PREFIXES) + "".join(parts) + rng.choice(["", " ", "\t"])
        tree = dice_scan.scan(text)
        if tree is not None:
            scanned += 1
            parsed = dice_grammar.parse(text)
            assert repr(parsed) == dice_tree_by_grammar(monkeypatch, text), text
            if not getattr(parsed, "reads_sheet", False):  # `1d20 + DEX`: parse marks it, on both paths alike
                assert repr(tree) == repr(parsed), text
    assert scanned > 100


def test_plain_statements_take_the_fast_path():
    assert crux_scan.scan("atk", "atk 2d8+3 heavy +1b") is not None
    assert crux_scan.scan("save", "save DEX adv vs rushed") is not None
    assert crux_scan.scan("test", "DEX +2b -1B grit risky") is not None
    assert dice_scan.scan("roll 6x 4d6kh3 + 2d6!*3 - 1") is not None
    assert dice_scan.scan("(2d4+1)*3") is not None and dice_scan.scan("( (d6) )") is not None
    assert dice_scan.scan("(2d6") is None and dice_scan.scan("2d6 vs") is None  # the grammar's
    for every_form in ("-d6", "1d20+5 vs 15", "1d20+3 vs 1d20+5", "(2d6 + 3) [fire] + 1d4 [cold]", "{1d8, 1d10}kh1",
                       "max(1d20, 1d20) + 5", "Cd8", "roll 3x cd6", "1d20 + dex vs 15", "6x 4d6kh3 vs 12"):
        assert dice_scan.scan(every_form) is not None, every_form


def corpus_and_golden_lines() -> list[tuple[str, str]]:
    from test_grammar_corpus import EXAMPLES

    lines = [(rules, statement) for rules, statement, _, _ in EXAMPLES]
    golden = Path(__file__).parent / "golden" / "batch_input.txt"
    return lines + [("crux", line.strip()) for line in golden.read_text().splitlines()[:600] if line.strip()]


def test_every_corpus_line_reads_the_same_with_and_without_the_fast_paths(monkeypatch: pytest.MonkeyPatch):
    def outcome(rules: str, text: str) -> str:
        try:
            return repr(read_uncached(text, rulesets.load(rules))[1])
        except CruxError as error:
            return f"error {error.message} at {error.position}: {error.hint}"

    for rules, text in corpus_and_golden_lines():
        fast = outcome(rules, text)
        with monkeypatch.context() as patch:
            patch.setattr(crux_grammar, "FAST_PATH", False)
            patch.setattr(dice_grammar, "FAST_PATH", False)
            assert outcome(rules, text) == fast, (rules, text, first_word(text))


# --- the kindred rule sets' scanners (rulesets/<name>/scan.py): the same tree or the same refusal ------------

KINDRED = {
    "stepdice": ({"save": ["save", "SAVE", "save dex", "save Strength", "save wil"], "step": ["step", "STEP d8"],
                  "attack": ["attack", "atk", "ATK d6", "attack 2d6"], "death": ["death", "DEATH"]},
                 ["d8", "d6", "D12", "0", "d4", "d5", "d20", "00", "vs", "vs 4", "vs d6", "vs 0", "vs d7", "vs x",
                  "enh", "enhanced", "IMP", "impaired", "dex", "str", "4", "+1", "d8!", "99999999999999999999",
                  "vs\t3", "up", "down", "UP", "2", "armor 1", "armour 5", "armor", "grit 3", "grit", "str d8",
                  "dex d6", "will d4", "wil d20", "marked", "d6 d8", "3d1", "0d6", "2d6", "d1000001"]),
    "d20check": ({"check": ["check", "CHECK", "check might", "check Dex", "check luck"],
                  "damage": ["damage", "dmg", "DAMAGE 2d6", "damage d8", "dmg 0d6", "damage 3d1"]},
                 ["5", "0", "21", "trained", "favored", "favoured", "favor", "hinder", "HINDERED", "might", "2d6", "d8",
                  "+1", "-2", "+ 1", "armor", "armor 2", "armour 3", "immune", "weak", "weak2", "x", "d6+1",
                  "99999999999999999999", "d8+2", "2d6-1", "d8+", "d8+2+1", "0d6+1", "3d1+2"]),
    "challenge": ({"action": ["action", "ACTION"], "fortune": ["fortune"], "resist": ["resist", "resistance"]},
                  ["2", "0", "3", "adv", "advantage", "DIS", "disadvantage", "minor", "moderate", "major", "risk",
                   "major risk", "x", "-1", "2d6", "100000", "adv2", "MAJOR", "ſtr"]),
}


def kindred_answer(module: object, monkeypatch: pytest.MonkeyPatch, text: str, kind: str, fast: bool) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(module, "FAST_PATH", fast)
        try:
            return repr(module.parse(text, kind))  # type: ignore[attr-defined]
        except CruxError as error:
            return f"refused: {error.message} at {error.position}: {error.hint}"


@pytest.mark.parametrize("name", sorted(KINDRED))
def test_kindred_scanners_read_as_their_grammars_do(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    import importlib

    module = importlib.import_module(f"crux_cli.rulesets.{name}.grammar")
    scanner = importlib.import_module(f"crux_cli.rulesets.{name}.scan")
    heads, words = KINDRED[name]
    rng, scanned = random.Random(name), 0
    for _ in range(1500):
        kind = rng.choice(list(heads))
        head = rng.choice(heads[kind])
        text = spaced(rng, [head, *rng.choices(words, k=rng.randint(0, 4))])
        keyword = head.split()[0]  # as the reader finds it (a statement glued to it is refused either way)
        with contextlib.suppress(CruxError):
            scanned += scanner.scan(kind, text) is not None
        fast, slow = (kindred_answer(module, monkeypatch, text, keyword, fast) for fast in (True, False))
        assert fast == slow, text
    assert scanned > 40  # the scanner read a good many itself


# --- the Crux sheet statements' scanner (rulesets/crux/sheet_grammar.py `scan`) ----------------------------

SHEET_HEADS = ["damage", "dmg", "DAMAGE", "wound", "heal", "rest", "Rest", "cond", "condition", "conditions", "show"]
SHEET_WORDS = ["9", "0", "crit", "critical", "CRIT", "field", "short", "safe", "long", "2", "add", "remove", "rm",
               "del", "drop", "prone", "Blinded", "dying", "x-y", "a_b", "9x", "99999999999999999999", "frightened",
               "nosuch", "-1", "prone,"]


def sheet_answer(monkeypatch: pytest.MonkeyPatch, text: str, word: str, fast: bool) -> str:
    from crux_cli.rulesets.crux import sheet_grammar

    with monkeypatch.context() as patch:
        patch.setattr(sheet_grammar, "FAST_PATH", fast)
        try:
            return repr(sheet_grammar.parse(text, word))
        except CruxError as error:
            return f"refused: {error.message} at {error.position}: {error.hint}"


def test_the_sheet_statements_scanner_reads_as_the_grammar_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from crux_cli.rulesets.crux import sheet_grammar

    rng, scanned = random.Random("sheet"), 0
    for _ in range(1500):
        head = rng.choice(SHEET_HEADS)
        text = spaced(rng, [head, *rng.choices(SHEET_WORDS, k=rng.randint(0, 3))])
        scanned += sheet_grammar.scan(sheet_grammar.statement_kind(head), text) is not None
        fast, slow = (sheet_answer(monkeypatch, text, head, fast) for fast in (True, False))
        assert fast == slow, text
    assert scanned > 40  # the scanner read a good many itself


# --- hypothesis: statements drawn from every rule set's words, read the same with and without the scanners --

FAST_PATHS = ["crux_cli.dice.grammar", "crux_cli.rulesets.crux.grammar", "crux_cli.rulesets.crux.sheet_grammar",
              *(f"crux_cli.rulesets.{name}.grammar" for name in KINDRED)]


def read_answer(text: str, rules: str) -> str:
    try:
        return repr(read_uncached(text, rulesets.load(rules))[1])
    except CruxError as error:
        return f"refused: {error.message} at {error.position}: {error.hint}"


def statements() -> st.SearchStrategy[tuple[str, str]]:
    joiners = st.sampled_from(["", " ", "  ", "\t"])
    dice = st.lists(st.sampled_from(DICE_TERMS + DICE_OPERATORS), min_size=1, max_size=6).map("".join)
    crux = st.tuples(st.sampled_from([h for heads in CRUX_HEADS.values() for h in heads] + SHEET_HEADS),
                     st.lists(st.sampled_from(CRUX_WORDS + SHEET_WORDS), max_size=4)).map(lambda t: [t[0], *t[1]])
    by_rules = [st.tuples(st.just("crux"), dice.map(lambda d: [d])), st.tuples(st.just("crux"), crux)]
    for name, (heads, words) in KINDRED.items():
        kindred = st.tuples(st.sampled_from([h for hs in heads.values() for h in hs]),
                            st.lists(st.sampled_from(words), max_size=4)).map(lambda t: [t[0], *t[1]])
        by_rules.append(st.tuples(st.just(name), kindred))
    return st.tuples(st.one_of(by_rules), joiners).map(lambda t: (t[0][0], t[1].join(t[0][1]) or " "))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(statements())
def test_any_statement_reads_the_same_with_and_without_the_scanners(monkeypatch: pytest.MonkeyPatch,
                                                                     drawn: tuple[str, str]) -> None:
    import importlib

    rules, text = drawn
    fast = read_answer(text, rules)
    with monkeypatch.context() as patch:
        for module in FAST_PATHS:
            patch.setattr(importlib.import_module(module), "FAST_PATH", False)
        assert read_answer(text, rules) == fast, (rules, text)


def test_every_statement_form_of_the_corpus_is_read_without_pyparsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a one-shot command reads (tests/bench/bench_startup.py): every form of every rule set in
    grammar/examples.txt, refusals aside, read by a scanner, so pyparsing is never imported for it."""
    from test_grammar_corpus import EXAMPLES

    from crux_cli.core import grammar

    def no_pyparsing(self: object, name: str) -> None:
        raise AssertionError(f"pyparsing asked for {name}")

    monkeypatch.setattr(grammar._Pyparsing, "__getattr__", no_pyparsing)
    for rules, statement, expected, _ in EXAMPLES:
        if not expected.startswith("error:"):
            read_uncached(statement, rulesets.load(rules))  # raises on a statement left to the grammar


def test_a_flat_damage_with_a_tab_after_its_sign_is_read_not_an_internal_error() -> None:
    """`atk d6 +<tab>2` raised ValueError from int() in both readers (found by the test above)."""
    for fast in (True, False):
        crux_grammar.FAST_PATH = fast
        try:
            assert str(read_uncached("atk d6 +\t2", rulesets.load("crux"))[1]) == "atk 1d6+2"
        finally:
            crux_grammar.FAST_PATH = True
