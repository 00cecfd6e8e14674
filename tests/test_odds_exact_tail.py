"""The attack's mean and P(damage >= K) are exact although the damage table stops after some re-rolls.

Seed 001 §7.2: "Explode the Primary Die — add its maximum value, roll it again, keep adding if you roll the
maximum again." The chain has no end but crux's (EXPLOSION_DEPTH re-rolls, where the engine stops), so the
table is cut short; P(damage >= K) = 1 - P(damage < K) is a finite sum, and an exploding die's mean has a
closed form: both are worked out for the chains the table leaves out.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.probability.result import with_at_least
from crux_cli.rulesets.crux.engine import AttackRequest, Source
from crux_cli.rulesets.crux.probability import attack_odds
from crux_cli.running.runner import Runner

SWEEP = [(sides, count, armour, resist, vuln, flat, net)
         for sides in (2, 3, 6, 8) for count in (1, 2) for armour in ("unarmoured", "heavy")
         for resist, vuln in ((False, False), (True, False), (False, True), (True, True))
         for flat, net in ((0, 0), (3, 1), (-2, -1))]
KS = (0, 1, 2, 5, 9, 17, 40, 90, 250)


@pytest.mark.parametrize(("sides", "count", "armour", "resist", "vuln", "flat", "net"), SWEEP)
def test_mean_and_at_least_match_the_whole_chain(sides: int, count: int, armour: str, resist: bool, vuln: bool,
                                                  flat: int, net: int) -> None:
    """Against the table counted to the engine's own cap (no leftover: every chain it rolls, a finite sum)."""
    request = AttackRequest(count, sides, (Source("boons", net),) if net else (), flat, armour, resist, vuln)
    quick, whole = attack_odds(request), attack_odds(request, depth=EXPLOSION_DEPTH)
    assert quick.leftover > 0 and whole.leftover == 0  # the quick table is cut; the whole one is not
    assert quick.mean == whole.mean
    for k in KS:
        assert with_at_least(quick, k).at_least.p == whole.distribution.at_least(k), k


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 8, 10, 12, 20])
def test_the_mean_of_a_plain_attack_is_the_exploding_dies_closed_form(sides: int) -> None:
    """`atk dS` on an unarmoured target: a 1 misses, 2..S-1 hit for the face, S explodes: S + S*E[M] + E[U]
    with M the further maxima (geometric, mean 1/(S-1)) and U the face that ends the chain (mean S/2).
    crux's chain stops after 100 re-rolls (as the engine does), so it differs from the endless die's by
    less than S**-100."""
    endless = (Fraction(sum(range(2, sides)), sides)
               + Fraction(1, sides) * (sides + Fraction(sides, sides - 1) + Fraction(sides, 2)))
    mean = attack_odds(AttackRequest(1, sides)).mean
    assert abs(mean - endless) < Fraction(1, sides) ** 99
    if sides == 6:
        assert endless == Fraction(121, 30)


def test_at_least_past_the_table_is_the_closed_form() -> None:
    """P(atk d6 deals >= K) for K past the table's last value: a crit then K-6 more of the chain or more."""
    odds = Runner().odds("atk d6", at_least=200).result
    top = max(odds.distribution.values)
    assert top < 200 and odds.at_least.p > 0
    # the chain reaches 200 exactly when its first 32 re-rolls all show 6 and then at least 2 more points come
    # (6 * 33 = 198: the 33rd re-roll shows 2..6, or 6 and the chain goes on: anything but a 1)
    assert odds.at_least.p == Fraction(1, 6) * Fraction(1, 6) ** 32 * Fraction(5, 6)
