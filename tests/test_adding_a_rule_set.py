"""Adding a built-in rule set takes its folder, one registry line and its docs: nothing else.

The test copies the repository to a temporary folder, adds a small rule set there (`omens`: `omen N`
reads N d6; a seer's sheet keeps their luck, which a cursed omen spends; a vigil is its fight) touching
only
- its folder, `crux_cli/rulesets/omens/`;
- one line in `BUILT_IN` (`crux_cli/rulesets/__init__.py`);
- its item in the RULE SETS list of `man/crux-notation.7`, and its section there;
- its section in `grammar/rulesets.md`;
and in the copy rolls on its sheet, saves and resumes its fight, runs mypy --strict (its sheet file and
fights are held to the facets' protocols) and the fast tier's rule-set tests, which must pass: they read
the rule sets from the registry and each rule set's own value, never from a list of names, and the
completion scripts ask crux for the rule sets' words at Tab, so none has to be regenerated.
CONTRIBUTING.md, "Adding a rule set", names these parts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LEFT_BEHIND = shutil.ignore_patterns(".git", ".venv", "venv", ".ci", "build", "dist", "*.egg-info", "__pycache__",
                                     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis")

# the tests that hold every rule set to what crux needs of it, run in the copy (its fast tier)
RULE_SET_TESTS = ("tests/test_rulesets_cli.py", "tests/test_rulesets_modules.py", "tests/test_rulesets_notation.py",
                  "tests/test_docs.py", "tests/test_completion.py", "tests/test_repl_suggest.py",
                  "tests/test_repl_asks_the_rule_set.py", "tests/test_grammar_corpus.py", "tests/test_layers.py",
                  "tests/test_plugin_ruleset.py", "tests/test_schemas.py", "tests/test_lint.py")

FOLDER = {
    "__init__.py": '''"""Omens: `omen N` reads N d6; its statements meet in one table (`ruleset.py`)."""
''',
    "ruleset.py": '''"""Omens: `omen N` reads N d6 by the highest die (`dark`: the lowest); 6 is blessed, 1-2 cursed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.ruleset import (
    Following,
    Handlers,
    RuleSet,
    SheetKeeping,
    StatementTable,
    Vocabulary,
    lazy_value,
)
from crux_cli.core.style import BAD, GOOD, MIXED, Palette
from crux_cli.rulesets.omens.sheet import SHEET_FILE, Seer

if TYPE_CHECKING:
    from crux_cli.core.rng import Roller
    from crux_cli.probability.result import Odds

NAME = "omens"
SUMMARY = "Omens: omen N reads N d6, blessed on a 6, cursed on 2 or less"
KEYWORDS = frozenset({"omen"})
MAX_DICE = 12
STATEMENT = re.compile(r"\\s*omen(?:\\s+(\\d{1,3}))?(\\s+dark)?\\s*", re.IGNORECASE)
COLOURS: Mapping[str, str] = MappingProxyType({"blessed": GOOD, "uncertain": MIXED, "cursed": BAD})


class Omen(Record):
    dice: int
    dark: bool = False

    def __str__(self) -> str:
        return f"omen {self.dice}" + (" dark" if self.dark else "")


class Reading(Record):
    omen: Omen
    faces: tuple[int, ...]

    @property
    def read(self) -> int:
        return min(self.faces) if self.omen.dark else max(self.faces)

    @property
    def outcome(self) -> str:
        return outcome_of(self.read)


def outcome_of(face: int) -> str:
    return "blessed" if face == 6 else "cursed" if face <= 2 else "uncertain"


def parse(text: str, keyword: str) -> Omen:
    match = STATEMENT.fullmatch(text)
    if match is None:
        raise CruxError("an omen takes a number of dice and 'dark'", text=text,
                        position=len(text) - len(text.lstrip()) + len(keyword), hint="omen, omen 3, omen 3 dark")
    dice = int(match.group(1) or 1)
    if not 1 <= dice <= MAX_DICE:
        raise CruxError(f"an omen reads 1 to {MAX_DICE} dice", text=text, position=match.start(1))
    return Omen(dice, bool(match.group(2)))


def request(omen: Omen) -> Omen:
    return omen


def roll(roller: Roller, omen: Omen) -> Reading:
    return Reading(omen, tuple(roller.dice(omen.dice, 6)))


