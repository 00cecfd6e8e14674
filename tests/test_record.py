"""Records behave as frozen dataclasses do."""

from __future__ import annotations

from typing import ClassVar

import pytest

from crux_cli.core.record import Record, field


class Point(Record):
    kind: ClassVar[str] = "point"
    x: int
    y: int = 0
    pos: int = field(default=0, compare=False)


def test_construction_by_position_keyword_and_default():
    assert Point(1, 2) == Point(x=1, y=2) == Point(1, y=2, pos=7)
    assert Point(3).y == 0 and Point.kind == "point" and Point._fields == ("x", "y", "pos")


def test_equality_and_hash_skip_fields_not_compared():
    assert Point(1, 2, pos=1) == Point(1, 2, pos=9) and hash(Point(1, 2, pos=1)) == hash(Point(1, 2, pos=9))
    assert Point(1, 2) != Point(2, 1) and Point(1) != (1, 0, 0)


def test_the_value_key_is_the_compared_fields_that_equality_and_hash_are_made_of() -> None:
    assert Point(1, 2, pos=3).value_key() == (1, 2) == Point(1, 2, pos=9).value_key()
    assert Point(2, 1).value_key() != Point(1, 2).value_key()
    assert hash(Point(1, 2, pos=3)) == hash(("Point", *Point(1, 2).value_key()))


def test_immutable():
    point = Point(1)
    with pytest.raises(AttributeError):
        point.x = 2
    with pytest.raises(AttributeError):
        del point.x


@pytest.mark.parametrize(("args", "kwargs"), [((), {}), ((1, 2, 3, 4), {}), ((1,), {"x": 1}), ((1,), {"z": 0})])
def test_bad_arguments(args, kwargs):
    with pytest.raises(TypeError):
        Point(*args, **kwargs)


def test_repr_names_every_field():
    assert repr(Point(1, 2, pos=3)) == "Point(x=1, y=2, pos=3)"


def test_a_field_without_default_cannot_follow_one_with():
    with pytest.raises(TypeError):
        class Bad(Record):
            a: int = 0
            b: int


def test_replace_makes_a_changed_copy():
    point = Point(1, 2, pos=3)
    assert point.replace(y=5) == Point(1, 5) and point.replace(y=5).pos == 3 and point.y == 2


def test_a_much_built_class_gets_a_faster_init_that_behaves_the_same():
    from crux_cli.core import record

    class Pair(Record):
        a: int
        b: str = "b"
        c: tuple[int, ...] = field(default=(), compare=False)

    class Triple(Pair):
        d: int = 4

    built = [Pair(n, c=(n,)) for n in range(record.SPECIALISE_AFTER + 1)]
    assert Pair.__init__ is not Record.__init__ and Triple.__init__ is not Pair.__init__
    assert built[-1] == Pair(record.SPECIALISE_AFTER) and built[-1].c == (record.SPECIALISE_AFTER,)
    assert Pair(1, "x", (2,)) == Pair(a=1, b="x") and repr(Pair(1)) == "Pair(a=1, b='b', c=())"
    assert Triple(1, d=5).d == 5 and Triple(1).b == "b"
    for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"a": 1}), ((1,), {"z": 0})]:
        with pytest.raises(TypeError):
            Pair(*args, **kwargs)
    with pytest.raises(AttributeError):
        Pair(1).a = 2


def test_post_init_runs_once_the_fields_are_set_in_either_init() -> None:
    from crux_cli.core import record

    class Sorted(Record):
        items: tuple[int, ...] = ()

        def __post_init__(self) -> None:
            object.__setattr__(self, "items", tuple(sorted(self.items)))

    made = [Sorted((n, 0)) for n in range(record.SPECIALISE_AFTER + 1)]  # the last by the specialised __init__
    assert Sorted.__init__ is not Record.__init__
    assert made[0].items == (0, 0) and made[-1].items == (0, record.SPECIALISE_AFTER)
    assert Sorted((3, 1)).replace(items=(9, 2)).items == (2, 9) and Sorted().items == ()


