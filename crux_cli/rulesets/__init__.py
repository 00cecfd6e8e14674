"""The registry of rule sets: the built-in ones by name, then any that other packages declare.

Each rule set is a folder `crux_cli/rulesets/<name>/` whose `ruleset.py` defines
`RULESET`, a typed `crux_cli.core.ruleset.RuleSet`. Adding a built-in rule set is that
folder plus one line in `BUILT_IN`. A package of its own adds one without editing crux
by declaring an entry point in the group `crux.rulesets`:

    [project.entry-points."crux.rulesets"]
    hexcrawl = "hexcrawl_dice.ruleset:RULESET"

Built-in names are answered from `BUILT_IN` alone, so a one-shot roll never pays for
the entry-point lookup; it happens only for a name that is not built in, for
`--rules list`, and for completion of rule-set names.

Generic dice expressions (crux-notation(7) DICE EXPRESSIONS) belong to every rule set: `crux_cli.dice.handler.DICE`
answers them, chosen per statement by `running.read.read` and recorded in `Answer.handler`.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError

if TYPE_CHECKING:
    from collections.abc import Callable
    from importlib.metadata import EntryPoint

    from crux_cli.core.ruleset import RuleSet, SheetFile

DEFAULT = "crux"
ENTRY_POINT_GROUP = "crux.rulesets"

# name -> (module holding RULESET, one-line summary); kept here so `--rules list` imports nothing else
BUILT_IN: dict[str, tuple[str, str]] = {
    "crux": ("crux_cli.rulesets.crux.ruleset",
             "The Crux System (default): d6 pools, Boons/Banes, Grit, primary-die attacks"),
    "stepdice": ("crux_cli.rulesets.stepdice.ruleset",
                 "Step dice: d4–d12 attribute dice, saves vs 4 or a die, attacks on armor and Grit"),
    "d20check": ("crux_cli.rulesets.d20check.ruleset",
                 "d20 checks: d20 vs 20 − Stat (×2 trained), favored/hindered d6, armor, immune, weak"),
    "challenge": ("crux_cli.rulesets.challenge.ruleset",
                  "Challenge rolls: action, fortune and resistance pools of d6, highest die, risk and XP"),
}


# a built-in rule set's sheet file (its `SheetKeeping.file`), named here so that a sheet is read without loading the
# rules it names: a dice roll beside a sheet never loads them (tests/test_ruleset.py holds the two to agree)
SHEET_FILES: dict[str, tuple[str, str]] = {"crux": ("crux_cli.rulesets.crux.sheet_file", "SHEET_FILE")}


# a built-in rule set's reader of where a fight left running stands (a function of the fight's text, None when the text
# is not one it reads quickly), named here so the REPL offers the fight before its first prompt without loading the
# rules (tests/test_fight_summary.py holds it to the rules' own reading of the fight)
FIGHT_SUMMARIES: dict[str, tuple[str, str]] = {"crux": ("crux_cli.rulesets.crux.fight_summary", "summary")}


def fight_summary(name: str) -> Callable[[str], str | None] | None:
    """The quick reader of a fight's summary of the built-in rule set `name` (None: it names none, so the rule set's
    fights read the fight whole)."""
    if name not in FIGHT_SUMMARIES:
        return None
    module, value = FIGHT_SUMMARIES[name]
    found: Callable[[str], str | None] = getattr(importlib.import_module(module), value)
    return found


@functools.cache
def sheet_file(name: str) -> SheetFile[Any] | None:
    """The sheet file of the rule set called `name` (None: it keeps no sheet file, or there is no such rule set)."""
    if name in SHEET_FILES:
        module, value = SHEET_FILES[name]
        found: SheetFile[Any] = getattr(importlib.import_module(module), value)
        return found
    if not exists(name):
        return None
    keeping = load(name).sheet
    return keeping.file() if keeping is not None and keeping.file is not None else None


@functools.cache
def plugins() -> dict[str, EntryPoint]:
    """Rule sets other packages declare (entry points in `crux.rulesets`), by name; built-ins win."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BUILT_IN}


def names() -> list[str]:
    return [*BUILT_IN, *sorted(plugins())]


