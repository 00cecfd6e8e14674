"""A typed client of the library: `mypy --strict` sees the real types of `crux_cli.roll`, `rolls`, `odds` and
`Session`, not `Any` (the names reach the module through `__getattr__` at run time; `crux_cli.odds` is the
function, the subpackage of distributions being `crux_cli.probability`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CLIENT = '''\
import crux_cli
from crux_cli import Session
from crux_cli.plugin import Odds  # a plug-in's import of the odds subpackage's types changes nothing

one = crux_cli.roll("DEX +2b", seed=3)
reveal_type(one)
reveal_type(crux_cli.rolls("d6; d8", seed=1))
chances = crux_cli.odds("DEX +2b")
reveal_type(chances)
reveal_type(chances.outcomes)
reveal_type(crux_cli.odds)
session = Session(seed=1)
reveal_type(session)
reveal_type(session.roll("d6"))
reveal_type(session.odds("d6"))
wren = crux_cli.new_hero("Wren", attributes={"DEX": (2, 1)}, grit=1)
reveal_type(wren)
reveal_type(crux_cli.Session(hero=wren).hero)
reveal_type(crux_cli.odds("2d6") + crux_cli.odds("d4"))
reveal_type(crux_cli.compare("2d6; d12"))
held: crux_cli.Hero = wren
total: int = one.seed or 0
typed: Odds = chances.odds
'''

EXPECTED = [
    "crux_cli.api.RollResult",
    "tuple[crux_cli.api.RollResult | crux_cli.api.OddsResult | crux_cli.api.OddsComparison, ...]",
    "crux_cli.api.OddsResult",
    "typing.Mapping[str, fractions.Fraction]",
    "def (text: str, *, rules: str | None =, sheet: str | os.PathLike[str] | None =, "
    "hero: crux_cli.core.ruleset.SheetHero | None =, at_least: int | None =, cumulative: bool =) "
    "-> crux_cli.api.OddsResult",
    "crux_cli.api.Session",
    "crux_cli.api.RollResult",
    "crux_cli.api.OddsResult",
    # the library names no rule set's own types (issue 33): a hero is the structural crux_cli.api_hero.Hero, its
    # fields typed (issue 38), where it was the sheet facet's SheetHero (a name and rules only)
    "crux_cli.api_hero.Hero",
    "crux_cli.api_hero.Hero | None",
    "crux_cli.api.OddsResult",
    "crux_cli.api.OddsComparison",
]


@pytest.mark.slow  # mypy over the client and the package it follows: some seconds
def test_mypy_strict_sees_the_real_types(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(CLIENT)
    # crux_cli's own modules are followed but not reported, as for any installed package with py.typed
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
                             "client.py"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    revealed = re.findall(r'Revealed type is "(.*)"', result.stdout)
    assert revealed == EXPECTED, result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr  # reveal_type is a note, not an error
    assert "error" not in result.stdout, result.stdout


def test_the_client_runs_as_it_type_checks() -> None:
    import crux_cli

    namespace: dict[str, object] = {"reveal_type": lambda value: value}
    exec(compile(CLIENT, "client.py", "exec"), namespace)
    assert str(namespace["one"]).startswith("DEX +2b: success")
    assert isinstance(namespace["chances"], crux_cli.OddsResult)


def test_the_hero_a_script_gets_has_every_field_its_type_names() -> None:
    """`crux_cli.api_hero.Hero` is structural: the hero new_hero() gives at run time has each of its members."""
    import inspect

    import crux_cli
    from crux_cli.api_hero import Hero, HeroAttribute

    hero = crux_cli.new_hero("Wren", attributes={"DEX": (2, 1)})
    members = [name for name, _ in inspect.getmembers(Hero) if not name.startswith("_")]
    assert {"grit", "hp", "attack_sides", "attribute", "conditions"} <= set(members)
    assert all(hasattr(hero, name) for name in members), [name for name in members if not hasattr(hero, name)]
    attribute = hero.attribute("DEX")
    assert (attribute.modifier, attribute.rating) == (2, 1)
    assert all(hasattr(attribute, name) for name, _ in inspect.getmembers(HeroAttribute) if not name.startswith("_"))


def test_every_field_of_every_answer_is_typed_and_a_misspelt_one_is_not() -> None:
    """The typed fields (crux_cli/api_fields.py) are generated from the schemas and fresh; each roll schema's field
    is one of them, and a field read at run time is what its type says."""
    import json

    import crux_cli
    from crux_cli.api_fields import AnswerFields

    fresh = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_fields.py"), "--check"], capture_output=True,
                           text=True)
    assert fresh.returncode == 0, fresh.stdout
    source = (ROOT / "crux_cli" / "api_fields.py").read_text(encoding="utf-8")
    typed = set(re.findall(r"def (\w+)\(self\)", source))
    for path in (ROOT / "crux_cli" / "data" / "schema").glob("roll.*.json"):
        names = set(json.loads(path.read_text(encoding="utf-8"))["properties"])
        names -= {"input", "kind", "rules", "seed", "comment", "index", "line", "sheet", "result"}
        assert names <= typed, (path.name, names - typed)
    assert not hasattr(AnswerFields, "total")  # for a type checker only: at run time the answer's JSON is read
    answer = crux_cli.roll("atk d8", seed=1)
    assert isinstance(answer.total, int) and isinstance(answer.dice, tuple) and isinstance(answer.outcome, str)
