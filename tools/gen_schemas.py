"""Write the JSON Schemas of crux's answers (crux_cli/data/schema/) from the one table below.

One schema per kind of answer: `roll.<rules>.<kind>.json` for what `crux --json STATEMENT` prints
(generic dice answer in every rule set: `roll.dice.json`, `roll.countdown.json`, `roll.target.json`,
`roll.opposed.json`, and random tables `roll.table.json`), `odds.json` for `crux odds --json` and
`odds …` in any line (one statement, or several compared), `error.json` for a refused statement; each has an
`$id`, and `index.json` maps each answer's `kind` to its schema (`x-crux-kinds`) and validates any answer.
crux(1), JSON OUTPUT, documents them; tests/test_schemas.py validates every answer of the docs, the
corpus and the golden batch against them, and fails when a file differs from a fresh generation:

    python tools/gen_schemas.py --update    # after changing a field of an answer
    python tools/gen_schemas.py --check     # exit 1 when a file is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crux_cli" / "data" / "schema"

INT, STR, BOOL, NUM = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}, {"type": "number"}
INTS, STRS = {"type": "array", "items": INT}, {"type": "array", "items": STR}


def null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def enum(*values: str) -> dict[str, Any]:
    return {"enum": list(values)}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None, *, description: str = "",
        closed: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = {**required, **(optional or {})}
    schema["required"] = list(required)
    if closed:
        schema["additionalProperties"] = False
    return schema


CHANGE = {"type": "array", "prefixItems": [{}, {}], "minItems": 2, "maxItems": 2,
          "description": "[before, after]"}
SHEET = obj({"path": STR, "name": STR, "changes": {"type": "object", "additionalProperties": CHANGE}},
            {"grit": INT, "hp": INT, "hp_max": INT, "wounds": INT, "wound_cap": INT, "dying": BOOL, "dead": BOOL,
             "hit_dice": INT, "conditions": STRS},
            description="The sheet a statement played on (--sheet): what changed, and its values after")
ENVELOPE_REQUIRED = {"input": {**STR, "description": "the statement as typed"},
                     "kind": {**STR, "description": "what the statement was"},
                     "rules": {**STR, "description": "the rule set it was read in"}}
ENVELOPE_OPTIONAL = {"line": {**INT, "minimum": 1, "description": "the input line, in a batch"},
                     "seed": {**INT, "description": "the --seed given"},
                     "comment": {**STR, "description": "the line's # comment"},
                     "index": {**INT, "minimum": 1, "description": "which answer of a repetition"},
                     "sheet": SHEET}

GRIT = obj({"spent": {**INT, "minimum": 0, "description": "Grit paid, marked or lost to damage"},
            "gained": {**INT, "minimum": 0, "description": "Grit earned or given back"}},
           {"before": INT, "after": INT, "net": INT,
            "options": {"type": "array", "items": obj({"mark": INT, "effect": STR})}},
           description="Grit, the same shape in every rule set")
SOURCES = {"type": "array", "items": obj({"what": STR, "net": INT})}
LABELS = obj({"position": null(STR), "effect": null(STR)})
OUTCOME = STR
POOL = {"attribute": null(STR), "net": INT, "keep": enum("highest", "lowest"), "dice": INTS, "kept": null(INT),
        "outcome": OUTCOME, "grit": GRIT, "sources": SOURCES}
STATE = {"events": STRS, "changes": {"type": "object", "additionalProperties": CHANGE}}
ROLL = obj({"die": STR, "face": INT})
STEP_SAVE = {"die": STR, "mode": enum("normal", "enhanced", "impaired"), "vs": {"type": ["integer", "string"]},
             "dice": INTS, "rolls": {"type": "array", "items": ROLL}, "kept": null(INT), "opposing": null(ROLL),
             "target": INT, "outcome": enum("win", "tie", "lose"), "automatic": BOOL}
CHALLENGE = {"rating": INT, "pool": INT, "zero_pool": BOOL, "dice": INTS, "kept": INT, "outcome": OUTCOME, "text": STR}
DIE = obj({"value": INT, "kept": BOOL},
          {"dropped": BOOL, "rerolled": BOOL, "exploded": BOOL, "added": BOOL, "parts": INTS, "success": BOOL})
DICE_TERM = obj({"notation": STR, "value": INT},
                {"dice": {"type": "array", "items": DIE}, "successes": {**INT, "minimum": 0}, "label": STR})
TERMS = {"type": "array", "items": DICE_TERM}
DICE_LABELS = {"type": "array", "items": obj({"label": STR, "notation": STR, "value": INT})}
GROUPS = {"type": "array", "description": "each grouped roll ({1d8, 1d10}kh1), min() and max(), in reading order",
          "items": obj({"notation": STR, "value": INT,
                        "items": {"type": "array", "items": obj({"notation": STR, "value": INT, "kept": BOOL})}})}
DICE = {"expression": STR, "total": INT, "terms": TERMS}
VERSUS_OPTIONAL = {"labels": DICE_LABELS, "groups": GROUPS}
AGAINST = obj(DICE, {"labels": DICE_LABELS}, description="the other side of an opposed roll, rolled")
# a table's roll; `nested` is the table its row led to, in the same shape (a reference: tables nest)
TABLE_ROLL = {"table": STR, "file": STR, "die": STR, "total": INT, "dice": TERMS,
              "row": obj({"roll": STR, "text": STR, "table": null(STR)}), "text": STR,
              "inline": {"type": "array", "items": obj({"notation": STR, "total": INT, "terms": TERMS})}}
TABLE_NESTED = {"nested": {"$ref": "#/$defs/table_step", "description": "the roll on the table the row led to"}}
TABLE_STEP = obj(TABLE_ROLL, TABLE_NESTED)
DEFS = {"table_step": TABLE_STEP}  # shared parts a schema refers to, added to the schemas that do

# (rules or None for generic dice, kind) -> (required fields, optional fields, what it is)
ROLLS: dict[tuple[str | None, str], tuple[dict[str, Any], dict[str, Any], str]] = {
    (None, "dice"): (DICE, {"labels": DICE_LABELS, "groups": GROUPS}, "a dice expression (every rule set)"),
    (None, "target"): ({**DICE, "target": INT, "outcome": enum("pass", "fail"), "margin": INT}, VERSUS_OPTIONAL,
                       "a dice expression against a target: 1d20+5 vs 15 (every rule set)"),
    (None, "opposed"): ({**DICE, "against": AGAINST, "outcome": enum("win", "tie", "lose"), "margin": INT},
                        VERSUS_OPTIONAL, "an opposed roll: 1d20+3 vs 1d20+5 (every rule set)"),
    (None, "table"): (TABLE_ROLL, TABLE_NESTED, "a roll on a random table: table loot (every rule set)"),
    (None, "countdown"): ({"die": STR, "sides": INT, "total": INT, "dice": INTS, "outcome": OUTCOME, "next": null(STR)},
                          {}, "a countdown die (every rule set)"),
    ("crux", "test"): (POOL, {"labels": LABELS}, "a test"),
    ("crux", "save"): ({**POOL, "effect": STR, "stance": null(STR), "vs_rushed": BOOL}, {"labels": LABELS}, "a save"),
    ("crux", "initiative"): ({**POOL, "actions": INT, "ambush": BOOL}, {"labels": LABELS}, "initiative"),
    ("crux", "attack"): ({"net": INT, "sides": INT, "count": INT, "primary": obj({"dice": INTS, "kept": INT}),
                          "dice": INTS, "explosions": INTS, "flat": INT, "armor": enum("unarmoured", "medium", "heavy"),
                          "resist": BOOL, "vuln": BOOL, "outcome": enum("miss", "hit", "crit"), "dice_total": INT,
                          "total": INT, "damage": INT, "grit": GRIT, "sources": SOURCES},
                         {"minion": BOOL, "killed": BOOL, "labels": LABELS}, "an attack"),
    ("crux", "damage"): ({"amount": INT, "crit": BOOL, "wounds_gained": INT, **STATE}, {}, "damage taken"),
    ("crux", "wound"): ({"amount": INT, "crit": BOOL, "wounds_gained": INT, **STATE}, {}, "a wound taken"),
    ("crux", "heal"): ({"amount": INT, "hp_restored": INT, **STATE}, {}, "healing"),
    ("crux", "rest field"): ({"dice": INTS, "hp_restored": INT, **STATE}, {}, "a field rest"),
    ("crux", "rest safe"): (STATE, {}, "a safe rest"),
    ("crux", "condition"): (STATE, {}, "conditions added or removed"),
    ("crux", "show"): ({"hero": {"type": "object"}}, {}, "the hero, whole"),
    ("stepdice", "save"): (STEP_SAVE, {}, "a save"),
    ("stepdice", "step"): ({"die": STR, "steps": INT, "result": STR, "stopped": BOOL, "dice": INTS}, {},
                           "a die stepped up or down"),
    ("stepdice", "attack"): ({"mode": STR, "attack_dice": STRS, "dice": INTS, "rolls": {"type": "array", "items": ROLL},
                              "highest": INT, "armor": INT, "armor_given": INT, "damage": INT, "grit": GRIT,
                              "direct": INT, "outcome": OUTCOME, "save": null(obj(STEP_SAVE)),
                              "consequence": null(STR), "str": null(STR), "attribute": STR, "str_after": null(STR)},
                             {}, "an attack"),
    ("stepdice", "death"): ({"marked": BOOL, "dice": INTS, "kept": INT, "outcome": OUTCOME, "text": STR,
                             "marked_after": BOOL}, {}, "a roll against the Mark of Death"),
    ("d20check", "check"): ({"stat": INT, "trained": BOOL, "favor": STR, "difficulty": INT, "dice": INTS, "d20": INT,
                             "favor_die": null(INT), "total": INT, "outcome": OUTCOME, "luck": INT}, {}, "a check"),
    ("d20check", "damage"): ({"count": INT, "sides": INT, "flat": INT, "armor": INT, "armor_given": INT,
                              "immune": BOOL, "weak": BOOL, "dice": INTS, "total": INT, "damage": INT,
                              "outcome": OUTCOME, "reason": STR}, {}, "damage"),
    ("challenge", "action"): ({**CHALLENGE, "advantage": BOOL, "disadvantage": BOOL, "risk": STR, "xp": INT}, {},
                              "an action roll"),
    ("challenge", "fortune"): ({**CHALLENGE, "advantages": INT, "disadvantages": INT}, {}, "a fortune roll"),
    ("challenge", "resist"): ({**CHALLENGE, "grit": GRIT}, {}, "a resistance roll"),
}

PROBABILITY = obj({"p": {**STR, "pattern": r"^[0-9]+(/[0-9]+)?$", "description": "exact, as a fraction"},
                   "approx": {**NUM, "description": "to 4 significant digits"}}, closed=True)
TABLE = {"type": "object", "additionalProperties": PROBABILITY}
MEAN = obj({"p": {**STR, "pattern": r"^-?[0-9]+(/[0-9]+)?$", "description": "exact, as a fraction"},
            "approx": {**NUM, "description": "to 4 significant digits"}}, closed=True)
AT_LEAST_AT_MOST = {"type": "object", "additionalProperties": obj({"at_least": PROBABILITY, "at_most": PROBABILITY},
                                                                   closed=True)}
# the fields of one statement's odds, beside its outcomes and its side tables
ODDS = {"distribution": TABLE, "mean": MEAN,
        "sd": {**NUM, "minimum": 0, "description": "the standard deviation, to 4 significant digits"},
        "at_least": obj({"k": INT, "p": PROBABILITY["properties"]["p"], "approx": NUM}, closed=True),
        "leftover": PROBABILITY, "depth": INT,
        "cumulative": {**AT_LEAST_AT_MOST, "description": "--cumulative: P(at least) and P(at most) each value"},
        "outcomes_cumulative": {**AT_LEAST_AT_MOST,
                                "description": "--cumulative: P(this row or a later one), P(it or an earlier one)"}}
SIDE_TABLES = {**TABLE, "description": "a side table by its name (kept, grit_gained, effect…)"}
DIFFERENCE = obj({"outcomes": {"type": "object", "additionalProperties": MEAN}}, {"mean": MEAN}, closed=True,
                 description="its outcomes and mean less the first statement's")
COMPARED = {**obj({"input": STR, "kind": STR, "outcomes": TABLE}, {**ODDS, "difference": DIFFERENCE}),
            "additionalProperties": SIDE_TABLES}


def file_name(rules: str | None, kind: str) -> str:
    return f"roll.{kind.replace(' ', '-')}.json" if rules is None else f"roll.{rules}.{kind.replace(' ', '-')}.json"


# Each schema's `$id`: a name, not a place to fetch (crux has no web site; the files ship in the package). Relative
# references between them (index.json's) resolve against it.
BASE = "https://crux-dice.invalid/schema/"


def schema(name: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE + name, "title": title, **body}


def kinds_map() -> dict[str, Any]:
    """Each answer's `kind` -> its schema's file: a name, or, where rule sets share a kind, a map by `rules`
    (generic dice kinds are the same in every rule set)."""
    found: dict[str, Any] = {"comparison": "odds.json"}
    for rules, kind in ROLLS:
        name = file_name(rules, kind)
        if rules is None:
            found[kind] = name
        else:
            found.setdefault(kind, {})[rules] = name
    return dict(sorted(found.items()))


def picked_by(kind: str, target: Any) -> list[dict[str, Any]]:
    """index.json's rules for one kind: `if` the answer is of it (and of the rule set), `then` its schema."""
    if isinstance(target, str):
        return [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]}, "then": {"$ref": target}}]
    return [{"if": {"properties": {"kind": {"const": kind}, "rules": {"const": rules}}, "required": ["kind", "rules"]},
             "then": {"$ref": name}} for rules, name in target.items()]