# -- values that were immutable in name only ---------------------------------------------------------

def test_a_hero_is_a_value_its_attributes_cannot_change() -> None:
    from crux_cli.rulesets.crux.hero import Attribute, Hero

    hero = Hero(attributes={"STR": Attribute(1, 2), "DEX": Attribute()})
    assert hash(hero) == hash(Hero(attributes={"STR": Attribute(1, 2), "DEX": Attribute()}))
    assert hero == Hero(attributes={"STR": Attribute(1, 2), "DEX": Attribute()})
    assert len({hero, hero.with_changes(hp=3)}) == 2
    with pytest.raises(TypeError):
        hero.attributes["STR"] = Attribute(5, 3)  # type: ignore[index]
    assert hero.attribute("STR") == Attribute(1, 2) and dict(hero.attributes)["DEX"] == Attribute()
    assert hero.with_changes(grit=2).attributes is hero.attributes  # shared, never copied again


def test_placing_an_error_makes_a_new_one() -> None:
    """`CruxError.at` never changes an error already raised: a caller holding it sees it unchanged."""
    from crux_cli.core.errors import CruxError, LimitError

    raised = LimitError("too many dice", hint="fewer dice")
    placed = raised.at("roll 9999d6", 5)
    assert (raised.text, raised.position) == (None, None)
    assert type(placed) is LimitError
    assert (placed.text, placed.position, placed.hint) == ("roll 9999d6", 5, "fewer dice")
    assert placed.at("another line", 0) is placed  # placed once, kept
    hinted = placed.with_hint("ask for less")
    assert (hinted.hint, placed.hint, str(hinted)) == ("ask for less", "fewer dice", "too many dice")
    assert isinstance(CruxError("x").at("x"), CruxError)


def test_an_error_of_a_plug_in_placed_keeps_its_class_and_fields() -> None:
    from crux_cli.core.errors import CruxError

    class Fumble(CruxError):  # a plug-in's error whose __init__ takes other arguments
        def __init__(self, die: int) -> None:
            super().__init__(f"a fumble on d{die}", hint="roll again")
            self.die = die

    placed = Fumble(20).at("attack d20", 7)
    assert type(placed) is Fumble and placed.die == 20 and str(placed) == "a fumble on d20"
    assert (placed.text, placed.position, placed.hint) == ("attack d20", 7, "roll again")


class Sorted(Record):
    """A value that normalises what it is given, as `Hero` freezes a plain dict of attributes."""

    items: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(sorted(self.items)))


def test_post_init_runs_for_every_instance_even_past_specialisation() -> None:
    from crux_cli.core.record import SPECIALISE_AFTER

    made = [Sorted([3, 1, 2]) for _ in range(SPECIALISE_AFTER * 2)]
    assert {value.items for value in made} == {(1, 2, 3)} and Sorted((2, 1)).replace(items=[9, 0]).items == (0, 9)


def test_field_names_and_as_dict_are_what_dataclasses_fields_and_asdict_gave() -> None:
    assert Point.field_names() == ("x", "y", "pos") and Point(1, 2, pos=3).as_dict() == {"x": 1, "y": 2, "pos": 3}


def test_values_of_the_rules_are_records_and_hashable() -> None:
    from crux_cli.rulesets.crux.encounter import Combatant, Encounter, Step
    from crux_cli.rulesets.crux.hero import Attribute, Hero
    from crux_cli.rulesets.crux.sheet_syntax import Damage

    for value in (Hero(), Attribute(1, 2), Combatant("goblin", "enemy"), Encounter(), Step(Encounter()), Damage(3)):
        assert isinstance(value, Record) and hash(value) == hash(value.replace())
    assert Hero(attributes={"STR": Attribute(2, 1)}).attribute("STR") == Attribute(2, 1)
