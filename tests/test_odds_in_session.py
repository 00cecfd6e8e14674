"""`odds …` in the session as on the command line (issue 36): the statement quoted as a shell quotes it,
`--cumulative` and `--at-least K` before or after it, in a fight too, and an ambiguous name named."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest
from helpers.terminal import PROMPT, start
from test_fight_rules import fighting
from test_repl_fight import refused, said

from crux_cli.core import lines
from crux_cli.core.errors import CruxError
from crux_cli.core.style import PLAIN
from crux_cli.repl.session import Session
from crux_cli.running.output import odds_lines
from crux_cli.running.runner import Runner

README_LINE = "'1d20+5 vs 15; 2d20kh1+3 vs 15'"  # as the README's tour and crux(1) quote it for the shell


def odds_of(statement: str, at_least: int | None = None, cumulative: bool = False) -> str:
    """`crux odds [--at-least K] [--cumulative] STATEMENT`, as the command prints it."""
    return "\n".join(odds_lines(Runner().odds(statement, at_least, cumulative=cumulative), PLAIN, False))


@pytest.mark.parametrize(("body", "asked"), [
    (f" {README_LINE}", ("1d20+5 vs 15; 2d20kh1+3 vs 15", None, False)),
    (f" --cumulative {README_LINE}", ("1d20+5 vs 15; 2d20kh1+3 vs 15", None, True)),
    (" --at-least 10 atk 2d8+3", ("atk 2d8+3", 10, False)),
    (" --at-least=10 'atk 2d8+3' --cumulative", ("atk 2d8+3", 10, True)),
    (" atk ogre d8 --cumulative --at-least 4", ("atk ogre d8", 4, True)),
    (' "d20"', ("d20", None, False)),
    (" atk 'Wren of Ash' d8", ("atk 'Wren of Ash' d8", None, False)),  # a quoted name keeps its quotes
    (" 2d6 - -3", ("2d6 - -3", None, False)),
])
def test_odds_reads_the_options_and_quotes_of_crux_odds(body: str, asked: tuple[str, int | None, bool]) -> None:
    read = lines.odds_asked(body)
    assert (read.statement, read.at_least, read.cumulative) == asked
    assert body[read.start:read.start + len(read.statement)] == read.statement  # where it is, for the lexer


@pytest.mark.parametrize("body", [" --mean d6", " --at-least d6", " --at-least ten d6", " --cumulative=1 d6"])
def test_an_option_odds_does_not_take_is_refused_with_the_ones_it_does(body: str) -> None:
    with pytest.raises(CruxError) as refusal:
        lines.odds_asked(body)
    assert "--" in refusal.value.message and refusal.value.hint is not None


def test_odds_in_the_session_are_the_commands_odds_quoted_and_cumulative() -> None:
    session = Session(Runner())
    assert said(session, f"odds {README_LINE}") == odds_of("1d20+5 vs 15; 2d20kh1+3 vs 15")
    out = said(session, f"odds --cumulative {README_LINE}")
    assert out == odds_of("1d20+5 vs 15; 2d20kh1+3 vs 15", cumulative=True)
    assert "≥ it" in out
    assert said(session, "odds --at-least 10 'atk 2d8+3'") == odds_of("atk 2d8+3", at_least=10)
    assert "P(damage ≥ 10)" in said(session, "odds atk 2d8+3 --at-least 10")
    assert "odds does not take --mean" in refused(session, "odds --mean d6")


def test_odds_options_in_a_line_of_the_one_shot_and_batch() -> None:
    """`crux 'odds --cumulative 1d20+5 vs 15'` reads a line as the session does."""
    [answer] = Runner().answers("odds --cumulative '1d20+5 vs 15'")
    assert answer.result.cumulative
    [answer] = Runner().answers("odds --at-least 3 2d6")
    assert answer.result.at_least.k == 3


def test_an_alias_after_odds_options_is_expanded() -> None:
    session = Session(Runner())
    said(session, "/alias hit = atk 2d8")
    assert said(session, "odds --at-least 9 hit") == odds_of("atk 2d8", at_least=9)


def test_odds_cumulative_and_at_least_in_a_fight() -> None:
    session = fighting([5, 5], "hero Wren", "enemy ogre hp 30 heavy", "init")
    plain = said(session, "odds atk ogre d8")
    out = said(session, "odds --cumulative atk ogre d8")
    assert "Wren → ogre: atk d8 heavy" in out and "≥ it" in out and "≥ it" not in plain
    assert odds_of("atk d8 heavy", cumulative=True) in out  # the fight's statement, its rows at least and at most
    out = said(session, "odds atk ogre d8 --at-least 5")
    assert "P(damage ≥ 5) = 1/8" in out and odds_of("atk d8 heavy", at_least=5) in out
    assert "--at-least counts damage or totals" in refused(session, "odds --at-least 2 save ogre STR")


def test_odds_of_an_ambiguous_name_names_the_candidates_as_the_attack_does() -> None:
    session = fighting([5], "hero Wren", "enemy goblin hp 7", "enemy gobbo hp 7", "init")
    attack = refused(session, "atk gob d8")
    assert "'gob' could be goblin or gobbo" in attack
    for line in ("odds atk gob d8", "odds atk gob", "odds --cumulative atk gob"):
        out = refused(session, line)
        assert "'gob' could be goblin or gobbo" in out and "give more of the name" in out, line
    assert "an attack does not take 'dragon'" in refused(session, "odds atk dragon")  # names nobody: the grammar's


def test_the_ambiguity_is_the_rule_sets_own_refusal_not_a_copy_in_the_session() -> None:
    """The fight's odds raise the name rule's own refusal (fight_line.Ambiguous); the REPL keeps no second
    copy of the rule that a beginning of a name or of one of its words names a combatant."""
    from crux_cli.repl.fighting import Fighting
    from crux_cli.rulesets.crux.fight_line import Ambiguous
    from crux_cli.rulesets.crux.fights import FIGHTS

    session = fighting([5], "hero Wren", "enemy goblin hp 7", "enemy Gobbo the Large hp 9", "init")
    with pytest.raises(Ambiguous) as refusal:
        FIGHTS.odds("atk gob d8", session.fight, session.fighting, False)
    assert refusal.value.message == "'gob' could be goblin or Gobbo the Large"
    assert "Wren → Gobbo the Large: atk d8" in said(session, "odds atk lar d8")  # a word of one name alone
    assert not hasattr(Fighting, "ambiguous")


@pytest.mark.slow
def test_odds_cumulative_quoted_at_a_real_terminal(environ: dict[str, str], tmp_path: Path) -> None:
    child = start(environ, "repl", "--seed", "3")
    child.sendline("/pager off")  # the tall tables straight to the terminal
    child.expect_exact("pager: off")
    child.expect_exact(PROMPT)
    child.sendline(f"odds --cumulative {README_LINE}")
    for seen in ("exact odds compared", "≥ it", "55.00%", "69.75%"):
        child.expect_exact(seen)
    child.expect_exact(PROMPT)
    for line, seen in (("fight", "a fight begins"), ("hero Wren", "Wren joins the fight"),
                       ("enemy ogre hp 30 heavy", "ogre (30 HP, heavy) joins the fight"), ("init", "round 1")):
        child.sendline(line)
        child.expect_exact(seen)
        child.expect_exact(PROMPT)
    child.sendline("odds --cumulative atk ogre d8")
    for seen in ("Wren → ogre: atk d8 heavy", "≥ it"):
        child.expect_exact(seen)
    child.expect_exact(PROMPT)
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_line_is_judged_and_completed_after_odds_options_and_quotes() -> None:
    from crux_cli import rulesets
    from crux_cli.repl.lexer import error_span
    from crux_cli.repl.suggest import STATEMENT, suggest
    from crux_cli.rulesets.crux import words as crux

    rules = rulesets.load("crux")
    assert error_span(f"odds --cumulative {README_LINE}", rules) is None
    assert error_span("odds --at-least 3 atk 2d8 # x", rules) is None
    line = "odds --cumulative save XYZ adv"
    assert error_span(line, rules) == (line.index("XYZ"), line.index("XYZ") + 3)  # the statement's word
    assert error_span("odds --at-least ", rules) is None  # an option still being typed
    assert suggest("odds --cumulative ", rules).kinds == (STATEMENT,)
    assert suggest("odds --cumulative save ", rules).kinds == (crux.ATTRIBUTE,)


def test_help_notation_names_the_odds_options() -> None:
    assert "odds --cumulative or --at-least K" in said(Session(Runner()), "/help notation")


def test_odds_of_a_fight_roll_is_a_fight_line_to_the_lexer() -> None:
    """`odds --cumulative atk ogre d8` is not marked as an attack refusing 'ogre' while it is typed in a fight."""
    session = Session(Runner())
    assert not session.claims("odds --cumulative atk ogre d8")  # no fight: the rule set's statement
    session = fighting([5], "hero Wren", "enemy ogre hp 30", "init")
    assert session.claims("odds --cumulative atk ogre d8") and session.claims("odds atk og")
    assert not session.claims("odds 2d6")
