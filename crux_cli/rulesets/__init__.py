"""The rule sets crux speaks, each a module of one shared shape.

A rule-set module (``crux_cli.rulesets.<name>``) provides:

- ``NAME``, ``SUMMARY`` (one line) and ``SEED`` (the seed file it implements);
- ``KEYWORDS``: the lower-case first words of its statements (for dispatch and completion);
- ``parse(text, keyword) -> Statement``: the statement's grammar, giving an immutable AST;
- ``run(statement, ctx) -> Result``: compile the AST to rule-engine calls and roll;
- ``odds(statement, ctx) -> Odds``: exact probabilities for the statement;
- ``describe(result, palette) -> str`` and ``to_json(result) -> dict``: the result as
  one line of text and as its JSON fields (renderers live in ``crux_cli.render``);
- ``apply(result, hero) -> Hero`` (optional): the hero after a result, for the
  values a character sheet keeps (Grit spent and earned, HP, Wounds...); the
  runner writes them back under the sheet's lock. Without it the sheet is only read.

Generic dice expressions (NOTATION §2) belong to every rule set: they are
answered by ``crux_cli.dice.handler`` (the same shape, not a rule set), chosen per
statement by ``notation.parse.read`` and recorded in ``Answer.handler``.

Adding a fifth rule set is a new module plus one line in ``RULESETS``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

DEFAULT = "crux"

# name -> (module, one-line summary); kept here so `--rules list` imports nothing else
RULESETS: dict[str, tuple[str, str]] = {
    "crux": ("crux_cli.rulesets.crux.ruleset",
             "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"),
    "stepdice": ("crux_cli.rulesets.stepdice.ruleset",
                 "Step dice (seed 002): d4–d12 attribute dice, saves vs 4 or a die, attacks on armor and Grit"),
    "d20check": ("crux_cli.rulesets.d20check.ruleset",
                 "d20 checks (seed 003): d20 vs 20 − Stat (×2 trained), favored/hindered d6, armor, immune, weak"),
    "challenge": ("crux_cli.rulesets.challenge.ruleset",
                  "Challenge rolls (seed 004): action, fortune and resistance pools of d6, highest die, risk and XP"),
}


def names() -> list[str]:
    return list(RULESETS)


def handler(answer: Any) -> ModuleType:
    """The module that answered: generic dice (`answer.handler`) or the answer's rule set."""
    return importlib.import_module(answer.handler) if answer.handler else load(answer.rules)


def load(name: str) -> ModuleType:
    """The rule-set module called `name` (the caller has checked the name)."""
    return importlib.import_module(RULESETS[name][0])
