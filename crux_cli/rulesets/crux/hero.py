"""The hero as the rules see it: a plain, immutable view of a character sheet.

The rule engine and the compilers read a `Hero`; only the state layer reads
and writes the TOML sheet it comes from.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from crux_cli.core.record import Record
from crux_cli.core.vocabulary import ATTRIBUTES
from crux_cli.core.vocabulary import CONDITIONS as CONDITIONS  # re-exported: the sheet and the ledger read them here
from crux_cli.rulesets.crux.engine import GRIT_MAX as GRIT_MAX  # re-exported: the sheet validates against it

WOUND_CAP = 6


class Attribute(Record):
    modifier: int = 0  # used for damage and flat bonuses (+STR)
    rating: int = 0  # Boon/Bane rating, -3..+3: boons (or banes) on tests


class Attributes(Mapping[str, Attribute]):
    """A hero's attributes by short name: a read-only, hashable mapping (a `Hero` is a value)."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[str, Attribute] | None = None) -> None:
        self._items: dict[str, Attribute] = dict(items or {})
        self._hash: int | None = None  # worked out once: a batch on a sheet interns a hero per change (state.store)

    def __getitem__(self, name: str) -> Attribute:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Attributes:
            return self._items == other._items
        return super().__eq__(other)

    def __repr__(self) -> str:
        return repr(self._items)


def default_attributes() -> Attributes:
    return Attributes({a: Attribute() for a in ATTRIBUTES})


DEFAULT_ATTRIBUTES = default_attributes()  # one for every hero made without any: an `Attributes` is immutable


class Hero(Record):
    name: str = "hero"
    rules: str = "crux"
    attributes: Mapping[str, Attribute] = DEFAULT_ATTRIBUTES  # an `Attributes`
    advantaged_save: str | None = None
    disadvantaged_save: str | None = None
    attack_count: int = 1  # the attack die: attack_count d attack_sides
    attack_sides: int = 6
    attack_attribute: str | None = None  # its modifier is added as flat damage
    grit: int = 0
    hp: int = 10
    hp_max: int = 10
    wounds: int = 0
    wound_cap: int = WOUND_CAP
    dying: bool = False
    dead: bool = False
    hit_dice: int = 1  # unspent Hit Dice
    hit_dice_max: int = 1
    hit_die: int = 8  # sides of a Hit Die
    conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.attributes, Attributes):  # a plain dict from a sheet or a caller, frozen here
            object.__setattr__(self, "attributes", Attributes(self.attributes))

    def attribute(self, name: str) -> Attribute:
        return self.attributes.get(name, Attribute())

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def with_changes(self, **changes: Any) -> Hero:
        return self.replace(**changes)
