"""What a rule set from another package imports: the one public surface for plug-ins.

A rule set is a value, `RULESET = RuleSet(...)`, in a module of its own package, declared by an
entry point in the group `crux.rulesets`; once the package is installed, `--rules NAME`, `crux odds`,
`--json` and the interactive session know it. crux-python(7), "WRITING A RULE SET", walks through
one; `tests/plugin_ruleset/` in crux's source is a complete small example (`coinflip`).

    from crux_cli.plugin import Context, CruxError, Odds, RuleSet

Stability: every name in `__all__` keeps its meaning and its call signature for the whole 0.x
series and beyond; a field added to `RuleSet`, its facets, `Context`, `Odds` or `Table` has a
default, so a rule set written today keeps loading. A change that breaks a plug-in is made only in a new major
version, and announced in the release before it. The modules these names live in
(`crux_cli.core.*`, `crux_cli.probability.*`) are crux's inside and may move: import from here.

What is here:

- `RuleSet` (the rule set's core: `parse`, `run`, `describe`, `to_json`, `colours`, `odds`; its
  docstring says what each is) and its optional facets: `Vocabulary` (what the REPL completes, after a
  statement word by a `Following` table or by `Kinds`, colours and explains) and `SheetKeeping` (a
  rule set whose rolls change the hero on a sheet; its `file`, a `SheetFile`, reads and writes the
  sheet's hero, whose type gives at least a `SheetHero`'s name and rules); `lazy` (a function imported
  at its first call; `lazy(module, name, globals())` also puts the function in the wrapper's place there),
  `Context` (what a statement runs with: `ctx.roller`, `ctx.hero`, `ctx.text`),
  `Roller` (`ctx.roller.die(6)`, `ctx.roller.dice(3, 6)`, within crux's dice limit), `Palette`
  (what `describe` is given: `palette.bold(text)`, `palette.outcome(text, colours, name)`);
- the errors a rule set raises: `CruxError` (the message, the input and the position of the
  caret, a hint), `LimitError` (over a limit), `SheetError` (a sheet it cannot use);
- the odds types `odds` returns: `Odds`, `Table`, `AtLeast`, `Distribution`, and `Dist` with
  `dice_odds`, to compute exact distributions of dice without writing the arithmetic.
"""

from __future__ import annotations

from crux_cli.core.errors import CruxError, LimitError, SheetError
from crux_cli.core.rng import Roller
from crux_cli.core.ruleset import (
    Context,
    Following,
    Kinds,
    RuleSet,
    SheetFile,
    SheetHero,
    SheetKeeping,
    Vocabulary,
    lazy,
)
from crux_cli.core.style import Palette
from crux_cli.probability.dist import Dist
from crux_cli.probability.result import AtLeast, Distribution, Odds, Table, dice_odds

__all__ = ["AtLeast", "Context", "CruxError", "Dist", "Distribution", "Following", "Kinds", "LimitError", "Odds",
           "Palette", "Roller", "RuleSet", "SheetError", "SheetFile", "SheetHero", "SheetKeeping", "Table",
           "Vocabulary", "dice_odds", "lazy"]
