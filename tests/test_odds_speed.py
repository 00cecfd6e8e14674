"""The odds limit scaled to the machine (issue 15): cost.py's constants are seconds on a reference
machine, and a probe measures how fast this one is, once per process and only when a prediction
comes near the limit. The probe's result is injected here, so these run in milliseconds anywhere."""

from __future__ import annotations

import pytest

from crux_cli.core.errors import LimitError
from crux_cli.probability import cost
from crux_cli.running.runner import Runner


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """A speed not yet measured, and a probe that counts its runs (a machine at the reference's speed)."""
    runs: list[float] = []

    def probe() -> float:
        runs.append(cost.PROBE_REFERENCE)
        return cost.PROBE_REFERENCE

    monkeypatch.setattr(cost, "measured_speed", None)
    monkeypatch.setattr(cost, "probe", probe)
    return runs


def at_speed(monkeypatch: pytest.MonkeyPatch, speed: float) -> None:
    monkeypatch.setattr(cost, "probe", lambda: speed * cost.PROBE_REFERENCE)
    monkeypatch.setattr(cost, "measured_speed", None)


def test_small_odds_never_run_the_probe(probes: list[float]) -> None:
    runner = Runner()
    for text in ("3d6", "4d6kh3", "d20+5", "10d6!", "atk 2d8+3"):
        runner.odds(text)
        runner.odds(text, exact=True)
    assert probes == []
    assert cost.measured_speed is None


def test_the_probe_runs_once_per_process(probes: list[float]) -> None:
    runner = Runner()
    for text in ("100d6!", "1000d60", "30d10000"):  # each near enough the limit to ask
        runner.odds(text)
    assert len(probes) == 1


def test_a_machine_three_times_as_fast_answers_what_the_reference_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """300d6+300d8 is 1.54 reference seconds, past the limit unscaled (the project's machine measures
    about three times as fast as the reference when quiet, and takes about 0.5 s for it)."""
    at_speed(monkeypatch, 1.0)
    with pytest.raises(LimitError, match=r"would take about 1\.54 s"):
        Runner().odds("300d6+300d8")
    at_speed(monkeypatch, 1 / 3)
    assert Runner().odds("300d6+300d8").result.distribution is not None


def test_a_slow_machine_refuses_sooner_and_says_how_long_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """100d6! is 0.18 reference seconds: answered at the reference's speed, refused at ten times slower."""
    at_speed(monkeypatch, 1.0)
    assert Runner().odds("100d6!").result.distribution is not None
    at_speed(monkeypatch, 10.0)
    with pytest.raises(LimitError, match=r"would take about 1\.8\d s"):
        Runner().odds("100d6!")


def test_a_probe_faster_than_believable_counts_as_the_fastest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe in a lucky quiet moment (or a coarse clock reading 0) lets through no more than
    the floor allows: 500d100kh250, 8 reference seconds, stays refused."""
    at_speed(monkeypatch, 0.0)
    assert cost.speed() == cost.FASTEST
    with pytest.raises(LimitError, match="would take about"):
        Runner().odds("500d100kh250")


def test_the_probe_is_short() -> None:
    """It measures a few hundred microseconds of work, five times: a few milliseconds at most."""
    seconds = cost.probe()
    assert 0 < seconds < 0.005
