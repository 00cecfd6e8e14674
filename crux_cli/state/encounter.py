"""Saving and resuming an encounter: a small TOML file, written like sheets are.

The file is written whole to a temporary file, fsynced and renamed over the old one,
under the same kind of sidecar lock as sheets, so a crash or a second crux never
leaves half a fight behind; it is readable by its owner alone, like the history.
Heroes' HP, Wounds and Grit stay on their sheets; the encounter file keeps the
ledger and where each hero's sheet is, relative to the encounter file itself, so a
fight resumed from another folder still writes to the same sheets.

A file edited by hand is checked field by field on `load` and refused with its
line and the reason, never half loaded.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields
from typing import Any

from crux_cli.core.errors import SheetError
from crux_cli.core.limits import MAX_INTEGER
from crux_cli.rulesets.crux.encounter import ENEMY_CONDITIONS, REACTIONS, TURN_ACTIONS, Combatant, Encounter
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.state.sheet import brief
from crux_cli.state.store import locked, read_text, resolve, write_atomically

FORMAT = 2  # 1: sheet paths relative to the folder crux ran in when saving; 2: relative to the file
WHAT = "encounter file"
HEADER = "# A crux encounter: resume it with `load FILE` in the REPL (`crux repl`). Written by crux; edit with care.\n"
SIDES = ("hero", "enemy")
ARMOURS = ("unarmoured", "medium", "heavy")
MAX_NAME = 200
MAX_PATH = 4096


def encounter_text(encounter: Encounter, sheets: dict[str, str]) -> str:
    """The encounter as TOML; `sheets` maps hero names to their sheet files (as they are to be stored)."""
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


def parse_encounter(text: str, shown: str) -> tuple[Encounter, dict[str, str], int]:
    """The encounter, its heroes' sheet files (as written) and the file's format, or a refusal with line and reason."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SheetError(f"not a valid encounter file: {error}", path=shown) from None
    except (ValueError, RecursionError):
        raise SheetError("not a valid encounter file: a number too long or lists nested too deeply",
                         path=shown) from None
    return _EncounterReader(text, shown).encounter(data)


