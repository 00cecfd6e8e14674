"""Random tables (issue 24): TOML files a GM writes, `table NAME` in every rule set, exact odds of each row equal to
enumeration, nested tables and inline rolls, and every kind of bad file refused with its path, line and reason."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import crux_here
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crux_cli
from crux_cli.core.errors import CruxError
from crux_cli.core.rng import ScriptedSource
from crux_cli.running.runner import Runner

LOOT = """\
# tables/loot.toml
die = "1d6"                 # optional; without it, one die over the rows' weights
[[rows]]
roll = "1-3"
text = "{2d6} copper pieces"
[[rows]]
roll = "4-5"
text = "a potion of healing"
[[rows]]
roll = "6"
table = "gems"              # roll on tables/gems.toml
"""
GEMS = """\
[[rows]]
weight = 3
text = "a chip of quartz worth {1d4} sp"
[[rows]]
weight = 1
text = "a ruby worth 50 gp"
"""


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "loot.toml").write_text(LOOT)
    (folder / "gems.toml").write_text(GEMS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return folder


def answer(statement: str, faces: list[int], rules: str = "crux"):
    source = ScriptedSource(faces)
    [result] = Runner(rules=rules, source=source).execute(statement)
    assert source.left == 0
    return result.result


def test_the_issues_table_works_as_written(tables: Path) -> None:
    result = answer("table loot", [2, 3, 4])
    assert (result.row.span, result.text, [n for n, _ in result.inline]) == ("1–3", "7 copper pieces", ["2d6"])
    assert answer("table loot", [5]).text == "a potion of healing"
    nested = answer("table loot", [6, 4])
    assert nested.nested is not None and nested.nested.text == "a ruby worth 50 gp" and nested.nested.total == 4
    quartz = answer("table loot", [6, 2, 3]).nested
    assert quartz is not None and quartz.text == "a chip of quartz worth 3 sp"


def test_every_rule_set_has_tables(tables: Path) -> None:
    for rules in ("crux", "stepdice", "d20check", "challenge"):
        assert answer("table loot", [4], rules=rules).text == "a potion of healing"


def test_text_json_and_odds(tables: Path) -> None:
    done = crux_here("--no-color", "--seed", "6", "table loot")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("table loot: ")
    record = json.loads(crux_here("--json", "--seed", "6", "table loot").stdout)
    assert {"kind", "table", "file", "die", "total", "dice", "row", "text", "inline"} <= set(record)
    assert record["kind"] == "table" and record["die"] == "1d6" and record["file"].endswith("loot.toml")
    odds = crux_cli.odds("table loot")
    assert list(odds.outcomes.values()) == [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
    assert list(crux_cli.odds("table gems").outcomes.values()) == [Fraction(3, 4), Fraction(1, 4)]
    assert json.loads(crux_here("--json", "odds", "table loot").stdout)["outcomes"]["6: → gems"]["p"] == "1/6"


def test_a_batch_and_the_api_read_tables_too(tables: Path) -> None:
    done = crux_here("--seed", "1", "-", stdin="table loot\ntable gems\n")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2
    assert crux_cli.roll("table gems", seed=1).kind == "table"


def test_the_search_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, campaign, here = tmp_path / "data", tmp_path / "campaign", tmp_path / "here"
    for folder, text in ((data / "crux" / "tables", "from data"), (campaign / "tables", "from the campaign"),
                         (here / "tables", "from here")):
        folder.mkdir(parents=True)
        (folder / "t.toml").write_text(f'[[rows]]\nroll = "1"\ntext = "{text}"\n')
    sheet = campaign / "wren.toml"
    assert crux_here("sheet", "new", str(sheet), "--name", "Wren").returncode == 0
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.chdir(here)
    assert crux_cli.roll("table t").text == "from here"
    (here / "tables" / "t.toml").unlink()
    assert crux_cli.roll("table t", sheet=str(sheet)).text == "from the campaign"
    assert crux_cli.roll("table t").text == "from data"


BAD = [
    ("malformed", "[[rows]]\nroll = 1-2\n", "line 2: the table is not valid TOML"),
    ("gap", 'die = "1d6"\n[[rows]]\nroll = "1-2"\ntext = "x"\n[[rows]]\nroll = "4-6"\ntext = "y"\n',
     "no row covers 3"),
    ("overlap", '[[rows]]\nroll = "1-2"\ntext = "x"\n[[rows]]\nroll = "2-4"\ntext = "y"\n',
     "line 4: the rows 1–2 and 2–4 overlap"),
    ("unknown", '[[rows]]\nroll = "1-2"\ntable = "nowhere"\n',
     "line 1: row 1 rolls on the table 'nowhere', which is not"),
    ("cycle", '[[rows]]\nroll = "1"\ntable = "cycle"\n', "which leads back here"),
    ("out", 'die = "2d6"\n[[rows]]\nroll = "2-12"\ntext = "x"\n[[rows]]\nroll = 13\ntext = "y"\n',
     "line 5: the row 13 can never be rolled"),
    ("mixed", '[[rows]]\nroll = "1"\ntext = "x"\n[[rows]]\nweight = 2\ntext = "y"\n',
     "line 4: row 2 has a weight where the others have a roll"),
    ("key", '[[rows]]\nroll = "1"\ntxt = "x"\n', "line 1: row 1 has no key 'txt'"),
    ("top", 'dice = "1d6"\n[[rows]]\nroll = "1"\ntext = "x"\n', "line 1: a table has no key 'dice'"),
    ("norows", 'die = "1d6"\n', "the table has no [[rows]]"),
    ("empty", '[[rows]]\nroll = "1"\n', "neither text nor table"),
    ("inline", '[[rows]]\nroll = "1"\ntext = "{2d6 goblins"\n', "never closed"),
    ("inline2", '[[rows]]\nroll = "1"\ntext = "{9d0} goblins"\n', "the inline roll {9d0} is refused"),
    ("badweight", '[[rows]]\nweight = 0\ntext = "x"\n', "a weight is a whole number"),
    ("baddie", 'die = "2d"\n[[rows]]\nroll = "1"\ntext = "x"\n', "line 1: die:"),
    ("backwards", '[[rows]]\nroll = "3-1"\ntext = "x"\n', "runs backwards"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_table_is_refused_with_its_file_line_and_reason(tables: Path, name: str, content: str,
                                                                message: str) -> None:
    (tables / f"{name}.toml").write_text(content)
    with pytest.raises(CruxError) as refused:
        crux_cli.roll(f"table {name}")
    assert str(tables / f"{name}.toml") in refused.value.message and message in refused.value.message
    done = crux_here(f"table {name}")
    assert done.returncode == 2 and "Traceback" not in done.stderr and message in done.stderr


@pytest.mark.parametrize(("statement", "message"), [("table", "which table?"), ("table lot", "did you mean 'loot'"),
                                                    ("table ../etc/passwd", "is not a table name"),
                                                    ("table loot now", "does not take 'now'")])
def test_a_bad_statement_is_refused(tables: Path, statement: str, message: str) -> None:
    done = crux_here(statement)
    assert done.returncode == 2 and message in done.stderr


def test_a_cycle_through_two_tables(tables: Path) -> None:
    (tables / "a.toml").write_text('[[rows]]\nroll = "1"\ntable = "b"\n[[rows]]\nroll = "2"\ntext = "z"\n')
    (tables / "b.toml").write_text('[[rows]]\nroll = "1-2"\ntable = "a"\n')
    with pytest.raises(CruxError, match="leads back here"):
        crux_cli.roll("table a")


ROWS = st.lists(st.integers(1, 4), min_size=1, max_size=5)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ROWS, st.sampled_from(["", "1d6", "2d4", "1d4+1d6"]), st.booleans())
def test_odds_and_rolls_equal_enumeration(tables: Path, sizes: list[int], die: str, weighted: bool) -> None:
    """A table over `die` cut into rows of these sizes (or weighted by them): each row's probability is the share
    of the die's outcomes that fall in it, counted face by face; and a scripted roll lands in that row."""
    import itertools

    faces = {"1d6": [range(1, 7)], "2d4": [range(1, 5)] * 2, "1d4+1d6": [range(1, 5), range(1, 7)]}
    if weighted or not die:
        die = ""
        outcomes = list(range(1, sum(sizes) + 1))
        rolls = [[total] for total in outcomes]
        content = "".join(f'[[rows]]\nweight = {n}\ntext = "row {i}"\n' for i, n in enumerate(sizes)) if weighted \
            else "".join(f'[[rows]]\nroll = "{sum(sizes[:i]) + 1}-{sum(sizes[:i + 1])}"\ntext = "row {i}"\n'
                         for i in range(len(sizes)))
    else:
        rolls = [list(f) for f in itertools.product(*faces[die])]
        outcomes = [sum(f) for f in rolls]
        low, high = min(outcomes), max(outcomes)
        cuts = [low]
        for n in sizes:
            cuts.append(min(cuts[-1] + n, high + 1))
        cuts[-1] = high + 1
        cuts = sorted(set(cuts))
        content = f'die = "{die}"\n' + "".join(f'[[rows]]\nroll = "{a}-{b - 1}"\ntext = "row {i}"\n'
                                               for i, (a, b) in enumerate(itertools.pairwise(cuts)))
    (tables / "t.toml").write_text(content)
    odds = crux_cli.odds("table t")
    table = answer("table t", rolls[0]).table
    expected: dict[int, Fraction] = {}
    for roll, total in zip(rolls, outcomes, strict=True):
        index = table.row_for(total)
        expected[index] = expected.get(index, Fraction(0)) + Fraction(1, len(rolls))
        assert answer("table t", roll).row == table.rows[index]
    assert [p for _, p in odds.odds.outcomes] == [expected.get(i, Fraction(0)) for i in range(len(table.rows))]


