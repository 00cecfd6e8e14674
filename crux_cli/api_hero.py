"""The hero the library gives (`new_hero`, `read_sheet`, `Session.hero`), as a type checker sees it.

A structural type, so the library names no rule set's own classes (CONTRIBUTING.md): what crux-python(7) documents
of a hero on a crux sheet, the only built-in rule set that keeps one. At run time the value is that rule set's hero
(`crux_cli.Hero` is its class); tests/test_typed_client.py checks that it has every field here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class HeroAttribute(Protocol):
    """One attribute of a hero: its modifier (damage, flat bonuses) and its Boon/Bane rating (-3..+3)."""

    @property
    def modifier(self) -> int: ...

    @property
    def rating(self) -> int: ...


class Hero(Protocol):
    """A hero as a crux sheet holds it: immutable; a roll that changes it gives a new one."""

    @property
    def name(self) -> str: ...

    @property
    def rules(self) -> str: ...

    @property
    def attributes(self) -> Mapping[str, HeroAttribute]: ...

    @property
    def advantaged_save(self) -> str | None: ...

    @property
    def disadvantaged_save(self) -> str | None: ...

    @property
    def attack_count(self) -> int: ...  # the attack die: attack_count d attack_sides

    @property
    def attack_sides(self) -> int: ...

    @property
    def attack_attribute(self) -> str | None: ...

    @property
    def grit(self) -> int: ...

    @property
    def hp(self) -> int: ...

    @property
    def hp_max(self) -> int: ...

    @property
    def wounds(self) -> int: ...

    @property
    def wound_cap(self) -> int: ...

    @property
    def dying(self) -> bool: ...

    @property
    def dead(self) -> bool: ...

    @property
    def hit_dice(self) -> int: ...

    @property
    def hit_dice_max(self) -> int: ...

    @property
    def hit_die(self) -> int: ...  # the sides of a Hit Die

    @property
    def conditions(self) -> tuple[str, ...]: ...

    def attribute(self, name: str) -> HeroAttribute: ...  # an attribute not on the sheet reads as 0 and 0

    def has(self, condition: str) -> bool: ...
