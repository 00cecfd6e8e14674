"""Compact JSON (no spaces), for what crux stores: the journal's rows, intents, an answer kept whole.

The one encoder of its kind (`render/jsonl.py` writes the spaced JSON Lines people read). A small
value goes through the json module: a one-shot writes one small row, and importing orjson alone
would cost it 9-13 ms (tests/bench/bench_startup.py). A `large` one (a batch's thousand rolls a row)
goes through orjson, several times quicker.
"""

from __future__ import annotations

import json
from typing import Any


def compact(value: Any, large: bool = False) -> str:
    """Compact JSON; a lone surrogate (an undecodable byte) is written escaped, which SQLite can store,
    and a value JSON has no form for (a set, a path) as its text."""
    if large:
        try:
            import orjson

            return orjson.dumps(value).decode()
        except (ImportError, TypeError, ValueError):  # an integer past 64 bits, a surrogate: the json module
            pass
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"), default=str)
    return text
