"""The hero the library gives (`new_hero`, `read_sheet`, `Session.hero`), as a type checker sees it, and the
functions that make, read and write one.

A structural type, so the library names no rule set's own classes (CONTRIBUTING.md): what crux-python(7) documents
of a hero on a crux sheet, the only built-in rule set that keeps one. At run time the value is that rule set's hero
(`crux_cli.Hero` is its class); tests/test_typed_client.py checks that it has every field here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, cast

from crux_cli.core.errors import CruxError, SheetError

if TYPE_CHECKING:
    from crux_cli.core.ruleset import SheetHero


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


def new_hero(name: str = "hero", *, attributes: Mapping[str, int | tuple[int, int]] | None = None,
             advantaged: str | None = None, disadvantaged: str | None = None, attack: str = "d6",
             attack_attribute: str | None = None, hp: int = 10, hit_dice: int = 1, hit_die: str = "d8",
             wound_cap: int = 6, grit: int = 0) -> Hero:
    """A hero held in memory, as `crux sheet new` would write it, checked as a sheet file is.

    `attributes` maps an attribute to its modifier, or to (modifier, Boon/Bane rating):
    `{"DEX": (2, 1), "STR": -1}`; the others are 0. Dice are written as on a sheet (`"d8"`, `"2d6"`).
    A value that breaks a rule raises SheetError naming the argument as the caller wrote it (`hp=-3`).
    """
    sheet = SheetText()
    sheet.add("name", name, "name")
    sheet.lines.append("[attributes]")
    for attribute, value in checked_attributes(attributes).items():
        modifier, rating = value if isinstance(value, tuple) else (value, 0)
        sheet.lines.append(f"{quoted(attribute)} = {{ modifier = {quoted(modifier)}, rating = {quoted(rating)} }}")
        sheet.arguments[len(sheet.lines)] = ("attributes", {attribute: value}, attribute)
    rows: tuple[str | tuple[str, object, str], ...] = (
        "[saves]", ("advantaged", advantaged or "", "advantaged"),
        ("disadvantaged", disadvantaged or "", "disadvantaged"), "[attack]",
        ("die", attack, "attack"), ("attribute", attack_attribute or "", "attack_attribute"),
        "[status]", ("grit", grit, "grit"), ("hp", hp, "hp"), ("hp_max", hp, "hp"),
        ("hit_dice", hit_dice, "hit_dice"), ("hit_dice_max", hit_dice, "hit_dice"),
        ("hit_die", hit_die, "hit_die"), ("wound_cap", wound_cap, "wound_cap"))
    for row in rows:
        if isinstance(row, str):
            sheet.lines.append(row)
        else:
            sheet.add(*row)
    try:
        return read_sheet("\n".join(sheet.lines) + "\n", "<new_hero>")
    except SheetError as error:
        raise sheet.argument_error(error) from None


class SheetText:
    """The sheet new_hero writes, line by line, and which of the caller's arguments each line holds."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.arguments: dict[int, tuple[str, object, str]] = {}  # line -> (argument, its value, the sheet's key)

    def add(self, key: str, value: object, argument: str) -> None:
        """`key = value`; a value neither text nor a whole number, as the argument takes, refused plainly."""
        number = key not in ("name", "advantaged", "disadvantaged", "die", "attribute", "hit_die")
        if not (whole(value) if number else isinstance(value, str)):
            raise SheetError(f"new_hero's {argument} must be {'a whole number' if number else 'text'}, "
                             f"not {type(value).__name__} {value!r}")
        self.lines.append(f"{key} = {quoted(value)}")
        self.arguments[len(self.lines)] = (argument, value, key)

    def argument_error(self, error: SheetError) -> SheetError:
        """The sheet's refusal of a line said of the caller's argument: no file, no line, no key of the sheet the
        caller never wrote (`hp_max`)."""
        reason = error.message.removeprefix(f"{error.path}:{error.line}: ").removeprefix(f"{error.path}: ")
        if error.line not in self.arguments:
            return SheetError(f"new_hero: {reason}", hint=error.hint)
        argument, value, key = self.arguments[error.line]
        if key != argument and argument != "attributes":
            reason = reason.replace(f"`{key}`", f"`{argument}`")
        return SheetError(f"new_hero({argument}={value!r}): {reason}",
                          hint="give new_hero a value the rules of a sheet allow")


def quoted(value: object) -> str:
    """A value as TOML writes it: a string quoted, a number or a bool as itself."""
    import json

    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value).lower()


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def modifiers(value: object) -> bool:
    """A modifier, or a pair (modifier, Boon/Bane rating), of whole numbers."""
    return whole(value) or (isinstance(value, tuple) and len(value) == 2 and all(whole(n) for n in value))


def checked_attributes(attributes: object) -> Mapping[str, int | tuple[int, int]]:
    if attributes is None:
        return {}
    if not isinstance(attributes, Mapping) or not all(isinstance(name, str) and modifiers(value)
                                                      for name, value in attributes.items()):
        raise SheetError(f"new_hero's attributes must map names to modifiers, not {attributes!r}",
                         hint='attributes={"DEX": (2, 1), "STR": -1}: a modifier, or (modifier, Boon/Bane rating)')
    return attributes


def read_sheet(text: str, path: str = "<sheet>") -> Hero:
    """A hero from a sheet's TOML text, checked as `crux --sheet` checks a file (SheetError names the line)."""
    from crux_cli.state.sheet import parse_sheet

    if not isinstance(text, str) or not isinstance(path, str):
        raise CruxError(f"read_sheet takes the sheet's text as a string, not {type(text).__name__}",
                        hint="read_sheet(Path('wren.toml').read_text())")
    return cast("Hero", parse_sheet(text, path))


def write_sheet(path: str | os.PathLike[str], hero: SheetHero) -> None:
    """Write `hero` to a new, commented sheet file, as `crux sheet new` does; an existing file is never replaced."""
    from crux_cli.state.sheet import new_sheet_text
    from crux_cli.state.store import create_sheet

    if not isinstance(path, str | os.PathLike) or not hasattr(hero, "rules"):
        raise CruxError("write_sheet takes a path (a string or a Path) and a hero (from new_hero or read_sheet)")
    create_sheet(path, new_sheet_text(hero))
