"""Developers' tool: the odds limit's predictions against measured time, shape by shape.

    python tools/calibrate_odds.py [--only sums,keeps] [--json-too] [--upto 4]

For each statement of a sweep, the time `crux odds` predicts (crux_cli/probability/cost.py: the largest
figure any step checks against the limit, the answer's presentation included) and the CPU time it
takes in-process (reading, odds, text or JSON), with the limit lifted. A ratio above 1 is a
prediction on the slow side.

The constants of cost.py are seconds on a reference machine (the busy 2-core machine they were
fitted on); `crux odds` multiplies a prediction by `cost.SPEED`, a constant (never a measurement, so
that a verdict is the statement's own on any machine at any load). The table shows both: "reference"
is the constants' figure, "limit" that figure times SPEED (what the limit reads), and the ratio is
"limit" over measured. So the constants' *relative* costs were fitted to this table: rerun it after
changing an algorithm. Aim for each family's ratios between about 0.8 and 1.5 on a machine at work;
`cost.LIMIT_SECONDS` (0.75 s) is set for that spread, so that what is answered takes under 2 s as a
command (tests/bench/bench_limits.py checks it). A family that falls further from 1 needs its
constants refitted, or the limit moved with it. The last line prints the `SPEED` that would put the
geometric mean of the ratios of the statements that take 20 ms or more (the smaller ones are start-up
and noise) at 1.2, on the slow side, on this machine at this load: change SPEED only on the project's
machine, at work, with the relative costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.setrecursionlimit(20_000)

from crux_cli.core.errors import LimitError  # noqa: E402
from crux_cli.core.style import PLAIN  # noqa: E402 (this checkout)
from crux_cli.probability import cost  # noqa: E402
from crux_cli.probability.cost import Shape  # noqa: E402
from crux_cli.probability.dist import die  # noqa: E402
from crux_cli.running.output import odds_lines  # noqa: E402
from crux_cli.running.read import clear_cache  # noqa: E402
from crux_cli.running.runner import Runner  # noqa: E402

SWEEPS: dict[str, list[str]] = {
    "sums": [f"{n}d6" for n in (100, 300, 1000)] + [f"{n}d{s}" for n, s in ((1000, 60), (1000, 100), (300, 1000),
                                                                            (100, 10000), (30, 10000))],
    "mixed": ["300d6+300d8", "1000d6+1000d10", "100d100+100d20*2", "(100d6)*(10d6)", "500d6ro1", "1000d6rr1",
              "300d20kh150+300d6"],
    "keeps": [f"{n}d6kh{n // 2}" for n in (200, 300, 500, 700, 1000)]
    + [f"4d{s}kh3" for s in (1000, 3000, 10000)] + [f"{n}d20kh{k}" for n, k in ((200, 100), (400, 200), (1000, 10))]
    + ["1000d6kl500", "1000d6dl1", "500d100kh250"],
    "explode": [f"{n}d6!" for n in (30, 100, 150, 200, 300)] + ["100d10!", "50d20!", "1000d100!", "30d6!!",
                                                                 "100d6!!", "50d6!kh25", "100d6!kh50", "10d6!>=5"],
    "successes": ["1000d10>=8", "100d6!>=5", "300d10!>=8"],
    "crux": ["DEX +999b", "atk 2d1000 +999b", "atk 2d10000 +999b", "atk 100d100 +99b", "atk 1000d6", "atk 2d8+3 -999B",
             "save WIL +500b"],
}


class Predicted(Exception):
    """Raised once the whole answer is weighed, so that predicting does not work it out too."""


def predicted(statement: str, exact: bool) -> float:
    """The largest figure any step checks against the limit, for this statement."""
    figures: list[float] = []

    def check_answer(seconds: float, result: Shape | None) -> None:
        figures.append(seconds + (cost.presentation(result) if result is not None else 0.0))
        raise Predicted

    check, whole = cost.check, cost.check_answer
    cost.check, cost.check_answer = figures.append, check_answer  # type: ignore[assignment]
    try:
        Runner().odds(statement, exact=exact)
    except Predicted:
        pass
    finally:
        cost.check, cost.check_answer = check, whole
    return max(figures, default=0.0)


def measured(statement: str, exact: bool) -> float:
    """CPU seconds of one `crux odds` in-process, with nothing cached."""
    clear_cache()
    die.cache_clear()
    start = time.process_time()
    odds_lines(Runner().odds(statement, exact=exact), PLAIN, exact)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="sweeps, by name: " + ",".join(SWEEPS))
    parser.add_argument("--json-too", action="store_true", help="also with exact fractions (--json)")
    parser.add_argument("--upto", type=float, default=6.0, help="skip what is predicted to take longer (seconds)")
    args = parser.parse_args()
    chosen = [name for name in SWEEPS if not args.only or name in args.only.split(",")]
    cost.LIMIT_SECONDS = float("inf")  # measured with the limit lifted (the memory limit still holds)
    speed = cost.SPEED
    print(f"cost.SPEED: {speed:.3f} seconds of the project's machine per reference second\n")
    print(f"{'statement':<22} {'shown':<5} {'reference':>10} {'limit':>10} {'measured':>10} {'ratio':>6}")
    ratios, fitted = [], []
    for name in chosen:
        for statement in SWEEPS[name]:
            for exact in (False, True) if args.json_too else (False,):
                shown = "json" if exact else "text"
                try:
                    guess = predicted(statement, exact)
                except LimitError as error:
                    print(f"{statement:<22} {shown:<5} refused: {error.message[:60]}", flush=True)
                    continue
                scaled = guess * speed
                if scaled > args.upto:
                    print(f"{statement:<22} {shown:<5} {guess:>9.3f}s {scaled:>9.3f}s {'skipped':>10}", flush=True)
                    continue
                try:
                    took = min(measured(statement, exact) for _ in range(2 if scaled < 0.5 else 1))
                except LimitError as error:
                    print(f"{statement:<22} {shown:<5} {guess:>9.3f}s refused: {error.message[:50]}", flush=True)
                    continue
                ratios.append(scaled / took)
                if took >= 0.02:
                    fitted.append(scaled / took)
                print(f"{statement:<22} {shown:<5} {guess:>9.3f}s {scaled:>9.3f}s {took:>9.3f}s {scaled / took:>6.2f}",
                      flush=True)
    if ratios:
        print(f"\nratios from {min(ratios):.2f} to {max(ratios):.2f}")
    if fitted:
        middle = statistics.geometric_mean(fitted)
        print(f"of the {len(fitted)} that take 20 ms or more: {min(fitted):.2f} to {max(fitted):.2f}, geometric mean "
              f"{middle:.2f}; SPEED = {cost.SPEED / middle * 1.2:.3f} would put it at 1.2 here")


if __name__ == "__main__":
    main()
