"""The JSON Schemas crux ships (crux_cli/data/schema/, written by tools/gen_schemas.py) hold every answer.

Every statement of the corpus (grammar/examples.txt, in every rule set, on a sheet for the sheet
statements), every line of the golden batch, their exact odds and their refusals are validated against
the schema of their kind; and every field an answer has is one its schema names, so the schemas (and
crux(1), which lists them) cannot fall behind the renderers.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from helpers import crux_here
from test_grammar_corpus import EXAMPLES

import crux_cli

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = files("crux_cli").joinpath("data", "schema")


@cache
def schema(name: str) -> dict[str, Any]:
    return json.loads(SCHEMAS.joinpath(name).read_text(encoding="utf-8"))


def schema_name(record: dict[str, Any]) -> str:
    if "error" in record:
        return "error.json"
    if "outcomes" in record or "compared" in record:  # `odds …` as a line of its own, among the rolls
        return "odds.json"
    kind = str(record["kind"]).replace(" ", "-")
    specific = f"roll.{record['rules']}.{kind}.json"
    return specific if SCHEMAS.joinpath(specific).is_file() else f"roll.{kind}.json"


@cache
def validator(name: str) -> Any:
    return jsonschema.Draft202012Validator(schema(name))  # made once: jsonschema.validate checks the schema each call


@cache
def index_validator() -> Any:
    """index.json, its references to the other schemas resolved by their `$id`s, as a script would load them."""
    from referencing import Registry, Resource

    documents = [schema(path.name) for path in SCHEMAS.iterdir() if path.name.endswith(".json")]
    registry = Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in documents)
    return jsonschema.Draft202012Validator(schema("index.json"), registry=registry)


def picked(record: dict[str, Any]) -> str:
    """The schema a script picks from index.json for an answer, as its description says."""
    if "error" in record:
        return "error.json"
    kinds = schema("index.json")["x-crux-kinds"]
    if "outcomes" in record or record.get("kind") == "comparison":
        return "odds.json"
    target = kinds[record["kind"]]
    return target if isinstance(target, str) else target[record["rules"]]


def check(record: dict[str, Any], name: str | None = None) -> None:
    name = name or schema_name(record)
    document = schema(name)
    validator(name).validate(record)
    assert picked(record) == name, record  # the index maps every answer's kind to the schema it fits
    index_validator().validate(record)
    if name != "odds.json":  # odds name their side tables freely; every other field is one the schema names
        unnamed = set(record) - set(document["properties"])
        assert not unnamed, f"{name} does not name {sorted(unnamed)} of {record}"


def corpus() -> list[tuple[str, str]]:
    """The corpus's statements that are answered (refusals aside), read by the grammar corpus test's reader."""
    return [(rules, statement) for rules, statement, expected, _ in EXAMPLES if not expected.startswith("error")]


def test_the_schemas_are_what_the_tool_writes() -> None:
    spec = importlib.util.spec_from_file_location("gen_schemas", ROOT / "tools" / "gen_schemas.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    shipped = {path.name for path in SCHEMAS.iterdir() if path.name.endswith(".json")}
    assert shipped == set(tool.schemas())
    for name, document in tool.schemas().items():
        assert SCHEMAS.joinpath(name).read_text(encoding="utf-8") == tool.text_of(document), \
            f"{name} is stale: python tools/gen_schemas.py --update"
        jsonschema.Draft202012Validator.check_schema(document)


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    crux_cli.write_sheet(tmp_path / "wren.toml", crux_cli.new_hero("Wren", attributes={"DEX": (2, 1)}, grit=3,
                                                                   hit_dice=3))
    return tmp_path / "wren.toml"


def test_every_corpus_answer_and_its_odds_fit_their_schemas(sheet: Path) -> None:
    seen: set[str] = set()
    for rules, text in corpus():
        session = crux_cli.Session(rules=rules, seed=1, sheet=sheet if rules == "crux" else None)
        try:
            answers = session.rolls(text)
        except crux_cli.CruxError:  # a sheet statement the hero cannot afford now: its odds still count
            answers = ()
        for answer in answers:
            record = json.loads(answer.to_json())
            check(record)
            seen.add(schema_name(record))
        try:
            chances = session.odds(text)
        except crux_cli.CruxError:  # a statement without exact odds
            continue
        check(json.loads(chances.to_json()), "odds.json")
    assert len(seen) >= 20, sorted(seen)


def test_every_line_of_the_golden_batch_fits_its_schema() -> None:
    lines = gzip.decompress((ROOT / "tests" / "golden" / "batch_json.out.gz").read_bytes()).decode().splitlines()
    errors = 0
    for line in lines:
        record = json.loads(line)
        check(record)
        errors += "error" in record
    assert len(lines) > 2000 and errors > 0


@pytest.mark.parametrize("args", [["--json", "bogus"], ["--json", "odds", "DEX +2"], ["--json", "1001d6"],
                                  ["--json", "--seed", "abc", "DEX"], ["--json", "help"]])
def test_a_one_shot_refusal_fits_the_error_schema(args: list[str]) -> None:
    check(json.loads(crux_here(*args).stdout), "error.json")


def test_odds_with_every_part_fit_the_odds_schema() -> None:
    for args in (["--at-least", "10", "atk 2d8+3 heavy"], ["3d6!"], ["DEX +2b grit"], ["--cumulative", "3d6!"],
                 ["--cumulative", "1d20+5 vs 15"], ["1d20+3 vs 1d20+5"], ["{1d8, 1d10}kh1 + max(1d4, 2)"],
                 ["--cumulative", "--at-least", "8", "2d6; atk d8 +1b; 1d20 vs 1d20"], ["DEX +2b; DEX +1b grit"]):
        result = crux_here("--json", "odds", *args)
        assert result.returncode == 0, result.stderr
        record = json.loads(result.stdout)
        check(record, "odds.json")
        if ";" in args[-1]:
            assert record["kind"] == "comparison" and "difference" in record["compared"][1]
            if "--cumulative" in args:
                assert {"sd", "cumulative", "outcomes_cumulative", "at_least"} <= set().union(*record["compared"])
        else:
            assert "sd" in record or "distribution" not in record


def test_a_comparison_is_held_to_its_shape() -> None:
    """The comparison branch of odds.json is closed, and a difference may be negative where a probability may not."""
    record = json.loads(crux_here("--json", "odds", "DEX +2b; DEX").stdout)
    check(record, "odds.json")
    assert record["compared"][1]["difference"]["outcomes"]["success"]["p"].startswith("-")
    with pytest.raises(jsonschema.ValidationError):
        check({**record, "outcomes": {}}, "odds.json")
    with pytest.raises(jsonschema.ValidationError):
        check({**record, "compared": record["compared"][:1]}, "odds.json")


def test_odds_lines_among_rolls_fit_their_schemas() -> None:
    """`odds …` answers where a roll would, in a batch and after `;`: each fits odds.json, each roll its own."""
    batch = crux_here("--json", "--seed", "1", "-", stdin="odds 2d6\n2d6 vs 7 # aim\nodds 2d6; 3d6 # which\n")
    one_shot = crux_here("--json", "--seed", "1", "1d20+3 vs 1d20+5; odds DEX # c")
    records = [json.loads(line) for line in (batch.stdout + one_shot.stdout).splitlines()]
    assert [schema_name(r) for r in records] == ["odds.json", "roll.target.json", "odds.json", "roll.opposed.json",
                                                 "odds.json"], records
    for record in records:
        check(record)


def test_table_answers_and_their_odds_fit_their_schemas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tables").mkdir()
    for example in (ROOT / "grammar" / "tables").glob("*.toml"):
        (tmp_path / "tables" / example.name).write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    records = [json.loads(answer.to_json()) for seed in range(30)
               for answer in crux_cli.Session(seed=seed).rolls("table loot")]
    for record in records:
        check(record, "roll.table.json")
        if "nested" in record:
            assert record["nested"]["table"] == "gems"
            check({**record, **record["nested"]}, "roll.table.json")
    assert any("nested" in r for r in records) and any(r["inline"] for r in records)
    broken = dict(records[0], nested={"table": "gems"})
    with pytest.raises(jsonschema.ValidationError):  # a nested roll has the whole shape, however deep
        check(broken, "roll.table.json")
    check(json.loads(crux_cli.Session().odds("table loot").to_json()), "odds.json")


def test_the_schemas_are_documented_in_crux_1() -> None:
    page = (ROOT / "man" / "crux.1").read_text(encoding="utf-8")
    assert "crux_cli/data/schema" in page and "index.json" in page and "x-crux-kinds" in page
    for path in SCHEMAS.iterdir():
        if path.name.startswith("roll."):
            rules_and_kind = path.name.removeprefix("roll.").removesuffix(".json")
            assert rules_and_kind.split(".")[-1].replace("-", " ") in page, path.name


def test_every_schema_has_its_id_and_the_index_maps_every_kind() -> None:
    kinds = schema("index.json")["x-crux-kinds"]
    mapped = {name for target in kinds.values() for name in ([target] if isinstance(target, str) else target.values())}
    for path in SCHEMAS.iterdir():
        if path.name.endswith(".json"):
            assert schema(path.name)["$id"] == "https://crux-dice.invalid/schema/" + path.name
        if path.name.startswith("roll."):
            assert path.name in mapped, f"index.json maps no kind to {path.name}"
            document = schema(path.name)
            kind, rules = document["properties"]["kind"]["const"], document["properties"]["rules"].get("const")
            assert picked({"kind": kind, "rules": rules or "stepdice"}) == path.name
    assert kinds["rest field"] == {"crux": "roll.crux.rest-field.json"} and kinds["comparison"] == "odds.json"


def test_the_index_refuses_an_answer_its_kind_schema_refuses() -> None:
    answer = json.loads(crux_cli.roll("DEX +2b", seed=3).to_json())
    index_validator().validate(answer)
    with pytest.raises(jsonschema.ValidationError):
        index_validator().validate({**answer, "dice": "not a list"})
    with pytest.raises(jsonschema.ValidationError):
        index_validator().validate({"input": "x", "error": {"message": 3}})
