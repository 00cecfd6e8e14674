"""The sheet format: the template reads back, hand edits survive writes, bad sheets are refused by line."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.rulesets.crux.hero import ATTRIBUTES, Attribute, Hero
from crux_cli.rulesets.crux.sheet_file import key_line, parse_attribute_spec
from crux_cli.state.sheet import new_sheet_text, parse_sheet, update_sheet_text

WREN = Hero(
    name="Wren",
    attributes={**{a: Attribute() for a in ATTRIBUTES}, "DEX": Attribute(2, 1), "WIL": Attribute(-1, -2)},
    advantaged_save="DEX",
    disadvantaged_save="WIL",
    attack_count=1,
    attack_sides=8,
    attack_attribute="DEX",
    grit=2,
    hp=9,
    hp_max=12,
    wounds=1,
    hit_dice=2,
    hit_dice_max=3,
    hit_die=10,
    conditions=("prone",),
)

HAND_WRITTEN = """\
# Wren's sheet -- my own notes
name = "Wren"   # halfling rogue

[attributes]
# quick and clever
DEX = { modifier = 2, rating = 1 }
int = { modifier = 1, rating = 0 }

[attributes.STR]   # a sub-table also works
modifier = -1
rating = -1

[attack]
die = "2d6"        # twin daggers
attribute = "dex"

[status]
grit = 1           # saved up for the dragon
hp = 7             # ouch
hp_max = 10
conditions = ["frightened"]   # the dragon again

