"""Benchmark, run on demand: the time crux promises a user for hostile and near-the-limit requests.

    python tests/bench/bench_limits.py [--only odds,calibrated,commands]

Not collected by pytest. The suite pins the verdicts and counts the work (tests/test_odds_hostile.py,
tests/test_dice_hostile.py, tests/test_odds_determinism.py), since a timed assertion fails by chance on a
busy machine; the promise in time lives here, measured on the machine at hand, and says how loaded it was:

- odds: every `crux odds` of the hostile and near-the-limit cases, text and JSON, in-process (the grammar
  loaded): answered within 2 s of CPU, refused within 0.5 s;
- calibrated: the limit's prediction (reference seconds times cost.SPEED) against the time taken, for the
  statements tools/calibrate_odds.py fits: within a factor of three either way;
- commands: the hostile dice of tests/test_dice_hostile.py and the 210 KB paste, as whole commands,
  answered or refused within 2 s of CPU, start-up included.

Exits 1 when a goal is not met. On a machine others share, run it twice and read `uptime`.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE.parent), str(HERE.parent.parent / "tools")]

from crux_cli.core.errors import CruxError, LimitError  # noqa: E402 (this checkout)
from crux_cli.core.style import PLAIN  # noqa: E402
from crux_cli.probability import cost  # noqa: E402
from crux_cli.running.output import odds_lines  # noqa: E402
from crux_cli.running.runner import Runner  # noqa: E402

ANSWER_SECONDS, REFUSAL_SECONDS, CALIBRATION = 2.0, 0.5, 3.0


def timed_odds(rules: str, text: str, exact: bool) -> tuple[str, float]:
    runner = Runner(rules=rules)
    runner.odds("1d6" if rules in ("crux", "dice") else {"stepdice": "atk d6", "d20check": "damage d6"}.get(
        rules, "resist 6"))
    start = time.process_time()
    try:
        odds_lines(runner.odds(text, exact=exact), PLAIN, exact)
        verdict = "answered"
    except LimitError:
        verdict = "limit"
    except CruxError:
        verdict = "refused"
    return verdict, time.process_time() - start


def bench_odds() -> bool:
    from test_odds_determinism import KINDRED, NEAR_THE_LIMIT
    from test_odds_hostile import CASES

    cases = [*CASES, *(("crux", text) for text in NEAR_THE_LIMIT), *KINDRED]
    worst = {"answered": (0.0, ""), "limit": (0.0, ""), "refused": (0.0, "")}
    for rules, text in cases:
        for exact in (False, True):
            verdict, seconds = timed_odds(rules, text, exact)
            if seconds > worst[verdict][0]:
                worst[verdict] = (seconds, f"{rules}: {text[:40]}{' --json' if exact else ''}")
    ok = worst["answered"][0] < ANSWER_SECONDS and max(worst["limit"][0], worst["refused"][0]) < REFUSAL_SECONDS
    print(f"odds, {len(cases) * 2} requests (CPU in-process; goal: answered < {ANSWER_SECONDS} s, refused < "
          f"{REFUSAL_SECONDS} s): {'met' if ok else 'NOT met'}")
    for verdict, (seconds, case) in worst.items():
        print(f"  slowest {verdict:<8} {seconds:6.3f} s  {case}")
    return ok


def bench_calibrated() -> bool:
    import calibrate_odds
    from test_odds_hostile import CALIBRATED

    Runner().odds("1d6")
    ok = True
    print(f"calibrated: the limit's figure (reference x SPEED {cost.SPEED}) over the time taken, goal within "
          f"{CALIBRATION:g}x either way")
    limit = cost.LIMIT_SECONDS
    cost.LIMIT_SECONDS = float("inf")
    try:
        for text in CALIBRATED:
            guess = calibrate_odds.predicted(text, False) * cost.SPEED
            took = min(calibrate_odds.measured(text, False) for _ in range(2))
            ratio = guess / took
            ok &= 1 / CALIBRATION < ratio < CALIBRATION
            print(f"  {text:<16} figure {guess:6.3f} s  took {took:6.3f} s  ratio {ratio:5.2f}")
    finally:
        cost.LIMIT_SECONDS = limit
    print(f"  {'met' if ok else 'NOT met'}")
    return ok


def child_cpu(command: list[str], stdin: str | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def bench_commands() -> bool:
    from test_dice_hostile import ANSWERED, REFUSED

    crux = [str(Path(sys.executable).parent / "crux")]
    worst = (0.0, "")
    for text in [*REFUSED.values(), *ANSWERED.values()]:
        command = [*crux, "-"] if "\x00" in text else [*crux, "--json", text]
        seconds = child_cpu(command, text + "\n" if "\x00" in text else None)
        worst = max(worst, (seconds, repr(text[:30])))
    paste = child_cpu([*crux, "-"], ";".join(["DEX +1b"] * 26_000) + "\n")
    ok = worst[0] < ANSWER_SECONDS and paste < ANSWER_SECONDS
    print(f"commands (CPU, start-up included; goal < {ANSWER_SECONDS} s): {'met' if ok else 'NOT met'}")
    print(f"  slowest hostile dice {worst[0]:6.3f} s  {worst[1]}")
    print(f"  210 KB paste         {paste:6.3f} s")
    return ok


BENCHES = {"odds": bench_odds, "calibrated": bench_calibrated, "commands": bench_commands}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(BENCHES), help="benches, by name: " + ",".join(BENCHES))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}\n")
    results = [BENCHES[name]() for name in args.only.split(",")]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
