"""The Crux sheet file (`SHEET_FILE`, the sheet facet's `file`): a sheet's TOML ↔ `Hero`, refused with
file, line and reason.

The state layer reads the TOML (state.plain_toml, else tomllib: its syntax errors carry a line), picks
the rule set by the sheet's `rules`, and locks, caches and writes the file; this module makes the hero
of the tables it read, and the text that keeps a changed hero. Writing back uses `tomlkit`, imported
only when a sheet actually changes, so the user's comments, order and spacing survive. Only the values
crux keeps by itself (Grit, HP, Wounds, Dying, Hit Dice, conditions) are ever written back.

The sheet's shape (see `new_sheet_text` for the commented template):

    name = "Wren"
    rules = "crux"
    [attributes]            # ATTR = { modifier = M, rating = R }, rating -3..+3
    [saves]                 # advantaged = "WIL", disadvantaged = "STR"
    [attack]                # die = "d8", attribute = "DEX"
    [status]                # grit, hp, hp_max, wounds, wound_cap, dying, dead,
                            # hit_dice, hit_dice_max, hit_die, conditions
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from crux_cli.core.errors import SheetError
from crux_cli.core.grammar import Pattern
from crux_cli.core.limits import MAX_SIDES
from crux_cli.core.vocabulary import (
    ATTRIBUTES,
    MAX_HIT_DICE,
    MAX_HP,
    MAX_WOUND_CAP,
    MODIFIER_RANGE,
    RATING_RANGE,
    attribute_spec,
    canonical_attribute,
)
from crux_cli.rulesets.crux.hero import CONDITIONS, GRIT_MAX, WOUND_CAP, Attribute, Hero

TABLE_KEYS: dict[str, tuple[str, ...]] = {
    "": ("name", "rules", "attributes", "saves", "attack", "status"),
    "saves": ("advantaged", "disadvantaged"),
    "attack": ("die", "attribute"),
    "status": ("grit", "hp", "hp_max", "wounds", "wound_cap", "dying", "dead",
               "hit_dice", "hit_dice_max", "hit_die", "conditions"),
}
# Hero fields crux changes by itself, and where they live in the sheet.
WRITABLE = ("grit", "hp", "wounds", "dying", "dead", "hit_dice", "conditions")

DICE = re.compile(r"^\s*(\d{0,9})\s*d\s*(\d{1,9})\s*$", re.IGNORECASE)  # digits capped: int() has a limit


def brief(value: Any, width: int = 40) -> str:
    """`value` as the sheet would show it, cut short: an error never echoes a megabyte back."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


# --- reading -----------------------------------------------------------------------------------


