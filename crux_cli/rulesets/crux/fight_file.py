"""The Crux fight file (an encounter file): a `FightState` as a small TOML text and back, for the fight
facet's `dump` and `load` (state.encounter writes and reads the file, atomically and under its lock).

A hero on a sheet keeps HP, Wounds and Grit there; the encounter file keeps the
ledger and where each hero's sheet is, relative to the encounter file itself, so a
fight resumed from another folder still writes to the same sheets. A hero added by
name alone has no sheet: their values (HP, Wounds, Dying, conditions, Grit, Hit
Dice) are kept in the file, in the hero's `held` table. So are who fell and
whether the fight was won, for the summary.

Reading is linear in the file: the lines of its keys are found in one pass, and a
file with more than `MAX_COMBATANTS` combatants is refused before any is read.

A file edited by hand is checked field by field on `load` and refused with its
line and the reason, never half loaded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.core.limits import MAX_INTEGER
from crux_cli.rulesets.crux.encounter import (
    ENEMY_CONDITIONS,
    MAX_COMBATANTS,
    REACTIONS,
    TURN_ACTIONS,
    Combatant,
    Encounter,
)
from crux_cli.rulesets.crux.engine import GRIT_MAX
from crux_cli.rulesets.crux.fight_state import FightState, frozen_map
from crux_cli.rulesets.crux.fight_summary import FORMAT, FORMATS
from crux_cli.rulesets.crux.hero import CONDITIONS, WOUND_CAP, Hero
from crux_cli.rulesets.crux.sheet_file import brief

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightValue

WHAT = "encounter file"
HEADER = "# A crux encounter: resume it with `load FILE` in the REPL (`crux repl`). Written by crux; edit with care.\n"
SIDES = ("hero", "enemy")
ARMOURS = ("unarmoured", "medium", "heavy")
MAX_NAME = 200
MAX_PATH = 4096
# A hero's values kept in the file when no sheet keeps them (the fields crux changes, and their limits).
HELD = ("hp", "hp_max", "wounds", "wound_cap", "dying", "dead", "grit", "hit_dice", "hit_dice_max", "conditions")
# Ledger fields only an enemy uses: left out of a hero's table while they hold their default.
ENEMY_ONLY = ("hp", "hp_max", "armour", "resist", "vuln", "minions", "attack", "conditions", "crits", "grit")
# Ledger fields left out of every table while they hold their default (Defend and Interpose waiting, the
# actions Dying's cap took this turn).
WHILE_SET = ("interposer", "defended", "capped")


def encounter_text(fight: Encounter | FightState, sheets: dict[str, str]) -> str:
    """The fight as TOML; `sheets` maps hero names to their sheet files (as they are to be stored).

    Given a whole `FightState`, its held heroes, fallen and `over` are written too (its own `sheets`
    are replaced by `sheets`, which say how the paths are stored); a bare ledger has none.
    """
    import tomlkit

    state = fight if isinstance(fight, FightState) else FightState(fight)
    encounter = state.encounter
    document = tomlkit.document()
    document.add("format", FORMAT)
    document.add("round", encounter.round)
    document.add("turn", encounter.turn)
    if state.fallen:
        document.add("fallen", list(state.fallen))
    if state.over:
        document.add("over", True)
    table = tomlkit.aot()
    defaults = Combatant("", "hero")
    for combatant in encounter.combatants:
        entry = {name: _plain(getattr(combatant, name)) for name in Combatant.field_names()
                 if not (((combatant.side == "hero" and name in ENEMY_ONLY) or name in WHILE_SET)
                         and getattr(combatant, name) == getattr(defaults, name))}
        if combatant.name in sheets:
            entry["sheet"] = sheets[combatant.name]
        elif combatant.name in state.heroes:
            held = tomlkit.inline_table()
            held.update({name: _plain(getattr(state.heroes[combatant.name], name)) for name in HELD})
            entry["held"] = held
        table.append(tomlkit.item(entry))
    document.add("combatant", table)
    return HEADER + tomlkit.dumps(document)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def parse_fight(text: str, shown: str) -> tuple[FightState, int]:
    """The whole fight (sheet files as written) and the file's format, or a refusal with line and reason."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SheetError(f"not a valid encounter file: {error}", path=shown) from None
    except (ValueError, RecursionError):
        raise SheetError("not a valid encounter file: a number too long or lists nested too deeply",
                         path=shown) from None
    return _EncounterReader(text, shown).fight(data)


