"""Write crux_cli/api_fields.py: the typed fields of a `RollResult`, one read-only property per field an answer's
JSON object has in some kind (crux_cli/data/schema/roll.*.json), typed as the union of what the kinds that have it
hold. A type checker then sees `r.total` as an `int` and `r.totl` as an error; at run time the fields are read from
the answer's JSON as before (`RollResult.__getattr__`), so a kind without the field raises AttributeError.

    python tools/gen_fields.py --update    # after python tools/gen_schemas.py --update changed a field
    python tools/gen_fields.py --check     # exit 1 when the module is stale (tests/test_schemas.py runs it)
"""

from __future__ import annotations

import json
import keyword
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "crux_cli" / "data" / "schema"
OUT = ROOT / "crux_cli" / "api_fields.py"

# attributes RollResult has already (its own fields and properties: `result` is the engine's result, `sheet` the
# sheet's update), or that every answer carries (the envelope)
SKIPPED = {"input", "kind", "rules", "seed", "comment", "index", "line", "sheet", "result",
           "fields"}
ORDER = ["int", "float", "str", "bool"]

HEAD = '''"""The typed fields of a `RollResult` (crux-python(7)): written by tools/gen_fields.py from the JSON Schemas
of the answers, crux_cli/data/schema/roll.*.json; do not edit by hand.

Each property is a field of the JSON object `crux --json` prints for some kind of answer, typed as what those kinds
hold (lists as tuples, objects as read-only mappings). They exist for a type checker only: at run time a field is
read from the answer (`RollResult.__getattr__`), and a kind without it raises AttributeError naming the fields it
has. A rule set of another package adds fields of its own: read them from `fields`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

Text = str  # `str` is a field's name too (stepdice's attack): in the class body it would name that property


class AnswerFields:
    """The fields of the answers of every built-in kind, as a type checker sees them."""

    __slots__ = ()

    if TYPE_CHECKING:
'''


def python_type(schema: dict[str, Any]) -> list[str]:
    """The Python types (as text) a JSON Schema's values are read as, frozen: arrays as tuples, objects as mappings."""
    if "anyOf" in schema:
        return [t for part in schema["anyOf"] for t in python_type(part)]
    if "const" in schema or "enum" in schema:
        values = schema.get("enum", [schema.get("const")])
        return sorted({"str" if isinstance(v, str) else "int" for v in values})
    if "$ref" in schema:
        return ["Mapping[str, Any]"]
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return [t for kind in kinds for t in python_type({"type": kind})]
    if kinds == "array":
        if "prefixItems" in schema:
            return [f"tuple[{', '.join('Any' for _ in schema['prefixItems'])}]"]
        items = python_type(schema.get("items", {}))
        return [f"tuple[{' | '.join(items) if items else 'Any'}, ...]"]
    simple = {"integer": "int", "string": "str", "boolean": "bool", "number": "float", "null": "None",
              "object": "Mapping[str, Any]"}
    return [simple[kinds]] if kinds in simple else []


def union(types: list[str]) -> str:
    unique = list(dict.fromkeys(types))
    unique.sort(key=lambda t: (t == "None", "Mapping" in t, ORDER.index(t) if t in ORDER else len(ORDER), t))
    return " | ".join(unique)


def fields() -> dict[str, tuple[list[str], list[str]]]:
    """Field name -> (its Python types, the kinds that have it), over every roll schema."""
    found: dict[str, tuple[list[str], list[str]]] = {}
    for path in sorted(SCHEMAS.glob("roll.*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        kind = schema["properties"]["kind"]["const"]
        rules = schema["properties"]["rules"].get("const")
        shown = f"{rules} {kind}" if rules else kind
        for name, part in schema["properties"].items():
            if name in SKIPPED or keyword.iskeyword(name):
                continue
            types, kinds = found.setdefault(name, ([], []))
            types.extend(python_type(part))
            kinds.append(shown)
    return dict(sorted(found.items()))


def module() -> str:
    lines = [HEAD.rstrip("\n")]
    for name, (types, kinds) in fields().items():
        shown = union(types).replace("str", "Text")
        docstring = textwrap.fill(f'"""{name}: in {", ".join(kinds)}."""', width=117, initial_indent=" " * 12,
                                  subsequent_indent=" " * 12, break_on_hyphens=False)
        lines += ["        @property", f"        def {name}(self) -> {shown}:", docstring, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    wanted = module()
    if argv[1:] == ["--update"]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != wanted:
            OUT.write_text(wanted, encoding="utf-8")
            print(f"updated {OUT.relative_to(ROOT)}")
        return 0
    if argv[1:] == ["--check"]:
        if OUT.exists() and OUT.read_text(encoding="utf-8") == wanted:
            return 0
        print("stale: crux_cli/api_fields.py (run python tools/gen_fields.py --update)")
        return 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
