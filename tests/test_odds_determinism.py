"""The odds limit is a function of the statement alone (issue 33): the same request is answered or refused
the same way on any machine at any load. An earlier crux scaled its predictions by a timed probe of the
machine, and a busy machine refused `100d6!`, `200d6!` and `35d6000!kl35` that a quiet one answered.

The time a user is promised (every request answered or refused within 2 s on the project's machine) is a
benchmark, `tests/bench/bench_limits.py`; here the verdicts are pinned, and no clock is read to reach them.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from helpers import CRUX

from crux_cli.core.errors import LimitError
from crux_cli.core.style import PLAIN
from crux_cli.probability import cost
from crux_cli.running.output import odds_lines
from crux_cli.running.runner import Runner

# Either side of the limit, where a verdict by the machine's speed would show (answered: True)
NEAR_THE_LIMIT = {
    "100d6!": True, "200d6!": True, "35d6000!kl35": True, "1000d60": True, "atk d20000": True,
    "DEX +70000b": True, "300d6+300d8": False, "1000d6kh500": False, "DEX +100000b": False,
    "500d100kh250": False, "1000d6+1000d6": False,
}
KINDRED = {("stepdice", "atk 1000d2000 str d8"): True, ("d20check", "damage 1000d100 armor 3"): True,
           ("challenge", "resist 50000"): True, ("challenge", "resist 90000"): False}


def verdict(text: str, rules: str = "crux") -> str:
    try:
        return "\n".join(odds_lines(Runner(rules=rules).odds(text), PLAIN, False))
    except LimitError as error:
        return "refused: " + error.message


@pytest.mark.parametrize(("text", "answered"), NEAR_THE_LIMIT.items())
def test_near_the_limit_the_verdict_is_the_statements_own(text: str, answered: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """No clock is read on the way to a verdict: every clock raises while the odds are worked out."""

    def no_clock() -> float:
        raise AssertionError("the odds read a clock")

    for name in ("process_time", "perf_counter", "monotonic", "time", "thread_time"):
        monkeypatch.setattr(time, name, no_clock)
    said = verdict(text)
    monkeypatch.undo()
    assert said.startswith("refused: ") is not answered, said


def test_a_refusal_says_the_same_time_everywhere() -> None:
    """The figure in a refusal is the prediction in seconds of the project's machine (cost.SPEED), a constant."""
    assert "would take about 1.11 s, where the limit is 0.75 s" in verdict("1000d6kh500")
    assert cost.here(1.0) == cost.SPEED


def test_a_comparison_is_held_to_its_limit_by_predicted_work() -> None:
    """`A; B; C` stops at COMPARE_SECONDS of the statements' predicted work, not of CPU time."""
    runner = Runner()
    near = "; ".join(["200d6!"] * 10)  # each well under the limit, together past the comparison's
    with pytest.raises(LimitError, match="odds limit of a comparison") as refused:
        runner.odds(near)
    again = pytest.raises(LimitError, match="odds limit of a comparison")
    with again as refused_again:
        Runner().odds(near)
    assert refused.value.position == refused_again.value.position  # the same statement refused, every time
    assert len(runner.odds("; ".join(["3d6"] * 10)).result.odds) == 10


BUSY = "while True: pass"


@pytest.mark.slow
def test_the_same_requests_under_two_busy_loops_give_the_same_answers() -> None:
    """Whole commands, first on a machine as it is, then with two busy loops on its two cores."""
    command = [str(CRUX)] if CRUX.exists() else [sys.executable, "-m", "crux_cli"]
    requests = [["odds", text] for text in NEAR_THE_LIMIT] + [["--rules", rules, "odds", text]
                                                              for rules, text in KINDRED]

    def answers() -> list[tuple[int, str, str]]:
        done = [subprocess.run([*command, *request], capture_output=True, text=True, timeout=300)
                for request in requests]
        return [(d.returncode, d.stdout, d.stderr) for d in done]

    quiet = answers()
    loops = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        busy = answers()
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    assert busy == quiet
    expected = [*NEAR_THE_LIMIT.values(), *KINDRED.values()]
    assert [code for code, _, _ in quiet] == [0 if answered else 2 for answered in expected]
