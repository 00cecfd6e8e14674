"""The kindred rule sets' odds count their dice rather than roll them (issue 27), as `crux odds` of dice and of
the crux rule set's statements do (tests/test_odds_hostile.py): past the roll's dice limits (1,000 dice, 10,000
sides) a statement whose exact odds are cheap is answered, exactly; one whose odds would be costly is refused
by the odds limit at once, with a hint that rolling it is refused too; and rolling the same text is refused as
before, in the same process after its odds too.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from helpers import CRUX, counting, crux_here

from crux_cli.core.errors import LimitError
from crux_cli.core.style import PLAIN
from crux_cli.probability.result import distribution_of
from crux_cli.running.output import odds_lines
from crux_cli.running.runner import Runner

REFUSAL_CALLS = 200_000  # function calls before a refusal (counted, never timed: the same on a busy machine)
ANSWER_MB = 200  # the 2 s of CPU the odds promise are timed by tests/bench/bench_limits.py

# (rule set, statement past a roll's dice limits whose exact odds are cheap, what a roll of it is refused with)
PAST_THE_ROLL = [
    ("stepdice", "atk d20000", "a die may have at most 10,000 sides (the limit)"),
    ("stepdice", "atk 1001d12 armor 1 grit 2 str d8", "1,001 dice is more than 1,000 (the limit)"),
    ("stepdice", "atk 600d6 600d8 enhanced", "an attack may roll at most 1,000 dice (the limit)"),
    ("d20check", "damage d20000 +5 armor 10", "a die may have at most 10,000 sides (the limit)"),
    ("d20check", "damage 1001d6 weak", "1,001 dice is more than 1,000 (the limit)"),
    ("challenge", "action 1001 adv major", "a challenge roll may roll at most 1,000 dice (the limit)"),
    ("challenge", "resist 5000", "a challenge roll may roll at most 1,000 dice (the limit)"),
    ("challenge", "fortune 999 adv adv", "a challenge roll may roll at most 1,000 dice (the limit)"),
]


@pytest.mark.parametrize(("rules", "text", "refusal"), PAST_THE_ROLL, ids=[f"{r}:{t}" for r, t, _ in PAST_THE_ROLL])
def test_the_dice_limits_guard_rolling_not_counting(rules: str, text: str, refusal: str) -> None:
    rolled = crux_here("--rules", rules, text)
    assert rolled.returncode == 2 and refusal in rolled.stderr and "^" in rolled.stderr
    odds = crux_here("--rules", rules, "odds", text)
    assert odds.returncode == 0 and odds.stdout.startswith(f"{text}: exact odds"), odds.stderr
    assert crux_here("--rules", rules, "--json", "odds", text).returncode == 0
    batch = crux_here("--rules", rules, "-", stdin=f"odds {text}\n{text}\nodds {text}\n")
    assert batch.stdout.count(f"{text}: exact odds") == 2
    assert batch.stderr.startswith("crux: line 2: error: ") and refusal in batch.stderr


def odds_of(rules: str, text: str) -> Runner:
    return Runner(rules=rules).odds(text).result


def test_a_large_challenge_pool_is_exact() -> None:
    n = 1500  # fortune 1499 adv: 1,500 dice
    odds = odds_of("challenge", "fortune 1499 adv")
    no_six, miss = Fraction(5, 6) ** n, Fraction(1, 2) ** n
    one_six = n * Fraction(1, 6) * Fraction(5, 6) ** (n - 1)
    assert dict(odds.outcomes) == {"critical": 1 - no_six - one_six, "strong hit": one_six,
                                   "weak hit": no_six - miss, "miss": miss}
    grit = dict(odds_of("challenge", f"resist {n}").table("grit").rows)
    assert grit == {"0": 1 - no_six - one_six, "1": no_six + one_six}


def test_many_d20check_damage_dice_are_the_binomial_sum() -> None:
    n, flat, armor = 1200, -1000, 150  # damage = max(0, total - 1000 - 150), the total of 1,200 d2 (1200 to 2400)
    odds = odds_of("d20check", f"damage {n}d2 {flat} armor {armor}")
    expected: Counter[int] = Counter()
    for twos in range(n + 1):
        expected[max(0, n + twos + flat - armor)] += comb(n, twos)
    assert list(distribution_of(odds.distribution)) == [(v, Fraction(w, 2**n)) for v, w in sorted(expected.items())]
    assert odds.outcome("unharmed") == Fraction(expected[0], 2**n)
    assert odds.mean == Fraction(sum(v * w for v, w in expected.items()), 2**n)


def test_a_d20check_die_past_the_sides_limit_is_uniform() -> None:
    odds = odds_of("d20check", "damage d20000 +5 armor 10")  # 6..20005 less 10: 0 on 1 to 5
    rows = list(distribution_of(odds.distribution))
    assert rows[0] == (0, Fraction(5, 20000)) and rows[1:] == [(v, Fraction(1, 20000)) for v in range(1, 19996)]
    assert odds.outcome("harmed") == Fraction(19995, 20000)


def test_many_stepdice_attack_dice_are_the_highest_of_all() -> None:
    n = 1200
    odds = odds_of("stepdice", f"atk {n}d6 armor 1 grit 2 str d8")
    at_most = [Fraction(v, 6) ** n for v in range(7)]
    top = {v: at_most[v] - at_most[v - 1] for v in range(1, 7)}  # the highest face
    assert list(distribution_of(odds.distribution)) == [(v - 1, top[v]) for v in range(1, 7)]  # armour 1 takes 1 off
    direct = {damage - 2: p for damage, p in ((v - 1, top[v]) for v in range(4, 7))}  # Grit 2 takes the rest
    expected = {"deflected": top[1], "dodged": top[2] + top[3],
                # the STR d8 against the Direct Damage: won above it, tied on it, lost below
                "minor": sum(p * Fraction(8 - d, 8) for d, p in direct.items()),
                "critical": sum(p * Fraction(1, 8) for p in direct.values()),
                "incapacitated": sum(p * Fraction(d - 1, 8) for d, p in direct.items()), "dead": Fraction(0)}
    assert dict(odds.outcomes) == expected


def test_a_stepdice_attack_die_past_the_sides_limit_is_uniform() -> None:
    odds = odds_of("stepdice", "atk d20000 armor 3 grit 5")
    assert dict(odds.outcomes) == {"deflected": Fraction(3, 20000), "dodged": Fraction(5, 20000),
                                   "direct": Fraction(19992, 20000)}
    assert odds.mean == Fraction(sum(range(1, 19998)), 20000)


COSTLY = [
    ("stepdice", "atk 1000000000d2"), ("stepdice", "atk d1000000000"), ("stepdice", "atk 100000d12 str d8"),
    ("stepdice", "atk 5000d2000"), ("d20check", "damage 1000000000d6"), ("d20check", "damage d1000000000"),
    ("d20check", "damage 10000d10000 weak"), ("challenge", "action 1000000000"), ("challenge", "resist 1000000"),
    ("challenge", "fortune 300000 adv"),
]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize(("rules", "text"), COSTLY, ids=[f"{r}:{t}" for r, t in COSTLY])
def test_past_the_dice_limits_the_odds_limit_refuses_at_once(rules: str, text: str, as_json: bool) -> None:
    runner = Runner(rules=rules)
    runner.odds(text.split()[0] + " 6" if rules == "challenge" else "atk d6" if rules == "stepdice" else "damage d6")
    with counting() as work, pytest.raises(LimitError) as refused:
        odds_lines(runner.odds(text, exact=as_json), PLAIN, as_json)
    assert work.calls < REFUSAL_CALLS
    assert "odds size limit" in refused.value.message
    assert refused.value.position is not None and refused.value.position > 0  # at the dice past the limit
    assert refused.value.hint is not None and "rolling it still works" not in refused.value.hint
    assert refused.value.hint.endswith("a roll of it passes the dice limits too")
    with pytest.raises(LimitError, match=r"\(the limit\)"):
        runner.execute(text)


def test_a_refusal_of_costly_odds_is_for_people() -> None:
    refused = crux_here("--rules", "challenge", "odds", "action 1000000000")
    assert refused.returncode == 2 and refused.stdout == ""
    lines = refused.stderr.splitlines()
    assert lines[0].startswith("crux: error: these exact odds pass the odds size limit")
    assert lines[1:] == ["  action 1000000000", "         ^",
                         "  hint: ask for fewer dice; a roll of it passes the dice limits too"]


# Near the odds limit on either side, where a prediction that missed by much would show: answered ones are
# weighed as whole commands (start-up included), the others refused (and timed by tests/bench/bench_limits.py).
NEAR_THE_LIMIT = [
    ("stepdice", "atk d300000"), ("stepdice", "atk 30000d12 str d8"), ("stepdice", "atk 1000d2000 str d8"),
    ("stepdice", "atk 2500d2000"), ("stepdice", "atk d150000 armor 2"), ("d20check", "damage 1000d100 armor 3"),
    ("d20check", "damage 1d300000"), ("d20check", "damage 3000d6 weak"), ("d20check", "damage 2000d20"),
    ("challenge", "resist 90000"), ("challenge", "action 60000 adv"), ("challenge", "fortune 120000"),
]


# A process forked from this one would report this one's memory as its own peak (Linux keeps the larger of the
# two across fork and exec), so each command is started by a small process of its own, which reports it.
LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
said = child.stderr.read()
_, status, usage = os.wait4(child.pid, 0)
sys.stderr.write(said.decode())
print(os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
"""


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize(("rules", "text"), NEAR_THE_LIMIT, ids=[f"{r}:{t}" for r, t in NEAR_THE_LIMIT])
def test_odds_near_the_limit_answer_within_200_mb_or_are_refused(rules: str, text: str,
                                                                         as_json: bool) -> None:
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    launched = subprocess.run([sys.executable, "-c", LAUNCHER, *command, "--rules", rules,
                               *(["--json"] if as_json else []), "odds", text], capture_output=True, text=True,
                              timeout=60)
    code, _, peak_mb = launched.stdout.split()
    stderr = launched.stderr
    assert int(code) in (0, 2) and "Traceback" not in stderr and "internal error" not in stderr
    if int(code) == 2:
        assert "odds size limit" in stderr, stderr
        assert refusal_calls(rules, text, as_json) < REFUSAL_CALLS
    else:
        assert float(peak_mb) < ANSWER_MB, f"{peak_mb} MB"


def refusal_calls(rules: str, text: str, as_json: bool) -> int:
    runner = Runner(rules=rules)
    with counting() as work, pytest.raises(LimitError):
        odds_lines(runner.odds(text, exact=as_json), PLAIN, as_json)
    return work.calls