def summaries() -> list[tuple[str, str]]:
    """(name, one-line summary) of every rule set; a plug-in's summary needs its module loaded, and one
    that cannot be loaded is listed as such rather than hiding the others."""
    return [*((name, summary) for name, (_, summary) in BUILT_IN.items()),
            *((name, plugin_summary(name)) for name in sorted(plugins()))]


def plugin_summary(name: str) -> str:
    try:
        return str(load(name).summary)
    except CruxError as error:
        return f"(not usable: {error.message.removeprefix(f'the rule set {name!r} ')})"


def exists(name: str) -> bool:
    return name in BUILT_IN or name in plugins()


def check(name: str) -> str:
    """`name`, if a rule set is called that; else a refusal that lists the names."""
    if not exists(name):
        raise CruxError(f"there is no rule set called '{name}'",
                        hint="the rule sets are: " + ", ".join(names()) + " (crux --rules list)")
    return name


@functools.cache
def load(name: str) -> RuleSet:
    """The rule set called `name` (checked with `check` first)."""
    from crux_cli.core.ruleset import RuleSet

    if name in BUILT_IN:
        value = importlib.import_module(BUILT_IN[name][0]).RULESET
    else:
        try:
            value = plugins()[name].load()
        except Exception as error:  # a broken plug-in is the plug-in's fault: say so plainly
            raise CruxError(f"the rule set '{name}' could not be loaded: {type(error).__name__}: {error}",
                            hint=f"it comes from the package that declares it ({plugins()[name].value})") from None
    if not isinstance(value, RuleSet):
        raise CruxError(f"the rule set '{name}' is not a crux RuleSet",
                        hint="its entry point must name a crux_cli.core.ruleset.RuleSet value")
    if name not in BUILT_IN:
        value = answerable(value, plugins()[name].value)
    return value


HOOKS = ("parse", "run", "describe", "to_json", "odds")  # what crux calls of a rule set's core
FACET_HOOKS = {  # and of each facet it has
    "vocabulary": ("lexicon",),
    "sheet": ("apply", "status", "suffix", "json"),
}
KINDS_HOOKS = ("suggest", "words_for")  # of a vocabulary that completes by kinds


def answerable(rules: RuleSet, source: str) -> RuleSet:
    """A plug-in's rule set whose every hook turns a fault of its own (an exception that is not a CruxError)
    into a CruxError naming the rule set and its package: not "a bug in crux", and never a traceback."""
    from crux_cli.core.ruleset import Kinds

    changes = guarded_hooks(rules, HOOKS, rules.name, source)
    for facet, hooks in FACET_HOOKS.items():
        value = getattr(rules, facet)
        if value is not None:
            guarded = guarded_hooks(value, hooks, rules.name, source)
            if facet == "vocabulary" and isinstance(value.after, Kinds):
                guarded["after"] = value.after.replace(**guarded_hooks(value.after, KINDS_HOOKS, rules.name, source))
            changes[facet] = value.replace(**guarded)
    return rules.replace(**changes)


def guarded_hooks(value: Any, hooks: tuple[str, ...], name: str, source: str) -> dict[str, Any]:
    """Each of `hooks` of `value` (a rule set or one of its facets) that is a function, guarded."""
    return {hook: _guarded(getattr(value, hook), name, hook, source)
            for hook in hooks if callable(getattr(value, hook))}


def _guarded(function: Any, name: str, hook: str, source: str) -> Any:
    @functools.wraps(function)  # its module and name stay the plug-in's
    def call(*args: Any) -> Any:
        try:
            return function(*args)
        except CruxError:
            raise
        except Exception as error:
            raise CruxError(f"the rule set '{name}' failed ({hook}): {type(error).__name__}: {error}",
                            hint=f"a bug in the package that provides it ({source}), not in crux") from error

    return call


def handler(answer: Any) -> RuleSet:
    """What answered: generic dice (`answer.handler == 'dice'`), a random table ('table') or the answer's rule set."""
    if answer.handler == "dice":
        return dice_handler()
    if answer.handler == "table":
        from crux_cli.dice.tables import TABLE

        return TABLE
    return load(answer.rules)


@functools.cache
def dice_handler() -> RuleSet:
    """Generic dice's handler (imported once, not at every answer's lookup)."""
    from crux_cli.dice.handler import DICE

    return DICE