@dataclass
class _EncounterReader:
    """Checks every field of a parsed encounter file, failing at the line of the first one that is wrong."""

    text: str
    path: str

    def __post_init__(self) -> None:
        self.lines = KeyLines(self.text)

    def fail(self, reason: str, line: int | None, hint: str | None = None) -> SheetError:
        return SheetError(reason, path=self.path, line=line,
                          hint=hint or "fix that line, or save the fight again from the REPL")

    def fight(self, data: dict[str, Any]) -> tuple[FightState, int]:
        top = self.lines.top
        unknown = sorted(set(data) - {"format", "round", "turn", "combatant", "fallen", "over"})
        if unknown:
            raise self.fail(f"unknown key `{unknown[0]}` at the top of the file", top(unknown[0]))
        if data.get("format") not in FORMATS or isinstance(data.get("format"), bool):
            raise self.fail(f"not a crux encounter file (no `format = {FORMAT}`)", top("format"))
        entries = data.get("combatant", [])
        if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
            raise self.fail("`combatant` must be a list of [[combatant]] tables", top("combatant"))
        if len(entries) > MAX_COMBATANTS:
            raise self.fail(f"{len(entries):,} combatants is more than {MAX_COMBATANTS} (the limit of a fight)",
                            top("combatant"), hint="split the fight, or make a crowd one minion group")
        combatants: list[Combatant] = []
        sheets: dict[str, str] = {}
        heroes: dict[str, Hero] = {}
        seen: set[str] = set()
        for index, entry in enumerate(entries):
            combatant, sheet, held = self.combatant(index, entry)
            if combatant.name.lower() in seen:
                raise self.fail(f"two combatants are named {combatant.name!r}", self.line(index, "name"),
                                hint="each combatant needs a name of its own")
            seen.add(combatant.name.lower())
            combatants.append(combatant)
            if sheet is not None:
                sheets[combatant.name] = sheet
            if held is not None:
                heroes[combatant.name] = held
        round_ = self.integer(data, "round", 0, MAX_INTEGER, top("round"))
        turn = self.integer(data, "turn", 0, MAX_INTEGER, top("turn"))
        if combatants and turn >= len(combatants):
            raise self.fail(f"turn {turn} is not a combatant's (there are {len(combatants)})", top("turn"))
        state = FightState(Encounter(tuple(combatants), round_, turn), frozen_map(sheets), frozen_map(heroes),
                           self.fallen(data, top("fallen")), self.flag(data, "over", top("over")))
        return state, data["format"]

    def fallen(self, data: dict[str, Any], line: int | None) -> tuple[str, ...]:
        value = data.get("fallen", [])
        if not isinstance(value, list) or len(value) > 2 * MAX_COMBATANTS or not all(
                isinstance(name, str) and name.strip() and len(name) <= MAX_NAME and not CONTROL.search(name)
                for name in value):
            raise self.fail(f"`fallen` must list the names of who fell, not {brief(value)}", line)
        return tuple(name.strip() for name in value)

    def combatant(self, index: int, entry: dict[str, Any]) -> tuple[Combatant, str | None, Hero | None]:
        known = {*Combatant.field_names(), "sheet", "held"}
        unknown = sorted(set(entry) - known)
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r} in a combatant", self.line(index, unknown[0]))
        for required in ("name", "side"):
            if required not in entry:
                raise self.fail(f"a combatant has no `{required}`", self.line(index))
        combatant = self.fields(index, entry)
        name, side = combatant.name, combatant.side

        def at(key: str) -> int | None:  # a local shorthand: the line of this combatant's key
            return self.line(index, key)

        if "sheet" in entry and side != "hero":
            raise self.fail("only a hero has a sheet", at("sheet"))
        sheet = self.text_field(entry, "sheet", at("sheet"), MAX_PATH) if "sheet" in entry else None
        held = self.held(name, entry["held"], at("held")) if "held" in entry else None
        if held is not None and (side != "hero" or sheet is not None):
            raise self.fail("only a hero without a sheet has `held` values", at("held"),
                            hint="a hero on a sheet keeps their values there")
        return combatant, sheet, held

    def fields(self, index: int, entry: dict[str, Any]) -> Combatant:
        """A combatant's own fields, each checked at its line."""
        def at(key: str) -> int | None:  # a local shorthand: the line of this combatant's key
            return self.line(index, key)

        name = self.text_field(entry, "name", at("name"), MAX_NAME)  # checked in the file's order of old
        side = self.choice(entry, "side", SIDES, at("side"))
        hp_max = self.integer(entry, "hp_max", 0, MAX_INTEGER, at("hp_max"))
        return Combatant(
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
            interposer=self.text_field(entry, "interposer", at("interposer"), MAX_NAME)
            if entry.get("interposer", "") != "" else "",
            defended=self.integer(entry, "defended", 0, MAX_INTEGER, at("defended")),
            capped=self.integer(entry, "capped", 0, TURN_ACTIONS, at("capped")),
        )

    def held(self, name: str, table: Any, line: int | None) -> Hero:
        """A hero held in memory, from their values in the file (each checked as a sheet's would be)."""
        if not isinstance(table, dict):
            raise self.fail(f"`held` must be a table of a hero's values, not {brief(table)}", line)
        unknown = sorted(set(table) - set(HELD))
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r} in `held`", line)
        hp_max = self.integer(table, "hp_max", 1, MAX_INTEGER, line, default=Hero.hp_max)
        wound_cap = self.integer(table, "wound_cap", 1, WOUND_CAP, line, default=WOUND_CAP)
        dice_max = self.integer(table, "hit_dice_max", 0, MAX_INTEGER, line, default=Hero.hit_dice_max)
        conditions = table.get("conditions", [])
        if not isinstance(conditions, list) or any(c not in CONDITIONS for c in conditions) \
                or len(set(conditions)) != len(conditions):
            raise self.fail(f"`conditions` must list each of {', '.join(CONDITIONS)} at most once, "
                            f"not {brief(conditions)}", line)
        return Hero(name=name, hp=self.integer(table, "hp", 0, hp_max, line, default=hp_max), hp_max=hp_max,
                    wounds=self.integer(table, "wounds", 0, wound_cap, line), wound_cap=wound_cap,
                    dying=self.flag(table, "dying", line), dead=self.flag(table, "dead", line),
                    grit=self.integer(table, "grit", 0, GRIT_MAX, line),
                    hit_dice=self.integer(table, "hit_dice", 0, dice_max, line, default=dice_max),
                    hit_dice_max=dice_max, conditions=tuple(conditions))

    def line(self, index: int, key: str | None = None) -> int | None:
        return self.lines.combatant(index, key)

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
        value: str = table.get(key, allowed[0])  # checked against `allowed` next
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