def chance(omen: Omen, face: int) -> Fraction:
    """P(the die read shows `face`)."""
    n = omen.dice
    if omen.dark:
        return Fraction(7 - face, 6) ** n - Fraction(6 - face, 6) ** n
    return Fraction(face, 6) ** n - Fraction(face - 1, 6) ** n


def odds(omen: Omen) -> Odds:
    from crux_cli.probability.result import Odds

    each = {face: chance(omen, face) for face in range(1, 7)}
    rows = (("blessed", each[6]), ("uncertain", each[3] + each[4] + each[5]), ("cursed", each[1] + each[2]))
    return Odds("omen", rows, distribution=tuple(each.items()), label="read",
                mean=sum((face * p for face, p in each.items()), Fraction(0)))


def describe(reading: Reading, palette: Palette) -> str:
    kept = "lowest" if reading.omen.dark else "highest"
    return (f"{palette.outcome(reading.outcome, COLOURS)} ({reading.read}) · "
            f"{len(reading.faces)}d6 {list(reading.faces)} {kept}")


def to_json(reading: Reading) -> dict[str, Any]:
    return {"kind": "omen", "dice": list(reading.faces), "dark": reading.omen.dark, "read": reading.read,
            "outcome": reading.outcome}


def after(reading: Reading, seer: Seer) -> Seer:
    """A cursed omen read on a seer's sheet costs them a luck."""
    return seer.replace(luck=seer.luck - 1) if reading.outcome == "cursed" and seer.luck > 0 else seer


def status(seer: Seer) -> tuple[tuple[str, str], ...]:
    return (("key", "luck"), ("value", str(seer.luck)))


def suffix(answer: Any, palette: Palette) -> str:
    before, now = answer.sheet.before, answer.sheet.after
    return f"{now.name}: luck {before.luck} → {now.luck}" if before.luck != now.luck else f"{now.name}: luck {now.luck}"


def sheet_json(update: Any) -> dict[str, Any]:
    return {"luck": update.after.luck}


STATEMENTS = StatementTable(NAME, {
    Omen: Handlers(result=Reading, request=request, run=roll, odds=odds, describe=describe, to_json=to_json,
                   apply=after),
})

RULESET = RuleSet(
    name=NAME,
    summary=SUMMARY,
    keywords=KEYWORDS,
    parse=parse,
    run=STATEMENTS.run,
    odds=STATEMENTS.odds,
    describe=STATEMENTS.describe,
    to_json=STATEMENTS.to_json,
    colours=COLOURS,
    vocabulary=Vocabulary(words=("omen",), after=Following({"omen": ("dark",)}),
                          lexicon=lambda: MappingProxyType({"dark": "keyword"}), patterns=(),
                          help=("omen N [dark]   N d6, read by the highest die (dark: the lowest)",)),
    sheet=SheetKeeping(apply=STATEMENTS.apply, status=status, suffix=suffix, json=sheet_json,
                       file=lambda: SHEET_FILE),
    fights=lazy_value("crux_cli.rulesets.omens.fight", "FIGHTS"),
)
''',
    "sheet.py": '''"""A seer's sheet: a name and their luck, which a cursed omen spends, in a small TOML file."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from crux_cli.core.errors import SheetError
from crux_cli.core.record import Record

MAX_LUCK = 9
LUCK = re.compile(r"^([ \\t]*luck[ \\t]*=[ \\t]*)\\d+", re.MULTILINE)


class Seer(Record):
    name: str = "seer"
    rules: str = "omens"
    luck: int = 3


def line_of(text: str, key: str) -> int | None:
    return next((number for number, line in enumerate(text.splitlines(), 1)
                 if line.split("=")[0].strip() == key), None)


class SeerSheet:
    """The seer in a sheet file (core.ruleset.SheetFile): crux reads the TOML, this says what it holds."""

    hero = Seer

    def read(self, data: dict[str, Any], text: str, path: str) -> Seer:
        for key in data:
            if key not in ("name", "rules", "luck"):
                raise SheetError(f"unknown key `{key}`", path=path, line=line_of(text, key))
        name, luck = data.get("name", "seer"), data.get("luck", 3)
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise SheetError("`name` must be a text in quotes", path=path, line=line_of(text, "name"))
        if isinstance(luck, bool) or not isinstance(luck, int) or not 0 <= luck <= MAX_LUCK:
            raise SheetError(f"`luck` must be a whole number from 0 to {MAX_LUCK}", path=path,
                             line=line_of(text, "luck"))
        return Seer(name.strip(), str(data.get("rules", "omens")).strip().lower(), luck)

    def write(self, text: str, before: Seer, after: Seer) -> str:
        if before.luck == after.luck:
            return text
        if LUCK.search(text):
            return LUCK.sub(lambda match: f"{match.group(1)}{after.luck}", text, count=1)
        return text + ("" if text.endswith("\\n") else "\\n") + f"luck = {after.luck}\\n"

    def edit(self, text: str, before: Seer, after: Seer, found: dict[str, int | None] | None = None) -> str | None:
        return None

    def template(self, hero: Seer) -> str:
        return (f"# A seer: a cursed omen read on this sheet costs a luck\\nname = {json.dumps(hero.name)}\\n"
                f"rules = \\"omens\\"\\nluck = {hero.luck}\\n")

    def new(self, values: Mapping[str, Any]) -> Seer:
        return Seer(**values)

    def kept(self, hero: Seer) -> dict[str, Any]:
        return {"luck": hero.luck}

    def with_kept(self, hero: Seer, values: Mapping[str, Any]) -> Seer:
        return hero.replace(**values)

    def dump(self, hero: Seer) -> dict[str, Any]:
        return hero.as_dict()

    def load(self, data: Mapping[str, Any]) -> Seer:
        return Seer(**{name: data[name] for name in Seer.field_names() if name in data})


SHEET_FILE = SeerSheet()
''',
    "fight.py": '''"""A vigil, the omens' fight: `vigil` begins one (`vigil FILE` resumes it), `watch` reads an omen."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.ruleset import FightLine

