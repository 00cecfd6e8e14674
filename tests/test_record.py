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