class _SheetReader:
    """Turns parsed TOML into a `Hero`, failing at the line of the first key that breaks a rule."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path

    def fail(self, keys: tuple[str, ...], reason: str, hint: str | None = None) -> SheetError:
        hint = hint or "fix that line and try again: crux has left the sheet as it was"
        return SheetError(reason, path=self.path, line=key_line(self.text, keys), hint=hint)

    def hero(self, data: dict[str, Any]) -> Hero:
        self.known_keys(data, "")
        attack_count, attack_sides, attack_attribute = self.attack(self.table(data, "attack"))
        advantaged, disadvantaged = self.saves(self.table(data, "saves"))
        hero = Hero(
            name=self.text_value(data, ("name",), "hero"),
            rules=self.rules(data),
            attributes=self.attributes(self.table(data, "attributes")),
            advantaged_save=advantaged,
            disadvantaged_save=disadvantaged,
            attack_count=attack_count,
            attack_sides=attack_sides,
            attack_attribute=attack_attribute,
        )
        return self.status(self.table(data, "status"), hero)

    def table(self, data: dict[str, Any], name: str) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail((name,), f"`{name}` must be a table, like [{name}]")
        if name in TABLE_KEYS:
            self.known_keys(value, name)
        return value

    def known_keys(self, table: dict[str, Any], name: str) -> None:
        allowed = TABLE_KEYS[name]
        for key in table:
            if key not in allowed:
                where = f"in [{name}]" if name else "at the top of the sheet"
                keys = (name, key) if name else (key,)
                raise self.fail(keys, f"unknown key `{key}` {where}",
                                hint="known keys here: " + ", ".join(allowed))

    def text_value(self, table: dict[str, Any], keys: tuple[str, ...], default: str) -> str:
        value = table.get(keys[-1], default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(keys, f"`{keys[-1]}` must be a non-empty text in quotes")
        if not value.isprintable():  # a name is echoed in every answer: it must not forge lines or reach the terminal
            bad = next(ch for ch in value if not ch.isprintable())
            raise self.fail(keys, f"`{keys[-1]}` holds a control or invisible character (U+{ord(bad):04X})")
        return value.strip()

    def rules(self, data: dict[str, Any]) -> str:
        """The rule set the sheet names (that one is called so is the state layer's to check: state.store)."""
        return self.text_value(data, ("rules",), "crux").lower()

    def integer(self, table: Mapping[str, Any], keys: tuple[str, ...], default: int,
                low: int, high: int) -> int:
        value = table.get(keys[-1], default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(keys, f"`{keys[-1]}` must be a whole number, not {brief(value)}")
        if not low <= value <= high:
            raise self.fail(keys, f"`{keys[-1]}` is {brief(value)}; it must be from {low} to {high}")
        return value

    def flag(self, table: Mapping[str, Any], keys: tuple[str, ...]) -> bool:
        value = table.get(keys[-1], False)
        if not isinstance(value, bool):
            raise self.fail(keys, f"`{keys[-1]}` must be true or false, not {brief(value)}")
        return value

    def attribute_name(self, value: Any, keys: tuple[str, ...], optional: bool) -> str | None:
        if optional and value in (None, ""):
            return None
        name = canonical_attribute(value) if isinstance(value, str) else None
        if name is None:
            raise self.fail(keys, f"unknown attribute {brief(value)}", hint="attributes: " + ", ".join(ATTRIBUTES))
        return name

    def attributes(self, table: dict[str, Any]) -> dict[str, Attribute]:
        result = {name: Attribute() for name in ATTRIBUTES}
        seen: set[str] = set()
        for key, entry in table.items():
            name = self.attribute_name(key, ("attributes", key), optional=False)
            assert name is not None
            if name in seen:
                raise self.fail(("attributes", key), f"{name} is given twice")
            seen.add(name)
            if not isinstance(entry, dict):
                raise self.fail(("attributes", key),
                                f"{key} must be a table like {{ modifier = 1, rating = 0 }}")
            for field in entry:
                if field not in ("modifier", "rating"):
                    raise self.fail(("attributes", key, field), f"unknown key `{field}` for {name}",
                                    hint="each attribute has a `modifier` and a `rating`")
            keys = ("attributes", key)
            result[name] = Attribute(
                modifier=self.integer(entry, (*keys, "modifier"), 0, *MODIFIER_RANGE),
                rating=self.integer(entry, (*keys, "rating"), 0, *RATING_RANGE),
            )
        return result

    def saves(self, table: dict[str, Any]) -> tuple[str | None, str | None]:
        advantaged, disadvantaged = (
            self.attribute_name(table.get(key), ("saves", key), optional=True)
            for key in ("advantaged", "disadvantaged")
        )
        if advantaged and advantaged == disadvantaged:
            raise self.fail(("saves", "disadvantaged"),
                            f"{advantaged} cannot be both the advantaged and the disadvantaged save")
        return advantaged, disadvantaged

    def dice(self, value: Any, keys: tuple[str, ...], single: bool) -> tuple[int, int]:
        match = DICE.match(value) if isinstance(value, str) else None
        count = int(match.group(1) or 1) if match else 0
        sides = int(match.group(2)) if match else 0
        example = '"d8"' if single else '"d8" or "2d6"'
        if not match or not 2 <= sides <= MAX_SIDES or not 1 <= count <= (1 if single else 100):
            raise self.fail(keys, f"`{keys[-1]}` must be a die like {example}, not {brief(value)}")
        return count, sides

    def attack(self, table: dict[str, Any]) -> tuple[int, int, str | None]:
        count, sides = self.dice(table.get("die", "d6"), ("attack", "die"), single=False)
        attribute = self.attribute_name(table.get("attribute"), ("attack", "attribute"), optional=True)
        return count, sides, attribute

    def status(self, table: dict[str, Any], hero: Hero) -> Hero:
        def keys(key: str) -> tuple[str, str]:  # a local shorthand
            return ("status", key)

        hp_max = self.integer(table, keys("hp_max"), hero.hp_max, 1, MAX_HP)
        wound_cap = self.integer(table, keys("wound_cap"), WOUND_CAP, 1, MAX_WOUND_CAP)
        hit_dice_max = self.integer(table, keys("hit_dice_max"), hero.hit_dice_max, 0, MAX_HIT_DICE)
        return hero.with_changes(
            grit=self.integer(table, keys("grit"), 0, 0, GRIT_MAX),
            hp=self.integer(table, keys("hp"), hp_max, 0, hp_max),
            hp_max=hp_max,
            wounds=self.integer(table, keys("wounds"), 0, 0, wound_cap),
            wound_cap=wound_cap,
            dying=self.flag(table, keys("dying")),
            dead=self.flag(table, keys("dead")),
            hit_dice=self.integer(table, keys("hit_dice"), hit_dice_max, 0, hit_dice_max),
            hit_dice_max=hit_dice_max,
            hit_die=self.dice(table.get("hit_die", "d8"), keys("hit_die"), single=True)[1],
            conditions=self.conditions(table.get("conditions", [])),
        )

    def conditions(self, value: Any) -> tuple[str, ...]:
        keys = ("status", "conditions")
        if not isinstance(value, list):
            raise self.fail(keys, '`conditions` must be a list, like ["prone", "frightened"]')
        found: list[str] = []
        for item in value:
            name = item.strip().lower() if isinstance(item, str) else item
            if name == "dying":
                raise self.fail(keys, "Dying is kept apart from the other conditions",
                                hint="set `dying = true` in [status] instead")
            if name not in CONDITIONS:
                raise self.fail(keys, f"unknown condition {brief(item)}",
                                hint="conditions: " + ", ".join(CONDITIONS))
            if name not in found:
                found.append(name)
        return tuple(found)


# --- where a key is written ----------------------------------------------------------------------

# the patterns of errors and of writing a sheet back are compiled when first used (core.grammar `Pattern`): a
# roll on a sheet reads it, and compiling them cost the one-shot about 1.3 ms (tests/bench/bench_startup.py)
KEY = r"(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')"  # bare or quoted
HEADER = Pattern(r"^\s*\[\s*([^\[\]]+?)\s*\]")
ASSIGNMENT = Pattern(rf"^\s*({KEY}(?:\s*\.\s*{KEY})*)\s*=")
DOT_OUTSIDE_QUOTES = Pattern(r"\.(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)")


def dotted(keys: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in DOT_OUTSIDE_QUOTES.split(keys))


def key_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The line where `keys` (a path like ("status", "grit")) is written, or its nearest written parent.

    TOML parsers forget positions once parsing succeeds, so a rule broken by a
    value is traced back to the text here: table headers set the current table,
    `key = ...` lines extend it; an inline table `STR = { ... }` holds its keys.
    """
    table: tuple[str, ...] = ()
    nearest: tuple[int, int] | None = None  # (matched depth, line)
    for number, line in enumerate(text.splitlines(), 1):
        header = HEADER.match(line)
        if header and not line.lstrip().startswith("[["):
            table = dotted(header.group(1))
            full = table
        else:
            assignment = ASSIGNMENT.match(line)
            if not assignment:
                continue
            full = table + dotted(assignment.group(1))
        if full == keys:
            return number
        if full == keys[: len(full)] and (nearest is None or len(full) > nearest[0]):
            nearest = (len(full), number)
    return nearest[1] if nearest else None


# --- writing back --------------------------------------------------------------------------------


def update_sheet_text(text: str, before: Hero, after: Hero) -> str:
    """`text` with the values crux keeps (Grit, HP, ...) changed from `before` to `after`.

    Only the keys whose values changed are touched, so comments, order and
    spacing stay as the player wrote them; a key the sheet left out is added
    to [status].
    """
    changed = [name for name in WRITABLE if getattr(before, name) != getattr(after, name)]
    if not changed:
        return text
    quick = edited_in_place(text, changed, after)
    if quick is not None and checked(quick, changed, after):
        return quick
    return rewritten(text, changed, after)


def checked(text: str, changed: list[str], after: Hero) -> bool:
    """Does `text` hold the new values of `changed`?"""
    import tomllib

    try:
        status = tomllib.loads(text).get("status")
    except ValueError:
        return False
    return isinstance(status, dict) and all(status.get(name) == (list(value) if isinstance(value, tuple) else value)
                                            for name in changed for value in [getattr(after, name)])


def rewritten(text: str, changed: list[str], after: Hero) -> str:
    """`text` with the `changed` values of `after`, through tomlkit (which keeps comments and layout): only
    its [status] table when that is shown to read the same, else the whole sheet."""
    return updated_section(text, after, changed) or updated_document(text, after, changed)


def updated_document(text: str, after: Hero, changed: list[str]) -> str:
    """The whole sheet read with tomlkit, which keeps every comment and space, and its [status] changed."""
    import tomlkit  # only here: a roll that changes nothing never pays for it
    document = tomlkit.parse(text)
    if "status" not in document:
        document.add(tomlkit.nl())
        document.add("status", tomlkit.table())
    status = document["status"]
    for name in changed:
        value = getattr(after, name)
        current = status.get(name)
        if name == "conditions" and isinstance(current, list):
            update_list(current, value)
        else:
            status[name] = list(value) if name == "conditions" else value
    return tomlkit.dumps(document)


STATUS_HEADER = Pattern(r"[ \t]*\[[ \t]*status[ \t]*\][ \t]*(#.*)?\r?\n?")
ANY_HEADER = Pattern(r"[ \t]*\[")
NOTHING_SET = Pattern(r"[ \t]*(#.*)?\r?\n?")  # a blank or comment line


def set_aside_comments(lines: list[str]) -> tuple[str, dict[str, str]]:
    """The lines joined with each long run of comment and blank lines replaced by one marked comment line
    (tomlkit keeps a comment line as it is), and what each mark stands for."""
    out: list[str] = []
    kept: dict[str, str] = {}
    run: list[str] = []

    def close() -> None:
        text = "".join(run)
        if len(text) > 256 and text.endswith("\n"):
            mark = f"# crux-kept-{len(kept)}-{id(kept)}\n"
            kept[mark] = text
            out.append(mark)
        else:
            out.extend(run)
        run.clear()

    for index, line in enumerate(lines):
        if index and NOTHING_SET.fullmatch(line):
            run.append(line)
            continue
        close()
        out.append(line)
    close()
    return "".join(out), kept


def updated_section(text: str, after: Hero, changed: list[str]) -> str | None:
    """The sheet with only its [status] table read and written by tomlkit, or None when that cannot be
    shown to give what reading the whole sheet would (then `updated_document` does).

    tomlkit reads a character at a time: a sheet of 1 MB took 0.7 s to change one number, nearly
    all of it in the comments and notes it leaves as they are. The [status] table is the lines from
    its header to the next header; the result is checked with tomllib (12 ms for 1 MB): the sheet
    must read as it did, but for the changed values."""
    lines = text.splitlines(keepends=True)
    starts = [index for index, line in enumerate(lines) if STATUS_HEADER.fullmatch(line)]
    if len(starts) != 1:
        return None
    start = starts[0]
    end = next((index for index in range(start + 1, len(lines)) if ANY_HEADER.match(lines[index])), len(lines))
    while end > start + 1 and NOTHING_SET.fullmatch(lines[end - 1]):  # its trailing comments stay as they are
        end -= 1
    section, kept = set_aside_comments(lines[start:end])
    edited = updated_document(section, after, changed)
    for mark, run in kept.items():  # the comments set aside come back where they were, as they were
        if edited.count(mark) != 1:
            return None
        edited = edited.replace(mark, run)
    result = "".join(lines[:start]) + edited + "".join(lines[end:])
    import tomllib

    try:
        expected = tomllib.loads(text)
        status = expected.get("status")
        if not isinstance(status, dict):
            return None
        for name in changed:
            value = getattr(after, name)
            status[name] = list(value) if name == "conditions" else value
        return result if tomllib.loads(result) == expected else None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None


SCALAR_LINE = Pattern(r"^(\s*([A-Za-z_]+)\s*=\s*)(-?\d+|true|false)(?=\s*(?:#.*)?$)")
CONDITIONS_LINE = Pattern(r'^(\s*conditions\s*=\s*)\[((?:"[a-z]+"(?:, "[a-z]+")*)?)\](?=\s*(?:#.*)?$)')


def conditions_in_place(line: str, wanted: tuple[str, ...]) -> str | None:
    """A one-line `conditions = ["prone"]` with `wanted`, as tomlkit's `update_list` writes it (the names that
    stay keep their places, new ones go last; tests/test_sheet_conditions.py holds the two equal), else None:
    a condition changed from the command line then never imports tomlkit (80 M instructions, bench_startup.py)."""
    match = CONDITIONS_LINE.match(line)
    if match is None or not all(name.isascii() and name.isalpha() and name.islower() for name in wanted):
        return None
    current = match.group(2)[1:-1].split('", "') if match.group(2) else []
    if len(set(current)) != len(current):
        return None
    names = [name for name in current if name in wanted] + [name for name in wanted if name not in current]
    return match.group(1) + "[" + ", ".join(f'"{name}"' for name in names) + "]" + line[match.end():]


def edited_in_place(text: str, changed: list[str], after: Hero,
                    found: dict[str, int | None] | None = None) -> str | None:
    """`text` with each changed number or flag rewritten on its own `key = value` line (and a one-line list of
    conditions, `conditions_in_place`), else None.

    What tomlkit would write for a value already on the sheet, at a fraction of its cost: a batch that
    gains Grit rewrites the sheet often (tests/bench/bench_batch.py, sheet mix). Its callers read the result
    back, and it must hold exactly the new values; anything else (a list over lines or with comments, a
    missing key, an unusual layout) is left to tomlkit. `found` remembers the line of each key for the next
    edit of the text this returns (an edit in place moves no line: state.store `HeldRun`).
    """
    lines = text.split("\n")
    if not found and len(text.splitlines()) != len(lines) - text.endswith("\n"):  # key_line counts other breaks
        return None
    for name in changed:
        if found is None:
            number = key_line(text, ("status", name))
        elif name in found:
            number = found[name]
        else:
            number = found[name] = key_line(text, ("status", name))
        if name == "conditions":
            edited = None if number is None else conditions_in_place(lines[number - 1], after.conditions)
            if number is None or edited is None:
                return None
            lines[number - 1] = edited
            continue
        match = SCALAR_LINE.match(lines[number - 1]) if number is not None else None
        if match is None or match.group(2) != name:
            return None
        value = getattr(after, name)
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        line = lines[number - 1]  # type: ignore[operator]
        lines[number - 1] = match.group(1) + shown + line[match.end():]  # type: ignore[operator]
    return "\n".join(lines)


def update_list(items: list[Any], wanted: tuple[str, ...]) -> None:
    """Make the TOML array `items` hold `wanted`, in place: the comments on the items that stay are kept."""
    kept = []
    for index in reversed(range(len(items))):
        name = str(items[index]).strip().lower()
        if name in wanted:
            kept.append(name)
        else:
            del items[index]
    items.extend(name for name in wanted if name not in kept)


# --- new sheets ----------------------------------------------------------------------------------


def parse_attribute_spec(spec: str) -> tuple[str, Attribute]:
    """`STR=+2/1` → STR with modifier +2 and Boon/Bane rating +1 (`DEX=1` sets the modifier only)."""
    name, modifier, rating = attribute_spec(spec)
    return name, Attribute(modifier=modifier, rating=rating)


def _quoted(text: str | None) -> str:
    return json.dumps(text or "", ensure_ascii=False)


STATUS_COMMENTS = {
    "grit": "0-5: +1 when the kept die shows 1; spend 1 with `grit` to steady a roll",
    "wounds": "at 0 HP: +1 Wound and Dying; damage while Dying: +2 (+3 on a crit)",
    "wound_cap": "this many Wounds is death (lower it for a grittier game)",
    "hit_dice": "`rest field N` spends them for HP; `rest safe` restores them all",
    "conditions": "any of: " + ", ".join(CONDITIONS),
}


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def _commented(key: str, value: object, comment: str | None) -> str:
    line = f"{key} = {value}"
    return f"{line:<22}# {comment}" if comment else line


# long: one template, read top to bottom as the file it writes
def new_sheet_text(hero: Hero) -> str:
    """A commented sheet for `hero`, for `crux sheet new`; `parse_sheet` reads it back as `hero`."""
    attributes = "\n".join(
        f"{name} = {{ modifier = {_signed(hero.attribute(name).modifier)}, "
        f"rating = {_signed(hero.attribute(name).rating)} }}"
        for name in ATTRIBUTES
    )
    conditions = ", ".join(_quoted(c) for c in hero.conditions)
    attack_die = f"{hero.attack_count if hero.attack_count > 1 else ''}d{hero.attack_sides}"
    status = "\n".join(_commented(key, value, STATUS_COMMENTS.get(key)) for key, value in (
        ("grit", hero.grit), ("hp", hero.hp), ("hp_max", hero.hp_max), ("wounds", hero.wounds),
        ("wound_cap", hero.wound_cap), ("dying", str(hero.dying).lower()), ("dead", str(hero.dead).lower()),
        ("hit_dice", hero.hit_dice), ("hit_dice_max", hero.hit_dice_max), ("hit_die", f'"d{hero.hit_die}"'),
        ("conditions", f"[{conditions}]"),
    ))
    return f"""\
# A crux character sheet. Edit it by hand as you like: when crux writes it back
# (Grit, HP, Wounds, Hit Dice, conditions) it changes only those values and keeps
# your comments and layout. `crux --sheet FILE show` prints it; a sheet that breaks
# a rule is refused with the line and the reason, and never rewritten.

name = {_quoted(hero.name)}
rules = {_quoted(hero.rules)}        # the rule set this hero plays by

# Each attribute has a modifier (flat bonus: damage, `atk +STR`) and a Boon/Bane
# rating from -3 to +3 (Boons when positive, Banes when negative, on every test).
[attributes]
{attributes}

# Saves of the advantaged type start with +1 Boon, the disadvantaged with +1 Bane.
# Leave one empty ("") if the hero has none.
[saves]
advantaged = {_quoted(hero.advantaged_save)}
disadvantaged = {_quoted(hero.disadvantaged_save)}

# `atk` with no dice rolls this; the attribute's modifier is added to the damage.
[attack]
die = {_quoted(attack_die)}
attribute = {_quoted(hero.attack_attribute)}

# What crux keeps up to date as you play.
[status]
{status}
"""


# --- the facet -----------------------------------------------------------------------------------


class CruxSheetFile:
    """The Crux hero in a sheet file (`core.ruleset.SheetFile`): what state.store reads, writes and journals."""

    hero = Hero

    def read(self, data: dict[str, Any], text: str, path: str) -> Hero:
        return _SheetReader(text, path).hero(data)

    def write(self, text: str, before: Hero, after: Hero) -> str:
        return update_sheet_text(text, before, after)

    def edit(self, text: str, before: Hero, after: Hero, found: dict[str, int | None] | None = None) -> str | None:
        changed = [name for name in WRITABLE if getattr(before, name) != getattr(after, name)]
        return edited_in_place(text, changed, after, found) if changed else text

    def template(self, hero: Hero) -> str:
        return new_sheet_text(hero)

    def new(self, values: Mapping[str, Any]) -> Hero:
        """A hero of `Hero`'s fields, its attributes as {name: (modifier, rating)}, unchecked (as `crux sheet new`
        makes one: its sheet is checked when written and read back)."""
        given = values.get("attributes", {})
        return Hero(**{**values, "attributes": {name: Attribute(*given.get(name, (0, 0))) for name in ATTRIBUTES}})

    def kept(self, hero: Hero) -> dict[str, Any]:
        """The values crux keeps on a sheet (the ones it writes back), as JSON: made in C, but for the one tuple
        (`conditions`, last), four times a change in a batch on a sheet (PERFORMANCE.md, "A batch holds its sheet")."""
        values = dict(zip(WRITABLE, KEPT(hero), strict=True))
        conditions = values["conditions"]
        if conditions.__class__ is tuple:
            values["conditions"] = list(conditions)
        return values

    def with_kept(self, hero: Hero, values: Mapping[str, Any]) -> Hero:
        return hero.with_changes(**{name: tuple(value) if isinstance(value, list) else value
                                    for name, value in values.items()})

    def dump(self, hero: Hero) -> dict[str, Any]:
        """All of a hero, as JSON: what a roll on a sheet is replayed with (`load` reads it back)."""
        out = hero.as_dict()
        out["attributes"] = {name: [value.modifier, value.rating] for name, value in hero.attributes.items()}
        out["conditions"] = list(hero.conditions)
        return out

    def load(self, data: Mapping[str, Any]) -> Hero:
        """The hero `dump` wrote (anything else in `data` aside)."""
        values = {name: data[name] for name in Hero.field_names() if name in data}
        values["attributes"] = {name: Attribute(*pair) for name, pair in data.get("attributes", {}).items()}
        values["conditions"] = tuple(data.get("conditions", ()))
        return Hero(**values)


KEPT = attrgetter(*WRITABLE)  # all of them at once (C): a batch on a sheet asks at every change
SHEET_FILE = CruxSheetFile()
