"""core.memo.by_identity: values worked out once per object, by identity, bounded."""

from __future__ import annotations

import pytest

from crux_cli.core.memo import by_identities, by_identity


class Tree:
    """Equal trees that are different objects, as two parses of one text would be without the parse cache."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tree)

    __hash__ = object.__hash__


def test_a_value_is_worked_out_once_per_object_and_afresh_for_an_equal_other_object():
    made: list[Tree] = []

    def make(tree: Tree, text: str) -> str:
        made.append(tree)
        return f"made from {text}"

    remembered = by_identity(make)
    first, second = Tree(), Tree()
    assert remembered(first, "a") == remembered(first, "b") == "made from a"  # the text is not part of the key
    assert remembered(second, "c") == "made from c"
    assert made == [first, second] and made[0] is first and made[1] is second


def test_the_cache_is_bounded_and_a_failure_is_not_remembered():
    calls = 0

    def make(key: object) -> int:
        nonlocal calls
        calls += 1
        if isinstance(key, str):
            raise ValueError(key)
        return calls

    remembered = by_identity(make, size=3)
    keys = [object() for _ in range(4)]
    for key in keys:
        remembered(key)
    assert calls == 4
    remembered(keys[3])  # the fourth came in after the cache was cleared: still there
    remembered(keys[0])  # cleared with the rest when the cache was full: worked out again
    assert calls == 5
    for _ in range(2):
        with pytest.raises(ValueError):
            remembered("refused")
    assert calls == 7


def test_a_pair_is_remembered_by_both_identities_and_the_rest_is_not_part_of_the_key():
    calls: list[tuple[object, object, str]] = []

    def make(first: list[int], second: list[int], text: str) -> int:
        calls.append((first, second, text))
        return sum(first) * sum(second)

    remembered = by_identities(make, size=2)
    a, b = [1, 2], [3]
    assert remembered(a, b, "x") == remembered(a, b, "y") == 9 and len(calls) == 1
    assert remembered(a, [3], "x") == 9 and remembered([1, 2], b, "x") == 9 and len(calls) == 3  # equal, not same
    remembered(b, a, "x")  # past the size: cleared whole, then remembered afresh
    assert remembered(a, b, "x") == 9 and len(calls) == 5
