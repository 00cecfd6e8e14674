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


# Line breaks JSON allows raw inside strings but line-oriented readers (and JavaScript) split on.
LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"})
# json.dumps with options builds a new encoder per call; a batch writes one line per answer
ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def dumps(obj: dict[str, Any]) -> str:
    """One JSON object on one line, whatever its strings hold."""
    text = ENCODER.encode(obj)
    if "\u2028" in text or "\u2029" in text or "\u0085" in text:  # rare: three C scans beat a translate
        return text.translate(LINE_BREAKS)
    return text


def line(answer: Any, number: int | None = None) -> str:
    """An answer as one JSON line; `number` is the input line it came from, in a batch."""
    out = record(answer)
    if number is not None:
        out = {"input": out.pop("input"), "line": number, **out}
    return dumps(out)