def test_the_example_tables_of_the_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """grammar/tables/ holds the two tables crux-notation(7) shows; they read, roll and give their odds."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "grammar" / "tables", tmp_path / "tables")
    monkeypatch.chdir(tmp_path)
    page = (root / "man" / "crux-notation.7").read_text()
    for name in ("loot", "gems"):
        body = [line for line in (tmp_path / "tables" / f"{name}.toml").read_text().splitlines()
                if not line.startswith("#")]
        assert all(line.split("#")[0].strip() in page for line in body), name
    odds = crux_cli.odds("table gems")
    assert list(odds.outcomes.values()) == [Fraction(6, 10), Fraction(3, 10), Fraction(1, 10)]
    for seed in range(30):
        result = crux_cli.roll("table loot", seed=seed)
        assert "{" not in result.text


def test_tab_completes_table_names_and_the_word_table(tables: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from crux_cli.repl.completer import CruxCompleter
    from crux_cli.repl.session import Session

    completer = CruxCompleter(Session(Runner()))

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("table ") == ["gems", "loot"] and complete("table l") == ["loot"]
    assert "table" in complete("tab") and complete("table loot ") == []


def test_hostile_tables_are_refused_quickly(tables: Path) -> None:
    from helpers import counting

    (tables / "many.toml").write_text("".join('[[rows]]\nweight = 1\ntext = "' + "{1}" * 200 + '"\n'
                                              for _ in range(300)))
    (tables / "heavy.toml").write_text('[[rows]]\nweight = 10001\ntext = "x"\n')
    with counting() as work:
        for name, message in (("many", "inline rolls"), ("heavy", "a weight is a whole number from 1 to 10,000")):
            with pytest.raises(CruxError, match=message):
                crux_cli.roll(f"table {name}")
    assert work.calls < 700_000  # about 67,000


# -- hostile table files (issue 37, Low) ----------------------------------------------------------------------


def test_a_table_nested_fifty_thousand_brackets_deep_is_refused_plainly(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "deep.toml").write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(crux_cli.CruxError, match="nested too deeply") as refused:
        crux_cli.roll("table deep")
    assert "RecursionError" not in refused.value.message


def test_a_table_link_out_of_its_folder_is_refused_and_nothing_of_its_target_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "private.toml"
    secret.write_text('token = "s3cr3t-value"\n[[rows]]\nroll = "1"\ntext = "s3cr3t-row"\n', encoding="utf-8")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "x.toml").symlink_to(secret)
    (tmp_path / "tables" / "loot.toml").write_text('[[rows]]\nroll = "1"\ntext = "a coin"\n', encoding="utf-8")
    (tmp_path / "tables" / "alias.toml").symlink_to(tmp_path / "tables" / "loot.toml")  # inside: allowed
    monkeypatch.chdir(tmp_path)
    with pytest.raises(crux_cli.CruxError, match="symbolic link out of its tables folder") as refused:
        crux_cli.roll("table x")
    assert "s3cr3t" not in crux_cli.format_error(refused.value)
    assert crux_cli.roll("table alias", seed=1).text == "a coin"


def test_a_file_that_is_no_table_is_refused_without_showing_its_keys_or_values(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "cfg.toml").write_text('password = "hunter2"\n[server]\nhost = "h"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(crux_cli.CruxError, match="not a table file") as refused:
        crux_cli.roll("table cfg")
    shown = crux_cli.format_error(refused.value)
    assert "hunter2" not in shown and "password" not in shown and "server" not in shown
