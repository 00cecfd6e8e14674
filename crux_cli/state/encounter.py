"""Saving and resuming an encounter: a small TOML file, written like sheets are.

The file is written whole to a temporary file, fsynced and renamed over the old one,
under the same kind of sidecar lock as sheets, so a crash or a second crux never
leaves half a fight behind. Heroes' HP, Wounds and Grit stay on their sheets; the
encounter file keeps the ledger and where each hero's sheet is.
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import Any

from crux_cli.core.errors import SheetError
from crux_cli.rulesets.crux.encounter import Combatant, Encounter
from crux_cli.state.store import locked, read_text, resolve, write_atomically

FORMAT = 1
HEADER = "# A crux encounter: resume it with `load FILE` in the REPL (`crux repl`). Written by crux; edit with care.\n"


def encounter_text(encounter: Encounter, sheets: dict[str, str]) -> str:
    """The encounter as TOML; `sheets` maps hero names to their sheet files."""
    import tomlkit

    document = tomlkit.document()
    document.add("format", FORMAT)
    document.add("round", encounter.round)
    document.add("turn", encounter.turn)
    table = tomlkit.aot()
    for combatant in encounter.combatants:
        entry = {f.name: _plain(getattr(combatant, f.name)) for f in fields(Combatant)}
        if combatant.name in sheets:
            entry["sheet"] = sheets[combatant.name]
        table.append(tomlkit.item(entry))
    document.add("combatant", table)
    return HEADER + tomlkit.dumps(document)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def parse_encounter(text: str, shown: str) -> tuple[Encounter, dict[str, str]]:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SheetError(f"not a valid encounter file: {error}", path=shown) from None
    if data.get("format") != FORMAT:
        raise SheetError("not a crux encounter file (no `format = 1`)", path=shown)
    combatants, sheets = [], {}
    names = {f.name for f in fields(Combatant)}
    for entry in data.get("combatant", []):
        if "sheet" in entry:
            sheets[entry["name"]] = entry.pop("sheet")
        unknown = set(entry) - names
        if unknown:
            raise SheetError(f"unknown key {sorted(unknown)[0]!r} in a combatant", path=shown)
        try:
            combatants.append(Combatant(**{k: tuple(v) if isinstance(v, list) else v for k, v in entry.items()}))
        except TypeError as error:
            raise SheetError(f"a combatant is incomplete: {error}", path=shown) from None
    encounter = Encounter(tuple(combatants), int(data.get("round", 0)), int(data.get("turn", 0)))
    if encounter.combatants and not 0 <= encounter.turn < len(encounter.combatants):
        raise SheetError(f"turn {encounter.turn} is not a combatant's", path=shown)
    return encounter, sheets


def save_encounter(path: str | os.PathLike[str], encounter: Encounter, sheets: dict[str, str]) -> None:
    target, shown = resolve(path), os.fspath(path)
    with locked(target, shown):
        write_atomically(target, encounter_text(encounter, sheets), shown)


def load_encounter(path: str | os.PathLike[str]) -> tuple[Encounter, dict[str, str]]:
    shown = os.fspath(path)
    return parse_encounter(read_text(resolve(path), shown), shown)
