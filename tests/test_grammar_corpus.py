"""Every line of grammar/examples.txt, through the real parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.running.read import parse_statement

CORPUS = Path(__file__).resolve().parent.parent / "grammar" / "examples.txt"


def corpus() -> list[tuple[str, str, str, int]]:
    """(rules, statement, expectation, line number) for each example line."""
    examples, rules = [], rulesets.DEFAULT
    for number, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            rules = line[1:-1].strip()
            continue
        statement, arrow, expected = line.partition(" => ")
        assert arrow, f"examples.txt:{number}: no ' => ' in {line!r}"
        examples.append((rules, statement.strip(), expected.split("  -- ")[0].strip(), number))
    return examples


EXAMPLES = corpus()


def test_corpus_is_not_empty():
    assert len(EXAMPLES) > 30


def test_corpus_names_only_known_rule_sets():
    assert {rules for rules, *_ in EXAMPLES} <= set(rulesets.BUILT_IN)


@pytest.mark.parametrize(("rules", "statement", "expected", "number"), EXAMPLES,
                         ids=[f"{n}:{s}" for _, s, _, n in EXAMPLES])
def test_example(rules: str, statement: str, expected: str, number: int):
    module = rulesets.load(rules)
    if expected.startswith("error:"):
        words = expected.removeprefix("error:").strip()
        with pytest.raises(CruxError) as caught:
            parse_statement(statement, module)
        said = f"{caught.value.message} {caught.value.hint or ''}"
        assert words in said, f"examples.txt:{number}: {said!r}"
        assert caught.value.position is None or 0 <= caught.value.position <= len(statement)
    else:
        assert str(parse_statement(statement, module)) == expected, f"examples.txt:{number}"