class KeyLines:
    """Where each key of an encounter file is written, found in one pass over its lines.

    A refusal names the line of the field it refuses; looking each one up afresh would read the
    file once per field, which made a file of a few hundred combatants take seconds.
    """

    def __init__(self, text: str) -> None:
        self.top_keys: dict[str, int] = {}
        self.first_table: tuple[int, str] | None = None  # the first [table] header: its line and its text
        self.tables: list[tuple[int, dict[str, int]]] = []  # each [[combatant]]: its header, its keys' lines
        keys: dict[str, int] | None = None
        for number, line in enumerate(text.splitlines(), 1):
            if HEADER_LINE.match(line):
                if self.first_table is None:
                    self.first_table = (number, line)
                keys = None
                if COMBATANT_HEADER.match(line):
                    keys = {}
                    self.tables.append((number, keys))
                continue
            match = TOP_KEY.match(line)
            if match is None:
                continue
            key = match.group(1).strip("\"'")
            if self.first_table is None:
                self.top_keys.setdefault(key, number)
            elif keys is not None:
                keys.setdefault(key, number)

    def top(self, key: str) -> int | None:
        """The line of a key at the top of the file (before the first table), or of a table of that name."""
        if key in self.top_keys:
            return self.top_keys[key]
        if self.first_table is not None and re.match(rf"\s*\[\[?\s*{re.escape(key)}\s*\]", self.first_table[1]):
            return self.first_table[0]
        return None

    def combatant(self, index: int, key: str | None = None) -> int | None:
        """The line of `key` in the `index`-th [[combatant]] table (its header when the key is not written)."""
        if index >= len(self.tables):
            return None
        header, keys = self.tables[index]
        return keys.get(key, header) if key is not None else header


def dump(fight: FightValue, sheets: Mapping[str, str]) -> str:
    """The whole fight as the text of its file, its heroes' sheets as `sheets` says they are stored."""
    if not isinstance(fight, FightState):  # the fight words give no other value (rulesets/crux/fight_words.py)
        raise CruxError(f"not a Crux fight: {type(fight).__name__}")
    return encounter_text(fight, dict(sheets))


def load(text: str, path: str, folder: str) -> FightState:
    """The whole fight in the text of the file `path`, in the folder `folder`, its heroes' sheet files as paths
    usable from the current folder; a refusal with line and reason when it is not a fight crux would save."""
    fight, version = parse_fight(text, path)
    if version == 1:  # saved by an older crux: relative to the folder it ran in
        return fight
    return fight.replace(sheets=frozen_map({name: os.path.join(folder, os.path.expanduser(sheet))
                                            for name, sheet in fight.sheets.items()}))
