"""The JSON of answers (render/jsonl.py), the batch's line numbers, the store's compact JSON (core/compact_json.py)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from crux_cli.core.compact_json import compact
from crux_cli.render.jsonl import LINE_BREAKS, dumps, line, with_line

# What an answer's record holds: no floats (the renderers write none), any text, any integer.
SCALARS = st.none() | st.booleans() | st.integers() | st.text()
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)
RECORDS = st.fixed_dictionaries({"input": st.text(), "kind": st.text()}, optional={}).flatmap(
    lambda head: st.dictionaries(st.text(), VALUES, max_size=6).map(lambda rest: {**head, **rest}))


@given(RECORDS)
def test_dumps_writes_what_json_dumps_writes_with_line_breaks_escaped(record: dict) -> None:
    expected = json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
    assert dumps(record) == expected.translate(LINE_BREAKS)


@given(RECORDS)
def test_compact_reads_back_as_the_record(record: dict) -> None:
    assert json.loads(compact(record)) == record == json.loads(compact(record, large=True))


def test_line_breaks_that_split_lines_elsewhere_are_escaped() -> None:
    text = dumps({"input": "a\u2028b\u2029c\u0085", "kind": "dice"})
    assert not {"\u2028", "\u2029", "\u0085"} & set(text) and "\\u2028" in text


def test_integers_past_64_bits_are_written_too() -> None:
    record = {"input": "x", "kind": "dice", "total": 2**80}
    assert json.loads(compact(record)) == record == json.loads(compact(record, large=True))


def test_a_lone_surrogate_is_stored_escaped() -> None:
    """An undecodable byte read from a file (surrogateescape) becomes text SQLite can hold, read back the same."""
    record = {"input": "DEX \udcff", "kind": "dice"}
    for text in (compact(record), compact(record, large=True)):
        text.encode("utf-8")
        assert json.loads(text) == record


@given(st.text(), st.integers(min_value=1, max_value=10**9))
def test_the_line_number_follows_the_input(typed: str, number: int) -> None:
    record = {"input": typed, "kind": "dice", "total": 3}
    assert json.loads(with_line(dumps(record), number)) == {"input": typed, "line": number, "kind": "dice",
                                                                 "total": 3}
    assert list(json.loads(with_line(dumps(record), number))) == ["input", "line", "kind", "total"]


def test_a_batch_line_is_the_record_with_its_line_number_after_the_input() -> None:
    from crux_cli.render.jsonl import record
    from crux_cli.running.runner import Runner

    runner = Runner(seed=4)
    for text in ('atk 2d8+3 heavy # "kind": 1, "x"', "DEX +1b", "4d6kh3", 'save WIL adv', "Cd6"):
        for answer in runner.each(text):
            fields = record(answer)
            expected = {"input": fields.pop("input"), "line": 7, **fields}
            assert line(answer, 7) == dumps(expected)


@given(RECORDS)
def test_the_public_fallback_writes_what_the_private_c_encoder_writes(record: dict) -> None:
    """`dumps` leans on json's private c_make_encoder when it is there; without it, the public encoder."""
    import crux_cli.render.jsonl as jsonl

    saved = jsonl.C_ENCODE
    try:
        jsonl.C_ENCODE = None
        public = dumps(record)
    finally:
        jsonl.C_ENCODE = saved
    assert public == dumps(record)


def test_a_python_whose_private_encoder_differs_gets_the_public_one(monkeypatch) -> None:
    import json.encoder

    import crux_cli.render.jsonl as jsonl

    assert jsonl.C_ENCODE is not None or json.encoder.c_make_encoder is None  # CPython: the quick path
    monkeypatch.delattr(json.encoder, "c_make_encoder")
    assert jsonl._one_shot() is None  # gone in some later Python
    monkeypatch.setattr(json.encoder, "c_make_encoder", lambda *args: None, raising=False)
    assert jsonl._one_shot() is None  # different arguments or result
    monkeypatch.setattr(json.encoder, "c_make_encoder", lambda *args: (lambda obj, level: ["{}"]), raising=False)
    assert jsonl._one_shot() is None  # writes something else
