"""Small things seen at the table (issue 36), each with its ruling: hints that say what to write instead,
help and prompts that read as the rest, and limits that depend on the statement alone."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import CruxError
from crux_cli.running.runner import Runner


def refusal(statement: str, rules: str = "crux") -> CruxError:
    with pytest.raises(CruxError) as refused:
        Runner(rules=rules).answer(statement)
    return refused.value


@pytest.mark.parametrize(("statement", "written"), [
    ("1d20+3 adv vs 15", "2d20kh1+3 vs 15"),
    ("d20 + 5 advantage", "2d20kh1 + 5"),
    ("1d20+2 dis", "2d20kl1+2"),
])
def test_adv_after_dice_is_refused_with_the_dice_advantage_rolls(statement: str, written: str) -> None:
    refused = refusal(statement)
    assert "does not take" in refused.message
    assert refused.hint is not None and refused.hint.endswith(written), refused.hint
    assert Runner().answer(written).result is not None  # the hint's statement reads


def test_adv_with_no_single_d20_still_says_how_to_write_it() -> None:
    assert "2d20kh1+3 vs 15" in (refusal("2d20 adv").hint or "")


@pytest.mark.parametrize(("statement", "written"), [
    ("DEX + 1d20", "1d20 + DEX"), ("str+2d6+1", "2d6+1 + str"), ("WIL - 1d4", "-1d4 + WIL")])
def test_an_attribute_before_dice_is_refused_with_the_dice_first(statement: str, written: str) -> None:
    refused = refusal(statement)
    assert refused.message.startswith("a test does not take")
    assert "write the dice first" in (refused.hint or "") and (refused.hint or "").endswith(written), refused.hint


def test_dice_first_reads_with_a_sheets_value() -> None:
    refused = refusal("1d20 + DEX")  # no sheet: the value is asked for, the order is right
    assert "no sheet is loaded" in refused.message


def test_a_test_with_a_plain_number_keeps_its_own_hint() -> None:
    assert "dice first" not in (refusal("DEX + 3").hint or "")


def test_help_summaries_wrap_under_their_own_column() -> None:
    """`/help` in a narrow terminal: a summary's continuation lines hang under the summary, not at column 4."""
    from crux_cli.core.columns import width
    from crux_cli.repl.pager import wrap
    from crux_cli.repl.session import Session

    lines = Session(Runner()).handle("/help")
    load = next(line for line in lines if line.startswith("  /load FILE"))
    column = load.index("Load")
    wrapped = wrap(load, 60)
    assert len(wrapped) > 1 and all(width(line) <= 60 for line in wrapped)
    assert all(line[:column].isspace() and not line[column].isspace() for line in wrapped[1:]), wrapped
    long_usage = lines.index("  /countdown [add Cd8 [LABEL] | clear [LABEL]]") + 1  # its summary on the next line
    wrapped = wrap(lines[long_usage], 70)
    summary_at = len(lines[long_usage]) - len(lines[long_usage].lstrip())
    assert len(wrapped) > 1 and all(len(line) - len(line.lstrip()) == summary_at for line in wrapped), wrapped
    assert wrap("  hint: " + "word " * 20, 40)[1].startswith("    word")  # a plain line: 2 past its indent


def test_wound_cap_is_refused_past_6_where_it_is_given_and_its_help_says_so(tmp_path) -> None:
    """Seed §9.2: "6 Wounds = death (or a lower cap for a grittier game)": the flag took 1-100, then the sheet
    it had just written was refused on reading."""
    from helpers import crux_here

    refused = crux_here("sheet", "new", str(tmp_path / "w.toml"), "--wound-cap", "7", "--name", "W", stdin="")
    assert refused.returncode == 2 and "--wound-cap takes a whole number from 1 to 6" in refused.stderr
    assert not (tmp_path / "w.toml").exists()
    assert "[1<=x<=6]" in crux_here("sheet", "new", "--help").stdout
    assert crux_here("sheet", "new", str(tmp_path / "g.toml"), "--wound-cap", "4", "--name", "G",
                     stdin="").returncode == 0