# trailing notes stay too
"""


def test_template_reads_back_as_the_same_hero() -> None:
    assert parse_sheet(new_sheet_text(WREN)) == WREN


def test_template_of_a_default_hero_is_valid_and_commented() -> None:
    text = new_sheet_text(Hero(name="Ash"))
    assert parse_sheet(text) == Hero(name="Ash")
    assert text.count("#") > 10


def test_a_hand_written_sheet_reads_with_defaults_and_aliases() -> None:
    hero = parse_sheet(HAND_WRITTEN)
    assert hero.attribute("DEX") == Attribute(2, 1)
    assert hero.attribute("INT") == Attribute(1, 0)
    assert hero.attribute("STR") == Attribute(-1, -1)
    assert hero.attribute("WIL") == Attribute(0, 0)
    assert (hero.attack_count, hero.attack_sides, hero.attack_attribute) == (2, 6, "DEX")
    assert (hero.grit, hero.hp, hero.hp_max, hero.wounds, hero.wound_cap) == (1, 7, 10, 0, 6)
    assert (hero.dying, hero.dead) == (False, False)
    assert hero.conditions == ("frightened",)
    assert hero.advantaged_save is None and hero.rules == "crux"


def test_writing_back_changes_only_the_changed_values_and_keeps_every_comment() -> None:
    before = parse_sheet(HAND_WRITTEN)
    after = before.with_changes(grit=2, hp=0, wounds=1, dying=True, conditions=("frightened", "prone"))
    text = update_sheet_text(HAND_WRITTEN, before, after)
    assert parse_sheet(text) == after
    old_lines, new_lines = HAND_WRITTEN.splitlines(), text.splitlines()
    for old in old_lines:
        if not old.startswith(("grit", "hp =", "conditions")):
            assert old in new_lines, old
    assert "grit = 2           # saved up for the dragon" in new_lines
    assert "hp = 0             # ouch" in new_lines
    assert 'conditions = ["frightened", "prone"]   # the dragon again' in new_lines


def test_writing_back_nothing_changed_returns_the_text_untouched() -> None:
    hero = parse_sheet(HAND_WRITTEN)
    assert update_sheet_text(HAND_WRITTEN, hero, hero) is HAND_WRITTEN


def test_writing_back_adds_a_status_table_when_the_sheet_has_none() -> None:
    text = 'name = "Bare"  # nothing else\n'
    before = parse_sheet(text)
    after = before.with_changes(grit=1)
    written = update_sheet_text(text, before, after)
    assert written.startswith('name = "Bare"  # nothing else\n')
    assert parse_sheet(written).grit == 1


def refused(text: str) -> SheetError:
    with pytest.raises(SheetError) as caught:
        parse_sheet(text, "wren.toml")
    return caught.value


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('name = "W"\n[status]\ngrit = 9\n', 3, "`grit` is 9; it must be from 0 to 5"),
        ('name = "W"\n[status]\ngrit = -1\n', 3, "from 0 to 5"),
        ('[attributes]\nSTR = { modifier = 1, rating = 0 }\nLUCK = { modifier = 1, rating = 1 }\n', 3,
         "unknown attribute 'LUCK'"),
        ('[attributes]\nDEX = { modifier = 1, rating = 4 }\n', 2, "`rating` is 4; it must be from -3 to 3"),
        ('[attributes.DEX]\nmodifier = 1\nrating = "high"\n', 3, "`rating` must be a whole number"),
        ('[attributes]\nDEX = { modifier = 1, rating = 0 }\ndex = { modifier = 2, rating = 0 }\n', 3,
         "DEX is given twice"),
        ('name = "W"\ngritt = 3\n', 2, "unknown key `gritt` at the top"),
        ('[status]\nhp = 11\nhp_max = 10\n', 2, "`hp` is 11; it must be from 0 to 10"),
        ('[status]\nwounds = 7\n', 2, "`wounds` is 7; it must be from 0 to 6"),
        ('[status]\nwound_cap = 3\nwounds = 4\n', 3, "from 0 to 3"),
        ('[status]\ndying = "yes"\n', 2, "must be true or false"),
        ('[status]\nconditions = ["on fire"]\n', 2, "unknown condition 'on fire'"),
        ('[status]\nconditions = ["dying"]\n', 2, "Dying is kept apart"),
        ('[status]\nhit_dice_max = 2\nhit_dice = 3\n', 3, "from 0 to 2"),
        ('[status]\nhit_die = "2d8"\n', 2, "must be a die like"),
        ('[attack]\ndie = "d1"\n', 2, "must be a die like"),
        ('[attack]\nattribute = "LCK"\n', 2, "unknown attribute"),
        ('[saves]\nadvantaged = "WIL"\ndisadvantaged = "wil"\n', 3, "both the advantaged and"),
        ('rules = "gurps"\n', 1, "unknown rule set `gurps`"),
        ('name = ""\n', 1, "`name` must be a non-empty text"),
        ('saves = 3\n', 1, "`saves` must be a table"),
        ('name = "W"\n\n[status]\ngrit = = 2\n', 4, "not valid TOML"),
        ('name = "W\n', 1, "not valid TOML"),
        ('[status]\ngrit = 1\n[status]\n', 3, "not valid TOML"),
        ('name = "W"\n[attack]\ndie = "d' + "9" * 5000 + '"\n', 3, "must be a die like"),  # no int() of it
        ('name = "W"\n[status]\ngrit = ' + "9" * 5000 + "\n", 3, "a number too long"),
        ('name = "W"\n[status]\nconditions = ' + "[" * 10_000 + "]" * 10_000 + "\n", 3, "nested too deeply"),
        ('name = "W"\n[status]\nconditions = ' + "[{a=" * 5_000 + "1" + "}]" * 5_000 + "\n", 3, "nested too"),
    ],
)
def test_bad_sheets_are_refused_with_file_line_and_reason(text: str, line: int, reason: str) -> None:
    error = refused(text)
    assert error.path == "wren.toml"
    assert error.line == line, error.message
    assert reason in error.message
    assert error.message.startswith(f"wren.toml:{line}: ")


def test_a_refusal_never_echoes_a_huge_value_back() -> None:
    for text in ('name = "W"\n[attack]\ndie = "' + "x" * 100_000 + '"\n', "[status]\ngrit = " + "9" * 4000 + "\n"):
        assert len(refused(text).message) < 200


def test_comments_inside_a_multi_line_conditions_list_survive_a_change() -> None:
    text = ('name = "W"\n[status]\nconditions = [\n  "prone",  # tripped by the goblin\n'
            '  # the dazed one wears off next turn\n  "dazed",\n]\ngrit = 1  # mine\n')
    before = parse_sheet(text)
    written = update_sheet_text(text, before, before.with_changes(conditions=("prone", "frightened")))
    assert '"prone",  # tripped by the goblin' in written
    assert "# the dazed one wears off next turn" in written and "grit = 1  # mine" in written
    assert parse_sheet(written).conditions == ("prone", "frightened")


def test_a_refusal_gives_a_hint_naming_what_is_allowed() -> None:
    assert "STR, DEX, INT, WIL" in (refused('[attributes]\nLUCK = { modifier = 0, rating = 0 }\n').hint or "")
    assert "grit" in (refused('[status]\ngrip = 1\n').hint or "")


def test_key_line_finds_keys_in_tables_inline_tables_and_dotted_keys() -> None:
    text = '# c\n[status]\n\n  grit = 1\n[attributes]\nDEX = { rating = 9 }\n"STR".rating = 4\n'
    assert key_line(text, ("status", "grit")) == 4
    assert key_line(text, ("attributes", "DEX", "rating")) == 6
    assert key_line(text, ("attributes", "STR", "rating")) == 7
    assert key_line(text, ("status", "hp")) == 2  # not written: its table's header
    assert key_line(text, ("name",)) is None


@pytest.mark.parametrize(
    ("spec", "name", "attribute"),
    [("STR=+2/1", "STR", Attribute(2, 1)), ("dex=-1/-2", "DEX", Attribute(-1, -2)),
     ("Will=3", "WIL", Attribute(3, 0)), (" int = 0 / +3 ", "INT", Attribute(0, 3))],
)
def test_attribute_specs_for_sheet_new(spec: str, name: str, attribute: Attribute) -> None:
    assert parse_attribute_spec(spec) == (name, attribute)


@pytest.mark.parametrize(
    ("spec", "reason"),
    [("STR", "cannot read"), ("LCK=1/1", "unknown attribute"), ("STR=1/4", "outside -3..+3"),
     ("STR=+99/0", "outside"), ("STR=" + "9" * 5000, "cannot read"), ("STR=1/" + "9" * 5000, "cannot read")],
)
def test_bad_attribute_specs_are_refused(spec: str, reason: str) -> None:
    with pytest.raises(CruxError, match=reason):
        parse_attribute_spec(spec)


# -- a large sheet: only its [status] table goes through tomlkit -------------------------------------------

NOTES = "# " + "notes about the dragon, " * 4 + "\n"


@pytest.mark.parametrize("where", ["after", "before", "inside"])
def test_a_1_mb_sheet_changes_one_value_quickly_and_keeps_the_rest_byte_for_byte(where: str) -> None:
    """tomlkit read the whole sheet a character at a time: 0.7 s of the 0.9 s a change took at 1 MB."""

    padding = NOTES * 9_000  # 900 KB of comments
    status_at = HAND_WRITTEN.index("[status]")
    head, tail = HAND_WRITTEN[:status_at], HAND_WRITTEN[status_at:]
    text = {"after": HAND_WRITTEN + padding, "before": head + padding + tail,
            "inside": head + tail.replace("\n", "\n" + padding, 1)}[where]  # inside: under its header
    before = parse_sheet(text)
    after = before.with_changes(hp=3, conditions=("prone",))
    from helpers import counting

    with counting() as work:
        changed = update_sheet_text(text, before, after)
    assert work.calls < 2_000_000  # about 175,000
    assert parse_sheet(changed) == after
    kept = [line for line in text.splitlines() if not line.startswith(("hp =", "conditions"))]
    assert [line for line in changed.splitlines() if not line.startswith(("hp =", "conditions"))] == kept


@pytest.mark.parametrize("text", [
    HAND_WRITTEN,
    'name = "Bare"\n',
    'notes = """\n[status]\nhp = 99\n"""\n[status]\nhp = 4\n',  # a header look-alike in a string
    '[status]\nhp = 4\n[status.more]\nx = 1\n',
    '[status]\nhp = 4\nconditions = [\n  "prone",  # fell\n  "dazed",\n]\n# the end\n',
    '[status] # kept\nhp = 4\n\n\n[[gear]]\nname = "rope"\n',
])
def test_the_status_table_alone_gives_what_the_whole_sheet_would(text: str) -> None:
    import tomllib

    from crux_cli.rulesets.crux.sheet_file import updated_document

    before = Hero(hp=4)  # only the values that change matter here: these need not be sheets crux takes
    after = before.with_changes(hp=2, grit=1, conditions=("dazed",))
    changed = ["grit", "hp", "conditions"]
    assert tomllib.loads(update_sheet_text(text, before, after)) == tomllib.loads(updated_document(text, after,
                                                                                                   changed))


def test_a_sheet_is_read_by_the_sheet_file_of_the_rules_it_names_else_the_default_rules() -> None:
    """A rule set without a sheet file of its own (stepdice) plays from a sheet the default rule set reads; the
    sheet keeps the name of its rules, and the runner switches to them (state.store `file_for`)."""
    from crux_cli import rulesets
    from crux_cli.state.store import file_for

    default = rulesets.sheet_file(rulesets.DEFAULT)
    assert file_for(None) is file_for("crux") is file_for(" Crux ") is default
    assert file_for("stepdice") is default and file_for("gurps") is default and file_for(3) is default
    hero = Hero(name="Wren", rules="stepdice", grit=2)
    assert parse_sheet(new_sheet_text(hero)) == hero
    assert default is not None and default.kept(hero)["grit"] == 2
    assert default.with_kept(hero, {"conditions": ["prone"]}).conditions == ("prone",)
    assert default.load(default.dump(hero)) == hero