if TYPE_CHECKING:
    from crux_cli.core.ruleset import FightHost, FightRules, FightValue


class Vigil(Record):
    seer: str
    sheet: str = ""  # the seer's sheet file, if they have one
    watches: int = 0
    cursed: int = 0
    over: bool = False

    @property
    def sheets(self) -> Mapping[str, str]:
        return {self.seer: self.sheet} if self.sheet else {}

    def names(self) -> tuple[str, ...]:
        return (self.seer,)

    def acting(self) -> str | None:
        return self.seer

    def summary(self) -> str:
        return f"{self.seer}'s vigil: {self.watches} watches, {self.cursed} cursed"

    def ledger_json(self) -> dict[str, Any]:
        return {"seer": self.seer, "watches": self.watches, "cursed": self.cursed}


def own(fight: FightValue | None) -> Vigil | None:
    if fight is not None and not isinstance(fight, Vigil):
        raise CruxError(f"not a vigil: {type(fight).__name__}")
    return fight


class OmensFights:
    def words(self, fighting: bool) -> tuple[str, ...]:
        return ("vigil", "watch") if fighting else ("vigil",)

    def help(self) -> tuple[str, ...]:
        return ("vigil [FILE]     begin a vigil (or take one up from FILE)", "watch            read an omen")

    def claims(self, line: str, fight: FightValue | None) -> bool:
        word = line.split()[0].lower() if line.split() else ""
        return word == "vigil" or (word == "watch" and fight is not None)

    def run(self, line: str | FightLine, fight: FightValue | None,
            host: FightHost) -> tuple[FightValue | None, list[str]]:
        word, _, rest = (line.line if isinstance(line, FightLine) else line).strip().partition(" ")
        if word.lower() == "vigil":
            if rest.strip():
                loaded = host.load_fight(rest.strip())
                return loaded, [f"the vigil resumes: {loaded.summary()}"]
            sheet = host.runner.sheet
            seer = host.read_hero(sheet).name if sheet is not None else "seer"
            return Vigil(seer, sheet or ""), [f"{seer} begins a vigil"]
        vigil = own(fight)
        assert vigil is not None
        answer = host.runner.answer("omen")
        said = host.render(answer, vigil.seer)
        cursed = vigil.cursed + (answer.result.outcome == "cursed")
        return vigil.replace(watches=vigil.watches + 1, cursed=cursed), [said]

    def odds(self, text: str, fight: FightValue | None, host: FightHost,
             exact: bool) -> tuple[Any, list[str]] | None:
        return None

    def read(self, line: str, fight: FightValue | None) -> FightLine:
        word, _, rest = line.strip().partition(" ")
        return FightLine(line, file=rest.strip() if word.lower() == "vigil" else "")

    def resume(self, path: str) -> str:
        return f"vigil {path}"

    def takes_path(self, word: str) -> bool:
        return word.lower() == "vigil"

    def complete(self, text: str, fight: FightValue,
                 host: FightHost) -> tuple[str, tuple[tuple[str, str], ...], bool] | None:
        return None

    def toolbar(self, fight: FightValue, host: FightHost) -> list[tuple[int, str, str]]:
        return [(1, "vigil", fight.summary())]

    def dump(self, fight: FightValue, sheets: Mapping[str, str]) -> str:
        vigil = own(fight)
        assert vigil is not None
        return (f"seer = {json.dumps(vigil.seer)}\\nsheet = {json.dumps(sheets.get(vigil.seer, ''))}\\n"
                f"watches = {vigil.watches}\\ncursed = {vigil.cursed}\\n")

    def load(self, text: str, path: str, folder: str) -> FightValue:
        import tomllib

        try:
            data = tomllib.loads(text)
            sheet = data["sheet"]
            return Vigil(data["seer"], os.path.join(folder, sheet) if sheet else "", data["watches"], data["cursed"])
        except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
            raise CruxError(f"{path}: not a vigil ({error})") from None


