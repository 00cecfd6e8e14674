"""Benchmark, run on demand: exact odds in crux against icepool computing the same distributions.

    python tests/bench_odds.py [--repeats 15]

Not collected by pytest (the name does not start with test_). For each case both
sides are first checked to give the same distribution, then timed side by side
in one run: each repeat times a batch of calls of crux, then of icepool, and the
table reports the medians per call and their ratio (icepool time / crux time; the
goal is at least 2 on every case).

Both libraries cache: crux its dice (`die`), icepool much more. The "warm" columns
time repeated calls in one process, each library with whatever it cached; the
"cold" columns time the first call of each case in a fresh interpreter (imports
done), which is what one `crux odds` command pays.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import icepool

from crux_cli.odds.dist import Dist, default_depth, die
from crux_cli.rulesets.crux.engine import AttackRequest, Source
from crux_cli.rulesets.crux.odds import attack_odds

ATTACK = AttackRequest(2, 8, (Source("rushed", -1),), flat=3, armour="heavy")  # atk 2d8+3 heavy rushed
D8_DEPTH = default_depth(Fraction(1, 8))  # crux's default cap for d8!, given to icepool too
ATTACK_DEPTH = attack_odds(ATTACK).depth or 1  # the crux default cap: re-rolls of the primary die


def icepool_attack() -> icepool.Die:
    """The same attack in icepool, with the same number of crit re-rolls (icepool's depth counts
    those after the first), each crux rule written out."""
    def damage(face: int) -> icepool.Die | int:
        if face == 1:
            return 0  # miss
        if face == 8:
            return 8 + icepool.d8.explode(depth=ATTACK_DEPTH - 1) + icepool.d8 + 3  # crit ignores armour
        return (face + icepool.d8) // 2  # heavy: half the dice, flat ignored
    return icepool.d8.lowest(2, 1).map(damage)


def crux_attack() -> list[tuple[int, Fraction]]:
    odds = attack_odds(ATTACK)
    return list(odds.distribution or ())


# name -> (crux, icepool); each returns its distribution
CASES: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
    "highest of 1-10 d6": (lambda: [die(6).highest(n) for n in range(1, 11)],
                           lambda: [icepool.d6.highest(n, 1) for n in range(1, 11)]),
    "4d6kh3": (lambda: die(6).keep_highest(4, 3), lambda: icepool.d6.highest(4, 3)),
    "10d10kh3": (lambda: die(10).keep_highest(10, 3), lambda: icepool.d10.highest(10, 3)),
    "20d6": (lambda: die(6).sum_of(20), lambda: 20 @ icepool.d6),
    "100d6": (lambda: die(6).sum_of(100), lambda: 100 @ icepool.d6),
    "d8!": (lambda: die(8).explode(), lambda: icepool.d8.explode(depth=D8_DEPTH)),
    "atk 2d8+3 heavy rushed": (crux_attack, icepool_attack),
}


def as_probabilities(result: object) -> object:
    """Either side's answer as {outcome: Fraction}, to check they agree before timing."""
    if isinstance(result, list):
        if result and isinstance(result[0], tuple):
            return dict(result)
        return [as_probabilities(r) for r in result]
    if isinstance(result, Dist):
        return dict(result.items())
    if isinstance(result, icepool.Die):
        total = result.denominator()
        return {o: Fraction(q, total) for o, q in result.items() if q}
    raise TypeError(type(result))


def agree(name: str, ours: object, theirs: object) -> bool:
    a, b = as_probabilities(ours), as_probabilities(theirs)
    if name == "d8!" or name.startswith("atk"):
        # crux leaves a chain past the cap uncounted (< 1e-12); icepool lets its last roll stand
        assert isinstance(a, dict) and isinstance(b, dict)
        return sum(abs(a.get(o, 0) - b.get(o, 0)) for o in a.keys() | b.keys()) < Fraction(2, 10**12)
    return a == b


def per_call(function: Callable[[], object], batch: int) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        function()
    return (time.perf_counter() - start) / batch


def batch_size(function: Callable[[], object], target: float = 0.02) -> int:
    """Enough calls to take about `target` seconds, so the clock's resolution does not matter."""
    once = per_call(function, 1)
    return max(1, min(10_000, int(target / max(once, 1e-7))))


def cold(name: str) -> tuple[float, float]:
    """First-call times of one case in a fresh interpreter."""
    code = (f"import time, sys; sys.argv=['bench']; import tests.bench_odds as b; c, i = b.CASES[{name!r}];"
            "t=time.perf_counter(); c(); a=time.perf_counter()-t;"
            "t=time.perf_counter(); i(); z=time.perf_counter()-t; print(a, z)")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    crux_time, icepool_time = map(float, out.stdout.split())
    return crux_time, icepool_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--no-cold", action="store_true", help="skip the fresh-interpreter timings")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}, {args.repeats} repeats, medians")
    header = f"{'case':<24} {'crux warm':>11} {'icepool warm':>13} {'ratio':>7}"
    if not args.no_cold:
        header += f" {'crux cold':>11} {'icepool cold':>13} {'ratio':>7}"
    print(header)
    worst = float("inf")
    for name, (ours, theirs) in CASES.items():
        if not agree(name, ours(), theirs()):
            raise SystemExit(f"{name}: crux and icepool disagree")
        ours_batch, theirs_batch = batch_size(ours), batch_size(theirs)
        ours_times, theirs_times = [], []
        for _ in range(args.repeats):  # side by side: the machine's mood touches both alike
            ours_times.append(per_call(ours, ours_batch))
            theirs_times.append(per_call(theirs, theirs_batch))
        a, b = statistics.median(ours_times), statistics.median(theirs_times)
        worst = min(worst, b / a)
        line = f"{name:<24} {a * 1e6:>9.1f}us {b * 1e6:>11.1f}us {b / a:>6.1f}x"
        if not args.no_cold:
            colds = [cold(name) for _ in range(3)]
            ca = statistics.median(c for c, _ in colds)
            cb = statistics.median(i for _, i in colds)
            worst = min(worst, cb / ca)
            line += f" {ca * 1e6:>9.1f}us {cb * 1e6:>11.1f}us {cb / ca:>6.1f}x"
        print(line)
    print(f"slowest ratio: {worst:.1f}x ({'meets' if worst >= 2 else 'MISSES'} the 2x goal)")


if __name__ == "__main__":
    main()
