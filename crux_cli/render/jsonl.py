"""Answers as JSON Lines: the stable field names crux(1) lists (JSON OUTPUT), one object per statement."""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

from crux_cli import rulesets


def record(answer: Any) -> dict[str, Any]:
    if answer.odds:
        return odds_record(answer)
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
    if getattr(answer, "sheet", None) is not None and rules.sheet is not None:
        out["sheet"] = rules.sheet.json(answer.sheet)
    return out


def odds_record(answer: Any) -> dict[str, Any]:
    """An odds answer (`crux odds --json`, or `odds …` in any line) as its JSON object."""
    out: dict[str, Any] = {"input": answer.input, "kind": answer.result.kind, "rules": answer.rules}
    if answer.comment:
        out["comment"] = answer.comment
    if answer.result.kind == "comparison":
        from crux_cli.render.odds_compare import comparison_colours, comparison_json

        out.update(comparison_json(answer.result, comparison_colours(answer)))
        return out
    from crux_cli.render.odds_json import odds_to_json

    colours = rulesets.handler(answer).colours if answer.result.cumulative else {}  # what is worth more
    out.update(odds_to_json(answer.result, colours))
    return out


# Line breaks JSON allows raw inside strings but line-oriented readers (and JavaScript) split on.
LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"})
# json.dumps with options builds a new encoder per call; a batch writes one line per answer
ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False)  # records hold no cycles


def _one_shot() -> Callable[[Any, int], list[str]] | None:
    """json's C encoder made once with ENCODER's options: `JSONEncoder.encode` makes a new one each call.

    Measured on CPython 3.11: 2.6-4.0 us an answer rather than 3.4-5.4 us (`ENCODER.encode`), a quarter of
    what `--json` costs a batch line. `c_make_encoder` is a private name of the json module, so it is used
    only when it is there, takes these arguments and writes a probe exactly as the json module documents
    it; otherwise (None) `dumps` uses the public `ENCODER.encode`, and tests/test_jsonl.py runs both.
    """
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    encode_basestring = getattr(json.encoder, "encode_basestring", None)
    if c_make_encoder is None or encode_basestring is None:  # a Python built without the _json accelerator
        return None
    try:
        encode: Callable[[Any, int], list[str]] = c_make_encoder(
            None, ENCODER.default, encode_basestring, None, ": ", ", ", False, False, True)
        if "".join(encode(PROBE, 0)) != PROBE_JSON:
            return None
    except (TypeError, ValueError, AttributeError):  # a Python whose private encoder changed
        return None
    return encode


PROBE = {"input": "DEX é\u2028 \"x\"", "kind": "test", "dice": [1, 2], "p": 0.5, "ok": True, "none": None,
         "big": 10**30, "nested": {"a": []}}
PROBE_JSON = ('{"input": "DEX \u00e9\u2028 \\"x\\"", "kind": "test", "dice": [1, 2], "p": 0.5, "ok": true, '
              '"none": null, "big": 1000000000000000000000000000000, "nested": {"a": []}}')
C_ENCODE = _one_shot()


def dumps(obj: dict[str, Any]) -> str:
    """One JSON object on one line, whatever its strings hold."""
    text = "".join(C_ENCODE(obj, 0)) if C_ENCODE is not None else ENCODER.encode(obj)
    if "\u2028" in text or "\u2029" in text or "\u0085" in text:  # rare: three C scans beat a translate
        return text.translate(LINE_BREAKS)
    return text


def line(answer: Any, number: int | None = None) -> str:
    """An answer as one JSON line; `number` is the input line it came from, in a batch."""
    return with_line(dumps(record(answer)), number)


def with_line(answer_json: str, number: int | None) -> str:
    """An answer's JSON line with `"line": number` after its input, as a batch prints it.

    `record` always puts `kind` second, and no `, "kind": ` can occur inside the encoded input
    (its quotes are escaped), so the first one is where the line number goes.
    """
    if number is None:
        return answer_json
    return answer_json.replace(', "kind": ', f', "line": {number}, "kind": ', 1)
