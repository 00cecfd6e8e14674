"""A typed client and a typed plug-in, written from crux-python(7) alone, pass `mypy --strict` against the INSTALLED
WHEEL (built from this tree, installed into a fresh environment; the files checked sit outside the source tree), as
a user's project meets crux: each answer's fields typed, a misspelt field an error, a hero's fields typed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The examples of crux-python(7) as a typed client writes them (TYPES says how a caller narrows what may be None
# or one of several answers). A line ending `# error` is one mypy must refuse; every other line must pass.
CLIENT = '''\
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import crux_cli

r = crux_cli.roll("DEX +2b", seed=3)
outcome: str = r.outcome
dice: tuple[int, ...] | object = r.dice
kept: int | None = r.kept
total: int = crux_cli.roll("4d6kh3", seed=1).total
totals = [each.total for each in crux_cli.rolls("6x 4d6kh3", seed=1) if isinstance(each, crux_cli.RollResult)]
kinds: list[str] = [each.kind for each in crux_cli.rolls("DEX; atk d8 # goblin", seed=1)]
line: str = str(r) + r.to_json()
damage: int = crux_cli.roll("atk d8", seed=1).damage
test, chances = crux_cli.rolls("DEX; odds 2d6", seed=1)
if isinstance(chances, crux_cli.OddsResult) and chances.distribution is not None:
    seven: Fraction = chances.distribution[7]
o = crux_cli.odds("DEX +2b")
success: Fraction = o.outcomes["success"] + o.probability("failure") + o.tables["kept"]["6"]
hit = crux_cli.odds("atk 2d8+3", at_least=10)
if hit.at_least is not None:
    p: Fraction = hit.at_least.p
both = crux_cli.odds("2d6") + crux_cli.odds("1d4") + 3
volley = sum(crux_cli.odds("atk 2d8+3") for _ in range(3))
c = crux_cli.compare("2d6; 1d12")
means: tuple[Fraction | None, ...] = c.mean_differences
inputs: list[str] = [each.input for each in c]
kestrel = crux_cli.new_hero("Kestrel", attributes={"DEX": (2, 1)}, grit=2, attack="d8")
grit: int = kestrel.grit + kestrel.attribute("DEX").rating + kestrel.attack_sides
table = crux_cli.Session(hero=kestrel, seed=5)
now = table.hero
if now is not None:
    left: int = now.grit
    crux_cli.write_sheet(Path("kestrel.toml"), now)
again: int = crux_cli.read_sheet("name = 'Wren'").hp
try:
    crux_cli.roll("1001d6")
except crux_cli.LimitError as error:
    shown: str = crux_cli.format_error(error) + (error.hint or "")
r.totl  # error
r.outcom  # error
wrong: str = r.total  # error
kestrel.gritt  # error
'''

# The plug-in of crux-python(7), WRITING A RULE SET, as the complete package tests/plugin_ruleset/ holds it: it
# imports only crux_cli.plugin. Its own module is checked, and a misuse beside it is refused.
PLUGIN_MISUSE = '''\
from crux_cli.plugin import Odds, RuleSet
from coinflip.ruleset import RULESET, Flip, Flipped

flip: RuleSet[Flip, Flipped] = RULESET
statement: Flip = flip.parse("flip 3", "flip")
Odds("flip", (("all heads", "half"),))  # error
wrong: RuleSet[Flipped, Flip] = RULESET  # error
'''


def wrong_lines(text: str) -> set[int]:
    return {number for number, line in enumerate(text.splitlines(), start=1) if line.endswith("# error")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment holding the wheel built from this tree (and its dependencies): its python."""
    where = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "-w", str(where / "dist"), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next((where / "dist").glob("crux_dice-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(where / "env")], check=True, timeout=300)
    python = where / "env" / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    into = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True,
                          timeout=600)
    if into.returncode != 0:
        pytest.skip(f"the wheel's dependencies could not be installed: {into.stderr[-500:]}")
    return python


def strict(python: Path, folder: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    """mypy --strict on files of `folder`, reading crux_cli from the environment of `python` (its site-packages)."""
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                           str(python), *targets], cwd=folder, capture_output=True, text=True, timeout=600)


def errors_in(output: str, name: str) -> set[int]:
    return {int(line.split(":")[1]) for line in output.splitlines() if line.startswith(name) and ": error:" in line}


@pytest.mark.slow  # builds the wheel, installs it in a new environment, runs mypy twice: half a minute or more
def test_a_typed_client_passes_mypy_strict_against_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(CLIENT, encoding="utf-8")
    result = strict(installed, tmp_path, "client.py")
    assert errors_in(result.stdout, "client.py") == wrong_lines(CLIENT), result.stdout + result.stderr
    assert "site-packages/crux_cli" in subprocess.run(
        [str(installed), "-c", "import crux_cli.api; print(crux_cli.api.__file__)"], capture_output=True,
        text=True, cwd=tmp_path).stdout.replace("\\", "/")  # the wheel's crux, not this tree's


@pytest.mark.slow  # as above
def test_a_typed_plugin_passes_mypy_strict_against_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests" / "plugin_ruleset" / "coinflip", tmp_path / "coinflip")
    (tmp_path / "misuse.py").write_text(PLUGIN_MISUSE, encoding="utf-8")
    result = strict(installed, tmp_path, "coinflip", "misuse.py")
    assert errors_in(result.stdout, "coinflip") == set(), result.stdout + result.stderr
    assert errors_in(result.stdout, "misuse.py") == wrong_lines(PLUGIN_MISUSE), result.stdout + result.stderr


def test_the_client_runs_as_it_type_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line of the client but the misspelt ones runs (in this tree's crux)."""
    monkeypatch.chdir(tmp_path)
    runnable = "\n".join(line for line in CLIENT.splitlines() if not line.endswith("# error"))
    namespace: dict[str, object] = {}
    exec(compile(runnable, "client.py", "exec"), namespace)
    assert namespace["outcome"] in ("success", "partial", "failure") and namespace["left"] in (1, 2)  # any seed's faces
    assert (tmp_path / "kestrel.toml").is_file()