FIGHTS = OmensFights()

if TYPE_CHECKING:  # mypy holds the vigil to what the session asks of a fight
    _checked: FightRules = FIGHTS
''',
}

REGISTRY_LINE = ('    "omens": ("crux_cli.rulesets.omens.ruleset",\n'
                 '              "Omens: omen N reads N d6, blessed on a 6, cursed on 2 or less"),\n')

NOTATION_ITEM = r""".It Cm omens
Omens: the highest of some d6, blessed on a 6, cursed on 2 or less.
"""

NOTATION_SECTION = r""".Sh OMENS STATEMENTS
.\" rules: omens
The rule set
.Cm omens
reads dice for omens: the highest of
.Ar N
d6, or with
.Cm dark
the lowest; a 6 is
.Li blessed ,
2 or less
.Li cursed ,
anything else
.Li uncertain .
.Bd -unfilled -offset indent
.Cm omen Oo Ar N Oc Op Cm dark
.Ed
.Pp
For example:
.Dl omen
.Dl omen 3 dark
.Pp
Refused:
.\" error
.Dl omen 99
.Ss JSON fields
.Bl -tag -width Ds
.It Li dice , dark , read , outcome
The faces, whether the lowest was read, the face read and the omen.
.El
"""

GRAMMAR_SECTION = """## omens

```ebnf
statement = "omen" [ number ] [ "dark" ] ;
```

A 6 read is `blessed`, 2 or less `cursed`, else `uncertain`. JSON: `dice`, `dark`, `read`, `outcome`.

"""


def add_the_rule_set(tree: Path) -> None:
    """The four touches, and nothing else."""
    folder = tree / "crux_cli" / "rulesets" / "omens"
    folder.mkdir()
    for name, text in FOLDER.items():
        (folder / name).write_text(text)
    registry = tree / "crux_cli" / "rulesets" / "__init__.py"
    text = registry.read_text()
    start = text.index("BUILT_IN: dict[")
    end = text.index("\n}\n", start) + 1
    registry.write_text(text[:end] + REGISTRY_LINE + text[end:])
    page = tree / "man" / "crux-notation.7"
    text = page.read_text()
    at = text.index(".Sh DICE EXPRESSIONS")  # after the other rule sets' sections
    text = text[:at] + NOTATION_SECTION + text[at:]
    listed = text.index(".Sh RULE SETS")
    at = text.index(".El\n", listed)  # after the last item of the RULE SETS list
    page.write_text(text[:at] + NOTATION_ITEM + text[at:])
    grammar = tree / "grammar" / "rulesets.md"
    text = grammar.read_text()
    at = text.index("## Odds JSON")
    grammar.write_text(text[:at] + GRAMMAR_SECTION + text[at:])


@pytest.mark.slow  # runs some 1,800 tests in a copy of the repository (a minute or more)
def test_a_rule_set_needs_its_folder_one_registry_line_and_its_docs(tmp_path: Path) -> None:
    tree = tmp_path / "crux"
    shutil.copytree(ROOT, tree, ignore=LEFT_BEHIND)
    add_the_rule_set(tree)
    # the copy's crux_cli, for pytest's process and for the `crux` the completion scripts ask
    env = {**{k: v for k, v in os.environ.items() if k not in ("CRUX_RULES", "CRUX_SHEET")},
           "PYTHONPATH": str(tree), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    where = subprocess.run([sys.executable, "-c", "import crux_cli.rulesets as r; print(r.__file__, *r.BUILT_IN)"],
                           capture_output=True, text=True, env=env, cwd=tree, check=True).stdout.split()
    assert Path(where[0]).is_relative_to(tree) and "omens" in where[1:]
    said = subprocess.run(["crux", "--rules", "omens", "--seed", "1", "omen 3"], capture_output=True, text=True,
                          env=env, cwd=tree, timeout=30)
    assert said.returncode == 0 and re.fullmatch(r"omen 3: (blessed|uncertain|cursed) \(\d\) · 3d6 .*\n", said.stdout)
    keep_a_sheet_and_a_fight(tree, {**env, "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)})
    checked = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy")],
                             capture_output=True, text=True, env=env, cwd=tree, timeout=900)
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]  # --strict, as pyproject.toml says

    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-m", "not slow", "-p", "no:cacheprovider",
                           *RULE_SET_TESTS], capture_output=True, text=True, env=env, cwd=tree, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout)


# In the copy: a seer's sheet written, rolled on (a cursed omen costs a luck) and read back; a vigil begun on it,
# watched, saved to a file and taken up again from it. Nothing of omens is outside its folder.
SHEET = """
import crux_cli
from crux_cli.rulesets.omens.sheet import Seer

crux_cli.write_sheet("seer.toml", Seer(name="Mira"))
"""
FIGHT = """
import os

import crux_cli
from crux_cli.core.style import PLAIN
from crux_cli.repl.app import new_session
from crux_cli.running.settings import Settings

print(crux_cli.read_sheet(open("seer.toml").read()))
session = new_session(Settings(rules="omens", sheet="seer.toml", seed=2), PLAIN)
print(session.handle("vigil"), session.handle("watch"))
fight = session.fight
session.fighting.save_fight("vigil.toml", fight)
resumed = session.handle("vigil vigil.toml")
print(resumed, session.fight.ledger_json() == fight.ledger_json(), os.path.samefile(session.fight.sheets["Mira"],
                                                                                   "seer.toml"), fight)
"""


def keep_a_sheet_and_a_fight(tree: Path, env: dict[str, str]) -> None:
    def run(*command: str) -> str:
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tree, timeout=60)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    run(sys.executable, "-c", SHEET)
    rolled = run("crux", "--sheet", "seer.toml", "--seed", "1", "omen 12 dark")
    assert re.fullmatch(r"omen 12 dark: cursed \(\d\) · 12d6 .* lowest · Mira: luck 3 → 2\n", rolled)
    assert (tree / "seer.toml").read_text().startswith("# A seer: a cursed omen")  # its comment kept
    seer, vigil, resumed = run(sys.executable, "-c", FIGHT).splitlines()
    assert seer == "Seer(name='Mira', rules='omens', luck=2)"
    assert vigil.startswith("['Mira begins a vigil'] ['omen: ")
    assert resumed.startswith('["the vigil resumes: Mira\'s vigil: 1 watches')
    assert " True True Vigil(seer='Mira'" in resumed  # what was saved is what was taken up


def test_the_throwaway_rule_set_is_not_in_this_repository() -> None:
    """What the test above adds exists only in its copy."""
    from crux_cli import rulesets

    assert "omens" not in rulesets.BUILT_IN
    assert not (ROOT / "crux_cli" / "rulesets" / "omens").exists()
    page = (ROOT / "man" / "crux-notation.7").read_text()
    assert "OMENS STATEMENTS" not in page and ".It Cm omens" not in page
