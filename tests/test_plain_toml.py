"""The plain TOML reader of sheets (crux_cli/state/plain_toml.py) gives tomllib's answer or none."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli.rulesets.crux.hero import Attribute, Hero
from crux_cli.state.plain_toml import loads
from crux_cli.state.sheet import new_sheet_text, parse_sheet

HERO = Hero(name="Wren Ó'Dúill", attributes={"STR": Attribute(2, -1), "DEX": Attribute(-3, 3)}, advantaged_save="WIL",
            attack_count=2, attack_sides=8, attack_attribute="DEX", grit=3, hp=4, conditions=("prone", "dazed"))
SHEETS = [new_sheet_text(Hero()), new_sheet_text(HERO)]
ROOT = Path(__file__).parent.parent
TABLES = [path.read_text(encoding="utf-8") for path in sorted(ROOT.glob("grammar/tables/*.toml"))]  # `[[rows]]`


def tomllib_reads(text: str) -> dict | None:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None


def agrees(text: str) -> bool:
    """None, or what tomllib reads, to the type (repr tells True from 1, and keeps the order)."""
    read = loads(text)
    return read is None or repr(read) == repr(tomllib_reads(text))


@pytest.mark.parametrize("text", SHEETS)
def test_the_sheets_crux_writes_are_read_without_tomllib(text: str) -> None:
    assert loads(text) is not None and agrees(text)


def test_a_sheet_reads_as_the_same_hero_either_way() -> None:
    from crux_cli.rulesets.crux.sheet_file import _SheetReader

    for text in SHEETS:
        assert parse_sheet(text) == _SheetReader(text, "<sheet>").hero(tomllib.loads(text))
    every = {**HERO.attributes, "INT": Attribute(), "WIL": Attribute()}
    assert parse_sheet(SHEETS[1]) == HERO.replace(attributes=every)


@pytest.mark.parametrize("text", [
    'a = 1', 'a = -0', 'a = +17', 'a = "x"', 'a = ""', 'a = true', 'a = false', 'a = []', 'a = [ ]', 'a = [1,]',
    'a = ["x", 2, true]', 'a = {}', 'a = { b = 1, c = "d" }', '[t]\na = 1', '[ t ]  # c\n\ta = 1 # c', '1234 = 5',
    '# only a comment', '', '\n\n', 'a = "tab\tin"', 'a = "é ✓"', '[t]\n[u]\na = 1', '[[a]]',
    '[[a]]\nb = 1\n[[a]]\nb = 2', 'd = "1d6"\n[[rows]]  # c\nroll = "1-3"\n[[ rows ]]\n[t]\nx = 1',
])
def test_plain_forms_are_read_as_tomllib_reads_them(text: str) -> None:
    assert loads(text) is not None and agrees(text)


@pytest.mark.parametrize("text", [
    'a = 1\na = 2', '[t]\n[t]', 'a = 1\n[a]', 'a = 01', 'a = 1_000', 'a = 0x1F', 'a = 1.5', 'a = 1e3', 'a = inf',
    'a = "x\\n"', "a = 'x'", 'a = """x"""', 'a = "x" "y"', 'a = truex', 'a = [1,,2]', 'a = [1', 'a = [[1]]',
    'a = [\n1]', 'a = {b = 1,}', 'a = {b = 1, b = 2}', 'a = {b = {c = 1}}', 'a.b = 1', '"a" = 1', '[a.b]',
    '[[a.b]]', '[t]\n[[t]]', '[[t]]\n[t]', 't = []\n[[t]]', '[[t]]]', '[ [t]]', '[[t] ]',
    'a = 1 b', 'a =', '= 1', 'a = 1\r\n', 'a = 1979-05-27', 'a = "\x00"', '# \x01', '\ufeffa = 1',
    'a = 1234567890123456789', 'a = -', 'a = +', '[t] a = 1', 'a = "x',
])
def test_anything_else_is_left_to_tomllib(text: str) -> None:
    assert loads(text) is None


PIECES = [" ", "\t", "\n", "#", "=", "[", "]", "[[", "]]", "{", "}", ",", '"', "'", "\\", ".", "_", "-", "+", "0", "1",
          "9",
          "a", "Z", "e", "x", "true", "false", "\r", "\x00", "\x7f", "é"]


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(SHEETS + TABLES),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(PIECES)), min_size=1, max_size=4))
def test_a_changed_sheet_is_read_as_tomllib_reads_it_or_left_to_it(sheet: str, edits: list) -> None:
    text = sheet
    for where, cut, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[at + cut:]
    assert agrees(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" \t\n#=[]{},\"'\\._-+019aZtrufalse", max_size=40))
def test_any_short_text_is_read_as_tomllib_reads_it_or_left_to_it(text: str) -> None:
    assert agrees(text)


def test_the_tables_of_the_repository_agree() -> None:
    for text in TABLES:  # and are read without tomllib (state/tables.py)
        assert loads(text) is not None and agrees(text)