def test_crux_1_says_once_that_resuming_is_no_step_of_undo() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "man" / "crux.1").read_text()
    assert page.count("Resuming is not a step") == 1


def test_the_limits_table_of_grammar_dice_md_is_one_table() -> None:
    """A paragraph cut it in two: the rows after it were no table in a Markdown reader."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "grammar" / "dice.md").read_text()
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    blocks = [block for block in section.split("\n\n") if block.strip()]
    tables = [block for block in blocks if block.lstrip().startswith("|")]
    assert len(tables) == 1 and all(line.startswith("|") for line in tables[0].strip().splitlines())
    assert "| 100 `;`-separated statements" in tables[0] and "| 1,000 dice per statement" in tables[0]


def test_crux_log_gives_a_run_of_one_shots_one_header() -> None:
    from helpers import crux_here

    for _ in range(4):
        crux_here("d6")
    crux_here("DEX; d8")
    crux_here("d20")
    lines = crux_here("log", "-n", "15").stdout.splitlines()
    headers = [line for line in lines if line.startswith("--")]
    assert len(lines) == 7 + 3 and len(headers) == 3, lines
    assert headers[0].startswith("-- 4 sessions of one entry each (") and lines[5].startswith("-- session ")
    assert lines[8].startswith("-- session ")  # a lone one-shot: its own header, as a session


def test_an_attacks_dice_limit_depends_on_the_statement_never_on_a_crit() -> None:
    """`atk 1000d2` was answered on seed 1 and refused on seed 5 (a crit's re-rolls passed 1,000 dice)."""
    from crux_cli.core.errors import LimitError

    crits = 0
    for seed in range(40):
        answer = Runner(seed=seed).answer("atk 1000d2")
        crits += answer.result.outcome == "crit"
        with pytest.raises(LimitError):
            Runner(seed=seed).answer("atk 1000d2 +1b")  # 1,001 dice written: always refused
    assert crits > 5  # crits were rolled, with their re-rolls, and answered
    assert Runner(seed=5).answer("atk 1000d2").result.explosions  # the seed that was refused


@pytest.mark.parametrize(("statement", "depth"), [("d6!", 15), ("d20!", 9), ("3d6!", 16)])
def test_generic_explosions_say_what_their_odds_leave_out(statement: str, depth: int) -> None:
    """The cut varies by statement (the fewest re-rolls leaving under 1e-12 out, crux(1) `depth`), and the mean
    is that of the counted rows: the note says both, beside the leftover."""
    from crux_cli.core.style import PLAIN
    from crux_cli.running.output import odds_lines

    answer = Runner().odds(statement)
    assert answer.result.depth == depth and 0 < answer.result.leftover < 1e-12
    text = "\n".join(odds_lines(answer, PLAIN, False))
    assert (f"exploding chains longer than {depth} re-rolls (rolls go on to 100) are not in the table, mean or sd"
            in text)


def test_three_rulings_are_stated_and_kept() -> None:
    """`NdS!khM` keeps among the explosion dice as dice of their own, `/` rounds toward minus infinity, equal
    totals of `EXPR vs EXPR` tie: each said in crux-notation(7) and grammar/dice.md, and so rolled."""
    from pathlib import Path

    from crux_cli.core.rng import ScriptedSource

    root = Path(__file__).resolve().parent.parent
    page, notes = (root / "man" / "crux-notation.7").read_text(), (root / "grammar" / "dice.md").read_text()
    assert "may keep a 6 and the die it added" in page and "may keep a 6 and the die it added" in notes
    assert "rounds toward minus infinity" in page and "floors toward minus infinity" in notes
    assert ".Cm tie ,\nwhich neither side wins" in page and "**equal totals are a tie**" in notes
    kept = Runner(source=ScriptedSource([6, 2, 1, 5])).answer("3d6!kh2").result
    assert kept.total == 11  # the 6 and the 5 it added, kept over the first dice's 2
    assert Runner().answer("-7/2").result.total == -4 and Runner().answer("7/-2").result.total == -4
    tie = Runner(source=ScriptedSource([1, 1])).answer("1d1+4 vs 1d1+4").result
    assert tie.outcome == "tie"