@dataclass
class _EncounterReader:
    """Checks every field of a parsed encounter file, failing at the line of the first one that is wrong."""

    text: str
    path: str

    def fail(self, reason: str, line: int | None, hint: str | None = None) -> SheetError:
        return SheetError(reason, path=self.path, line=line,
                          hint=hint or "fix that line, or save the fight again from the REPL")

    def encounter(self, data: dict[str, Any]) -> tuple[Encounter, dict[str, str], int]:
        unknown = sorted(set(data) - {"format", "round", "turn", "combatant"})
        if unknown:
            raise self.fail(f"unknown key `{unknown[0]}` at the top of the file", top_line(self.text, unknown[0]))
        if data.get("format") not in (1, FORMAT) or isinstance(data.get("format"), bool):
            raise self.fail(f"not a crux encounter file (no `format = {FORMAT}`)", top_line(self.text, "format"))
        entries = data.get("combatant", [])
        if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
            raise self.fail("`combatant` must be a list of [[combatant]] tables", top_line(self.text, "combatant"))
        combatants: list[Combatant] = []
        sheets: dict[str, str] = {}
        for index, entry in enumerate(entries):
            combatant, sheet = self.combatant(index, entry)
            if any(c.name.lower() == combatant.name.lower() for c in combatants):
                raise self.fail(f"two combatants are named {combatant.name!r}", self.line(index, "name"),
                                hint="each combatant needs a name of its own")
            combatants.append(combatant)
            if sheet is not None:
                sheets[combatant.name] = sheet
        round_ = self.integer(data, "round", 0, MAX_INTEGER, top_line(self.text, "round"))
        turn = self.integer(data, "turn", 0, MAX_INTEGER, top_line(self.text, "turn"))
        if combatants and turn >= len(combatants):
            raise self.fail(f"turn {turn} is not a combatant's (there are {len(combatants)})",
                            top_line(self.text, "turn"))
        return Encounter(tuple(combatants), round_, turn), sheets, data["format"]

    def combatant(self, index: int, entry: dict[str, Any]) -> tuple[Combatant, str | None]:
        known = {f.name for f in fields(Combatant)} | {"sheet"}
        unknown = sorted(set(entry) - known)
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r} in a combatant", self.line(index, unknown[0]))
        for required in ("name", "side"):
            if required not in entry:
                raise self.fail(f"a combatant has no `{required}`", self.line(index))
        at = lambda key: self.line(index, key)  # noqa: E731 - a local shorthand
        name = self.text_field(entry, "name", at("name"), MAX_NAME)
        side = self.choice(entry, "side", SIDES, at("side"))
        hp_max = self.integer(entry, "hp_max", 0, MAX_INTEGER, at("hp_max"))
        combatant = Combatant(
            name=name, side=side,
            hp=self.integer(entry, "hp", 0, hp_max, at("hp")), hp_max=hp_max,
            armour=self.choice(entry, "armour", ARMOURS, at("armour")),
            resist=self.flag(entry, "resist", at("resist")), vuln=self.flag(entry, "vuln", at("vuln")),
            minions=self.integer(entry, "minions", 0, MAX_INTEGER, at("minions")),
            attack=self.attack(entry, at("attack")),
            opening=self.integer(entry, "opening", 0, TURN_ACTIONS, at("opening")),
            actions=self.integer(entry, "actions", 0, TURN_ACTIONS, at("actions")),
            attacks=self.integer(entry, "attacks", 0, TURN_ACTIONS, at("attacks")),
            reactions=self.reactions(entry, at("reactions")),
            helped=self.integer(entry, "helped", 0, MAX_INTEGER, at("helped")),
            dazed=self.flag(entry, "dazed", at("dazed")), dying=self.flag(entry, "dying", at("dying")),
            down=self.flag(entry, "down", at("down")),
            conditions=self.conditions(entry, at("conditions")),
            crits=self.flag(entry, "crits", at("crits"), default=True),
            grit=self.integer(entry, "grit", -1, GRIT_MAX, at("grit"), default=-1),
            dealt=self.integer(entry, "dealt", 0, MAX_INTEGER, at("dealt")),
            taken=self.integer(entry, "taken", 0, MAX_INTEGER, at("taken")),
        )
        if "sheet" in entry and side != "hero":
            raise self.fail("only a hero has a sheet", at("sheet"))
        sheet = self.text_field(entry, "sheet", at("sheet"), MAX_PATH) if "sheet" in entry else None
        return combatant, sheet

    def line(self, index: int, key: str | None = None) -> int | None:
        return combatant_line(self.text, index, key)

    def integer(self, table: dict[str, Any], key: str, low: int, high: int, line: int | None,
                default: int | None = None) -> int:
        value = table.get(key, low if default is None else default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"`{key}` must be a whole number, not {brief(value)}", line)
        if not low <= value <= high:
            raise self.fail(f"`{key}` is {value}; it must be from {low} to {high}", line)
        return value

    def flag(self, table: dict[str, Any], key: str, line: int | None, default: bool = False) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"`{key}` must be true or false, not {brief(value)}", line)
        return value

    def text_field(self, table: dict[str, Any], key: str, line: int | None, longest: int) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip() or CONTROL.search(value) or len(value) > longest:
            raise self.fail(f"`{key}` must be a text in quotes (1 to {longest} characters, no control "
                            f"characters), not {brief(value)}", line)
        return value if key == "sheet" else value.strip()

    def choice(self, table: dict[str, Any], key: str, allowed: tuple[str, ...], line: int | None) -> str:
        value = table.get(key, allowed[0])
        if value not in allowed:
            raise self.fail(f"`{key}` must be one of {', '.join(allowed)}, not {brief(value)}", line)
        return value

    def attack(self, table: dict[str, Any], line: int | None) -> str:
        value = table.get("attack", "")
        if not isinstance(value, str) or len(value) > 100 or re.search(r"[\s\x00-\x1f\x7f]", value):
            raise self.fail(f"`attack` must be dice in quotes, like \"d6+1\", not {brief(value)}", line)
        return value

    def conditions(self, table: dict[str, Any], line: int | None) -> tuple[str, ...]:
        value = table.get("conditions", [])
        if not isinstance(value, list) or any(c not in ENEMY_CONDITIONS for c in value) \
                or len(set(value)) != len(value):
            raise self.fail(f"`conditions` must list each of {', '.join(ENEMY_CONDITIONS)} at most once, "
                            f"not {brief(value)}", line)
        return tuple(value)

    def reactions(self, table: dict[str, Any], line: int | None) -> tuple[str, ...]:
        value = table.get("reactions", [])
        if not isinstance(value, list) or any(kind not in REACTIONS for kind in value) \
                or len(set(value)) != len(value):
            raise self.fail(f"`reactions` must list each of {', '.join(REACTIONS)} at most once, "
                            f"not {brief(value)}", line)
        return tuple(value)


