"""Immutable records that are cheap to define.

A frozen dataclass generates its methods with `exec` when the class is created,
about 0.4 ms each on Python 3.11; the one-shot roll path defines a dozen of them
(syntax tree, requests, results) and start-up is a feature. `Record` gives the
same behaviour (keyword or positional construction with defaults, immutability,
value equality and hashing over the compared fields, a readable repr, a
`__post_init__` called once the fields are set) from one set of shared methods, so
defining a class costs microseconds.

    class Pool(Record):
        count: int
        sides: int
        pos: int = field(default=0, compare=False)

Values are Records (frozen); a class that does work (a reader, a transaction) is a plain class. A
`__post_init__(self)` runs after the fields are set, where a value normalises what it was given
(`Hero` freezes a plain dict of attributes); it may set fields through `object.__setattr__`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, Self, dataclass_transform

_MISSING: Any = object()
SPECIALISE_AFTER = 64


class _Field:
    __slots__ = ("compare", "default")

    def __init__(self, default: Any, compare: bool) -> None:
        self.default = default
        self.compare = compare


def field(*, default: Any = _MISSING, compare: bool = True) -> Any:
    """A field with options, as in dataclasses: `pos: int = field(default=0, compare=False)`."""
    return _Field(default, compare)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record:
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    __match_args__: ClassVar[tuple[str, ...]] = ()  # each subclass's fields, set below
    _made: ClassVar[int] = 0  # instances built through the generic __init__
    _post_init: ClassVar[bool] = False  # the class has a __post_init__, called by __init__ as a dataclass's is

    def __init_subclass__(cls, mutable: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if mutable:  # settings that options fill in one by one: attributes may be set, and no hash
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign,assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
            cls.__hash__ = None  # type: ignore[assignment]
        fields, compared, defaults = list(cls._fields), list(cls._compared), dict(cls._defaults)
        # this class's own annotations, as strings: what inspect.get_annotations reads for a class, without
        # importing inspect (6 ms), which a roll answered without click would load for this alone
        # (tests/bench/bench_startup.py)
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect costs the start-up 6 ms
        for name, annotation in (own if isinstance(own, dict) else {}).items():
            if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                continue
            value = cls.__dict__.get(name, _MISSING)
            spec = value if isinstance(value, _Field) else _Field(value, True)
            if spec.default is not _MISSING:
                defaults[name] = spec.default
                setattr(cls, name, spec.default)
            elif defaults:
                raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
            fields.append(name)
            if spec.compare:
                compared.append(name)
        cls._fields, cls._compared, cls._defaults = tuple(fields), tuple(compared), defaults
        cls._field_values = staticmethod(_reader(cls._fields))  # type: ignore[method-assign,assignment]
        cls._compared_values = staticmethod(_reader(cls._compared))  # type: ignore[method-assign,assignment]
        # positional patterns: `case Sum(first, rest)`; mypy refuses any assignment to __match_args__
        cls.__match_args__ = cls._fields  # type: ignore[misc]
        cls._made = 0
        cls._post_init = hasattr(cls, "__post_init__")
        if "__init__" not in cls.__dict__:  # its own generic __init__, never a parent's specialised one
            cls.__init__ = _generic_init  # type: ignore[method-assign]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        cls._made += 1
        if cls._made == SPECIALISE_AFTER and cls.__dict__.get("__init__") is _generic_init:
            cls.__init__ = _specialised_init(cls)  # type: ignore[method-assign]
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__} takes {len(names)} arguments, not {len(args)}")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names or name in values:
                raise TypeError(f"{cls.__name__}: unexpected or repeated argument {name!r}")
            values[name] = value
        for name in names:
            if name not in values:
                value = self._defaults.get(name, _MISSING)
                if value is _MISSING:
                    raise TypeError(f"{cls.__name__}: missing argument {name!r}")
                values[name] = value
        self.__dict__.update(values)
        if self._post_init:
            self.__post_init__()  # type: ignore[attr-defined]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    @staticmethod
    def _field_values(record: Any) -> tuple[Any, ...]:
        """All the fields' values, in order (each class's own `_reader`, set when it is made)."""
        return ()

    @staticmethod
    def _compared_values(record: Any) -> tuple[Any, ...]:
        """The compared fields' values, in order (as `_field_values`)."""
        return ()

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The fields, in order (what `dataclasses.fields` names)."""
        return cls._fields

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values, one level deep (a field holding records keeps them as they are)."""
        return {name: getattr(self, name) for name in self._fields}

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed, like `dataclasses.replace`."""
        values = dict(zip(self._fields, self._field_values(self), strict=True))
        values.update(changes)
        return type(self)(**values)

    def value_key(self) -> tuple[Any, ...]:
        """The values of the compared fields, in order: what equality and the hash are made of.

        Two records of the same class are equal exactly when their keys are; a key does not name the
        class, so a table keyed by it should hold one class (state.store `interned`, a hero's states).
        """
        return self._compared_values(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.value_key() == other.value_key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self.value_key()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"


_generic_init = Record.__init__


def _reader(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """What reads the values of `names` from a record as one tuple: `attrgetter`, a C call, where it gives one
    (a hero's state is keyed by its values at every change a batch makes: state.store `interned`)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def _specialised_init(cls: type[Record]) -> Any:
    """An `__init__` with the class's own parameters, as a dataclass would write it.

    About five times faster than the generic one, which matters in a batch that builds a few
    records per line; compiling it costs a fraction of a millisecond, so it is made only for a
    class that has already built SPECIALISE_AFTER instances (never on a one-shot roll).
    """
    names = cls._fields
    source = [f"def __init__(__record, {', '.join(names)}):", "    into = __record.__dict__"]
    source += [f"    into[{name!r}] = {name}" for name in names] or ["    pass"]
    if cls._post_init:
        source.append("    __record.__post_init__()")
    namespace: dict[str, Any] = {}
    exec("\n".join(source), namespace)  # names are the class's annotated fields: identifiers, no input
    init = namespace["__init__"]
    defaults = [cls._defaults[name] for name in names if name in cls._defaults]
    init.__defaults__ = tuple(defaults) or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
