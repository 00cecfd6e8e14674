"""The regular-expression fast paths (rulesets/crux/scan.py, dice/scan.py) read a statement exactly as the
pyparsing grammars do: the same tagged words and the same tree, positions included, or nothing at all
(the grammar then reads it and words any error). Compared on statements built at random from words
both accept and refuse, odd spacing and case included, and on every line of the examples corpus."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

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
              "d6[fire]", "Cd8", "d6 kh1"]
DICE_OPERATORS = ["+", "-", "*", "/", " + ", " - ", "\t*\t", " / ", "++", ""]
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
            assert repr(tree) == dice_tree_by_grammar(monkeypatch, text), text
    assert scanned > 100


def test_plain_statements_take_the_fast_path():
    assert crux_scan.scan("atk", "atk 2d8+3 heavy +1b") is not None
    assert crux_scan.scan("save", "save DEX adv vs rushed") is not None
    assert crux_scan.scan("test", "DEX +2b -1B grit risky") is not None
    assert dice_scan.scan("roll 6x 4d6kh3 + 2d6!*3 - 1") is not None
    assert dice_scan.scan("(2d4+1)*3") is not None and dice_scan.scan("( (d6) )") is not None
    assert dice_scan.scan("(2d6") is None and dice_scan.scan("-d6") is None  # the grammar's


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
    "stepdice": ({"save": ["save", "SAVE", "save dex", "save Strength", "save wil"]},
                 ["d8", "d6", "D12", "0", "d4", "d5", "d20", "00", "vs", "vs 4", "vs d6", "vs 0", "vs d7", "vs x",
                  "enh", "enhanced", "IMP", "impaired", "dex", "str", "4", "+1", "d8!", "99999999999999999999",
                  "vs\t3"]),
    "d20check": ({"check": ["check", "CHECK", "check might", "check Dex", "check luck"],
                  "damage": ["damage", "dmg", "DAMAGE 2d6", "damage d8", "dmg 0d6", "damage 3d1"]},
                 ["5", "0", "21", "trained", "favored", "favoured", "favor", "hinder", "HINDERED", "might", "2d6", "d8",
                  "+1", "-2", "+ 1", "armor", "armor 2", "armour 3", "immune", "weak", "weak2", "x", "d6+1",
                  "99999999999999999999"]),
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
