"""Values worked out once per immutable object, remembered by the object's identity.

A batch repeats a few dozen statements thousands of times, and the parse cache hands back the same
syntax tree for the same text, so what depends on a tree alone (its dice plan, its compiled request,
its notation) can be worked out once per tree. Keying on identity rather than equality matters:
hashing a tree walks all of it, which costs more than most of the work saved.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

Key = TypeVar("Key")
Other = TypeVar("Other")
Value = TypeVar("Value")
Context = ParamSpec("Context")

Owner = TypeVar("Owner")

REMEMBERED = 1024  # objects each cache keeps alive (their trees with them); a batch repeats a few dozen


def by_identity(make: Callable[Concatenate[Key, Context], Value],
                size: int = REMEMBERED) -> Callable[Concatenate[Key, Context], Value]:
    """`make`, remembered for each object it was given: in the object's own `__dict__` when it has one (a
    Record's: its fields, equality and hash never see it), else for the last `size` distinct objects (cleared
    whole when full).

    Kept on the object, a value lives as long as its tree: no table to look it up in, bound or clear (PERFORMANCE.md,
    "A tree keeps what is worked out from it"); nothing is kept while `KEEPING` is off. Further arguments are passed
    to `make` but are not part of the key: they may only serve what is not remembered, such as the text an error
    points into. A call that raises remembers nothing. A table's entry keeps its object alive, so its id names no
    other object meanwhile. `kept_as` is the memo's key in a `__dict__`, for a loop reading it straight."""
    known: dict[int, tuple[Any, Value]] = {}
    name = f"_remembered_{getattr(make, '__qualname__', 'value')}_{next(_MEMOS)}"  # this memo's key in a __dict__

    def remembered(key: Key, /, *args: Context.args, **kwargs: Context.kwargs) -> Value:
        try:
            own = key.__dict__
        except AttributeError:  # no __dict__ (slots, a tuple): the table
            own = None
        if own is not None:
            value = own.get(name, _NOTHING)
            if value is _NOTHING:
                value = make(key, *args, **kwargs)
                if KEEPING.on:
                    own[name] = value
            return value  # type: ignore[no-any-return]
        hit = known.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = make(key, *args, **kwargs)
        if KEEPING.on:
            keep_in(known, size, id(key), (key, value))
        return value

    remembered.__name__ = remembered.__qualname__ = getattr(make, "__name__", "remembered")
    remembered.__doc__ = make.__doc__
    remembered.cache_clear, remembered.kept_as = known.clear, name  # type: ignore[attr-defined]
    return remembered


class Keeping:
    """Whether `by_identity` keeps what it works out (`on`): off while a statement read once is read and answered
    (running.runner turns it off and back on; PERFORMANCE.md, "A line met once is kept by nothing"). Its tree dies
    with its line, so a value kept on it would be worked out for nothing, and one that refers back to its tree (a
    dice term's plan holds the term) would make a cycle only the collector frees. Keeping or not never changes a
    value, only whether it is worked out again; so one flag for the process will do, even where threads answer
    statements side by side (the table's server): one may keep, or not, while another turned it off."""

    __slots__ = ("on",)

    def __init__(self) -> None:
        self.on = True


KEEPING = Keeping()


class Met:
    """Keys met before: `again(key)` is True from a key's second time on (of the last `size` keys met once,
    forgotten all at once when full). A cache that keeps only what `again` says is met again keeps nothing of a
    batch whose lines are all different, so each line's objects are freed as it ends and their memory is reused
    while it is still in the processor's cache (PERFORMANCE.md, "A line met once is kept by nothing"). Keys are
    held, not values: texts, which the garbage collector never walks."""

    __slots__ = ("seen", "size")

    def __init__(self, size: int = REMEMBERED) -> None:
        self.seen: set[Any] = set()
        self.size = size

    def again(self, key: Any) -> bool:
        seen = self.seen
        if key in seen:
            return True
        if len(seen) >= self.size:
            seen.clear()
        seen.add(key)
        return False


def keep_in(table: dict[Any, Any], size: int, key: Any, entry: Any) -> None:
    """`entry` in `table` by `key`, the table cleared whole when it holds `size` entries."""
    if len(table) >= size:
        table.clear()
    table[key] = entry


_MEMOS = itertools.count()  # each memo's own name in the objects' __dict__
_NOTHING: Any = object()


def by_identities(make: Callable[Concatenate[Key, Other, Context], Value],
                  size: int = REMEMBERED) -> Callable[Concatenate[Key, Other, Context], Value]:
    """`make`, remembered for the last `size` distinct pairs of objects it was given first (as `by_identity`
    does for one): what depends on two immutable objects, such as a statement's tree and a sheet's hero."""
    known: dict[tuple[int, int], tuple[Any, Any, Value]] = {}

    def remembered(key: Key, other: Other, /, *args: Context.args, **kwargs: Context.kwargs) -> Value:
        hit = known.get((id(key), id(other)))
        if hit is not None and hit[0] is key and hit[1] is other:
            return hit[2]
        value = make(key, other, *args, **kwargs)
        if len(known) >= size:
            known.clear()
        known[(id(key), id(other))] = (key, other, value)
        return value

    remembered.__name__ = remembered.__qualname__ = getattr(make, "__name__", "remembered")
    remembered.__doc__ = make.__doc__
    remembered.cache_clear = known.clear  # type: ignore[attr-defined]
    return remembered


class kept_property(Generic[Owner, Value]):  # named as the decorator it is, like functools.cached_property
    """A property worked out at its first read and kept in the instance's `__dict__` (a Record's too: its
    fields, equality and hash never see it): `functools.cached_property` without the lock Python 3.11 takes at
    every first read, which a batch of different lines pays at every line (each request is new)."""

    def __init__(self, make: Callable[[Owner], Value]) -> None:
        self.make = make
        self.name = make.__name__
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, instance: Owner, owner: type | None = None) -> Value: ...

    def __get__(self, instance: Owner | None, owner: type | None = None) -> Value | Self:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.make(instance)
        return value