def index_schema() -> dict[str, Any]:
    kinds = kinds_map()
    rolls = [rule for kind, target in kinds.items() if kind != "comparison" for rule in picked_by(kind, target)]
    is_odds = {"anyOf": [{"required": ["outcomes"]}, {"properties": {"kind": {"const": "comparison"}},
                                                       "required": ["kind"]}]}
    return schema("index.json", "crux --json: any answer, its schema picked by its kind", {
        "description": "A script picks an answer's schema here: an object with `error` is error.json's; one with "
                       "`outcomes`, or of kind `comparison`, odds.json's (exact odds); any other by its `kind`, "
                       "and by its `rules` where rule sets share a kind (`x-crux-kinds`). Validating against this "
                       "schema validates against the one picked.",
        "x-crux-kinds": kinds, "type": "object",
        "if": {"required": ["error"]}, "then": {"$ref": "error.json"},
        "else": {"if": is_odds, "then": {"$ref": "odds.json"}, "else": {"allOf": rolls}}})


def roll_schema(rules: str | None, kind: str, required: dict[str, Any], optional: dict[str, Any],
                what: str) -> dict[str, Any]:
    envelope = dict(ENVELOPE_REQUIRED)
    envelope["kind"] = {"const": kind}
    if rules is not None:
        envelope["rules"] = {"const": rules}
    body = obj({**envelope, **required}, {**ENVELOPE_OPTIONAL, **optional})
    text = json.dumps(body)
    defs = {name: part for name, part in DEFS.items() if f'"#/$defs/{name}"' in text}
    if defs:
        body["$defs"] = defs
    shown = f"{rules} {kind}" if rules is not None else kind
    return schema(file_name(rules, kind), f"crux --json: {shown} ({what})", body)