CONTROL = re.compile(r"[\x00-\x1f\x7f\x80-\x9f\u2028\u2029]")
TOP_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*=")
HEADER_LINE = re.compile(r"^\s*\[")
COMBATANT_HEADER = re.compile(r"^\s*\[\[\s*combatant\s*\]\]")


def top_line(text: str, key: str) -> int | None:
    """The line of a key at the top of the file (before the first table)."""
    for number, line in enumerate(text.splitlines(), 1):
        if HEADER_LINE.match(line):  # past the top: only a table of that name is left to point at
            return number if re.match(rf"\s*\[\[?\s*{re.escape(key)}\s*\]", line) else None
        match = TOP_KEY.match(line)
        if match and match.group(1).strip("\"'") == key:
            return number
    return None


def combatant_line(text: str, index: int, key: str | None = None) -> int | None:
    """The line of `key` in the `index`-th [[combatant]] table (its header when the key is not written)."""
    seen, header = -1, None
    for number, line in enumerate(text.splitlines(), 1):
        if HEADER_LINE.match(line):
            if header is not None:
                break
            if COMBATANT_HEADER.match(line):
                seen += 1
                header = number if seen == index else None
            continue
        match = TOP_KEY.match(line)
        if header is not None and key is not None and match and match.group(1).strip("\"'") == key:
            return number
    return header


def stored_path(sheet: str, folder: str) -> str:
    """A hero's sheet as the encounter file keeps it: relative to the file's folder."""
    full = os.path.abspath(os.path.expanduser(sheet))
    real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    return os.path.relpath(real, folder)


def save_encounter(path: str | os.PathLike[str], encounter: Encounter, sheets: dict[str, str]) -> None:
    """Write the encounter to `path` (made private to the user); `sheets` are paths from the current folder."""
    target, shown = resolve(path), os.fspath(path)
    stored = {name: stored_path(sheet, str(target.parent)) for name, sheet in sheets.items()}
    with locked(target, shown, WHAT):
        write_atomically(target, encounter_text(encounter, stored), shown, what=WHAT, new_mode=0o600)


def load_encounter(path: str | os.PathLike[str]) -> tuple[Encounter, dict[str, str]]:
    """The encounter at `path`, and its heroes' sheet files as paths usable from the current folder."""
    target, shown = resolve(path), os.fspath(path)
    encounter, sheets, version = parse_encounter(read_text(target, shown, WHAT), shown)
    if version == 1:  # saved by an older crux: relative to the folder it ran in
        return encounter, sheets
    return encounter, {name: os.path.join(target.parent, os.path.expanduser(sheet)) for name, sheet in sheets.items()}
