"""Values worked out once per immutable object, remembered by the object's identity.

A batch repeats a few dozen statements thousands of times, and the parse cache hands back the same
syntax tree for the same text, so what depends on a tree alone (its dice plan, its compiled request,
its notation) can be worked out once per tree. Keying on identity rather than equality matters:
hashing a tree walks all of it, which costs more than most of the work saved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

Key = TypeVar("Key")
Other = TypeVar("Other")
Value = TypeVar("Value")
Context = ParamSpec("Context")

REMEMBERED = 1024  # objects each cache keeps alive (their trees with them); a batch repeats a few dozen


def by_identity(make: Callable[Concatenate[Key, Context], Value],
                size: int = REMEMBERED) -> Callable[Concatenate[Key, Context], Value]:
    """`make`, remembered for the last `size` distinct objects it was given (cleared whole when full).

    Further arguments are passed to `make` but are not part of the key: they may only serve what is
    not remembered, such as the text an error points into. A call that raises remembers nothing.
    Each entry keeps its object alive, so its id cannot be reused by another object while it is there.
    """
    known: dict[int, tuple[Any, Value]] = {}

    def remembered(key: Key, /, *args: Context.args, **kwargs: Context.kwargs) -> Value:
        hit = known.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = make(key, *args, **kwargs)
        if len(known) >= size:
            known.clear()
        known[id(key)] = (key, value)
        return value

    remembered.__name__ = remembered.__qualname__ = getattr(make, "__name__", "remembered")
    remembered.__doc__ = make.__doc__
    remembered.cache_clear = known.clear  # type: ignore[attr-defined]
    return remembered


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
