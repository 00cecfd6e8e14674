"""Answers as JSON Lines: the stable field names of NOTATION §4, one object per statement."""

from __future__ import annotations

import json
from typing import Any

from crux_cli import rulesets


def record(answer: Any) -> dict[str, Any]:
    rules = rulesets.handler(answer)
    fields = rules.to_json(answer.result)
    out: dict[str, Any] = {"input": answer.input, "kind": fields.pop("kind"), "rules": answer.rules}
    if answer.seed is not None:
        out["seed"] = answer.seed
    if answer.comment:
        out["comment"] = answer.comment
    if answer.index is not None:
        out["index"] = answer.index
    out.update(fields)
    if getattr(answer, "sheet", None) is not None and rules.sheet_json is not None:
        out["sheet"] = rules.sheet_json(answer.sheet)
    return out


def line(answer: Any) -> str:
    return json.dumps(record(answer), ensure_ascii=False, separators=(", ", ": "))