def schemas() -> dict[str, dict[str, Any]]:
    out = {file_name(rules, kind): roll_schema(rules, kind, *spec) for (rules, kind), spec in ROLLS.items()}
    odds_envelope = {"line": ENVELOPE_OPTIONAL["line"], "comment": ENVELOPE_OPTIONAL["comment"]}
    one = {**obj({**ENVELOPE_REQUIRED, "outcomes": TABLE}, {**odds_envelope, **ODDS}),
           "additionalProperties": SIDE_TABLES}
    several = obj({**ENVELOPE_REQUIRED, "kind": {"const": "comparison"},
                   "compared": {"type": "array", "items": COMPARED, "minItems": 2, "maxItems": 10,
                                "description": "each statement's odds, in order; after the first, its difference"}},
                  odds_envelope, closed=True, description="several statements side by side: crux odds 'A; B'")
    out["odds.json"] = schema("odds.json", "crux odds --json: exact odds of a statement, or several compared, "
                              "in any rule set", {"type": "object",
                                                  "if": {"properties": {"kind": {"const": "comparison"}}},
                                                  "then": several, "else": one})
    out["error.json"] = schema("error.json", "crux --json: a refused statement, in place of its answer", obj(
        {"input": STR, "error": obj({"message": STR, "position": null({**INT, "minimum": 0}), "hint": null(STR)},
                                    closed=True)},
        {"line": ENVELOPE_OPTIONAL["line"]}, closed=True))
    out["index.json"] = index_schema()
    return out


def text_of(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    wanted = {name: text_of(document) for name, document in schemas().items()}
    if argv[1:] == ["--update"]:
        OUT.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in OUT.glob("*.json")) - set(wanted):
            (OUT / stale).unlink()
            print(f"removed {OUT.relative_to(ROOT) / stale}")
        for name, text in wanted.items():
            path = OUT / name
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
                print(f"updated {path.relative_to(ROOT)}")
        return 0
    if argv[1:] == ["--check"]:
        stale = [name for name, text in wanted.items() if not (OUT / name).exists() or (OUT / name).read_text() != text]
        stale += [p.name for p in OUT.glob("*.json") if p.name not in wanted]
        for name in stale:
            print(f"stale: crux_cli/data/schema/{name} (run python tools/gen_schemas.py --update)")
        return 1 if stale else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
