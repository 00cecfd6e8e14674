"""Crux odds against the engine itself: every face sequence rolled through `roll_pool` and
`roll_attack` with scripted dice, weighted and counted, must give exactly the odds."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crux_cli.rulesets.crux.engine as engine
import crux_cli.rulesets.crux.probability as crux_odds
from crux_cli.core.rng import Roller, ScriptedSource
from crux_cli.probability.dist import die
from crux_cli.probability.result import Odds
from crux_cli.rulesets.crux.engine import AttackRequest, PoolRequest, Source, roll_attack, roll_pool
from crux_cli.rulesets.crux.probability import attack_odds, pool_odds, request_odds

# ----- enumeration through the engine -------------------------------------------------------------


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    kept: Counter[int] = field(default_factory=Counter)
    damage: Counter[int] = field(default_factory=Counter)
    grit: Fraction = Fraction(0)
    killed: Fraction = Fraction(0)
    leftover: Fraction = Fraction(0)
    leftover_killed: Fraction = Fraction(0)  # leftover chains that kill at the cap (and so beyond it)


def every_roll(roll: Callable, request: object, sides: int) -> Iterator[tuple[Any, Fraction]]:
    """Each complete face sequence the engine can consume, with its probability.

    Depth-first: run the engine on a prefix of faces; when it asks for one more,
    branch on every face. Each complete sequence has probability sides**-length.
    """
    prefixes: list[tuple[int, ...]] = [()]
    while prefixes:
        prefix = prefixes.pop()
        try:
            result = roll(Roller(ScriptedSource(prefix)), request)
        except AssertionError as ran_out:
            assert "ran out" in str(ran_out)
            prefixes.extend((*prefix, face) for face in range(1, sides + 1))
            continue
        yield result, Fraction(1, sides ** len(prefix))


def tally_pool(request: PoolRequest) -> Tally:
    tally = Tally()
    for result, p in every_roll(roll_pool, request, 6):
        tally.outcomes[result.outcome] += p
        tally.kept[result.kept] += p
        tally.grit += p * result.grit.gained
    return tally


def tally_attack(request: AttackRequest, depth: int, monkeypatch: pytest.MonkeyPatch) -> Tally:
    """The engine with its explosion cap one past `depth`: a chain that reaches the cap is what
    the odds leave over (all `depth` fresh rolls showed the maximum)."""
    monkeypatch.setattr(engine, "EXPLOSION_DEPTH", depth + 1)
    tally = Tally()
    for result, p in every_roll(roll_attack, request, request.sides):
        tally.outcomes[result.outcome] += p  # known however long the chain: only damage is left over
        tally.grit += p * result.grit.gained
        if len(result.explosions) == depth + 1:
            tally.leftover += p
            tally.leftover_killed += p * bool(result.killed)
            continue
        tally.damage[result.damage] += p
        tally.killed += p * bool(result.killed)
    return tally


def whole(request: AttackRequest) -> Odds:
    """The odds counted to the engine's own cap: every chain it rolls, nothing left over (a finite sum)."""
    odds = attack_odds(request, depth=crux_odds.EXPLOSION_DEPTH)
    assert odds.leftover == 0
    return odds


def nonzero(counter: Counter) -> dict:
    return {k: v for k, v in sorted(counter.items()) if v}


def bands(odds: Odds) -> dict[str, Fraction]:
    return {name: p for name, p in odds.outcomes if p}


# ----- tests, saves, initiative -------------------------------------------------------------------


def statement_odds(text: str, at_least: int | None = None) -> Odds:
    """From the words a user types: the real grammar and compiler, then the odds."""
    from crux_cli.rulesets import load
    from crux_cli.rulesets.crux.ruleset import STATEMENTS
    from crux_cli.running.read import parse_statement

    return request_odds(STATEMENTS.request(parse_statement(text, load("crux")), None, text), at_least)


def test_the_acceptance_values_from_statements() -> None:
    assert statement_odds("DEX +2b").outcome("success") == Fraction(19, 27)
    assert statement_odds("DEX -2B").outcome("failure") == Fraction(19, 27)
    assert statement_odds("save WIL adv").outcome("partial") == Fraction(1, 3)
    assert statement_odds("DEX +2b", at_least=3).at_least is None  # a test has no damage
    attack = statement_odds("atk 2d8+3 heavy rushed", at_least=10)
    assert attack.outcomes == attack_odds(AttackRequest(2, 8, (Source("rushed", -1),), flat=3,
                                                        armour="heavy")).outcomes
    assert attack.at_least.k == 10
    assert dict(statement_odds("init ambush").table("actions").rows)["3"] == 1


def test_the_acceptance_values() -> None:
    dex_2b = pool_odds(PoolRequest("test", "DEX", (Source("boons", 2),)))
    assert dex_2b.outcome("success") == Fraction(19, 27)
    dex_2bane = pool_odds(PoolRequest("test", "DEX", (Source("banes", -2),)))
    assert dex_2bane.outcome("failure") == Fraction(19, 27)
    save_adv = pool_odds(PoolRequest("save", "WIL", (Source("adv", 1),), stance="adv"))
    assert save_adv.outcome("partial") == Fraction(1, 3)


@pytest.mark.parametrize("net", range(-4, 5))
@pytest.mark.parametrize("grit_before", [None, 0, 4, 5])
def test_pool_odds_match_every_roll(net: int, grit_before: int | None) -> None:
    request = PoolRequest("test", "STR", (Source("rating", net),), grit_before=grit_before)
    tally = tally_pool(request)
    odds = pool_odds(request)
    assert bands(odds) == nonzero(tally.outcomes)
    assert {int(face): p for face, p in odds.table("kept").rows} == nonzero(tally.kept)
    assert odds.table("grit_gained").rows == (("1", tally.grit), ("0", 1 - tally.grit))


def test_grit_with_and_without_banes() -> None:
    """Steady the Roll is +1 Boon, or cancels a Bane: either way the net moves by one."""
    grit = Source("grit", 1)
    alone = pool_odds(PoolRequest("test", "DEX", (grit,), grit_spent=True))
    assert alone.outcome("success") == 1 - Fraction(4, 6) ** 2  # 2d6 keep highest
    with_bane = pool_odds(PoolRequest("test", "DEX", (Source("banes", -1), grit), grit_spent=True))
    assert with_bane.outcomes == pool_odds(PoolRequest("test", "DEX")).outcomes  # one plain d6
    assert with_bane.outcome("success") == Fraction(1, 3)
    with_two = pool_odds(PoolRequest("test", "DEX", (Source("banes", -2), grit), grit_spent=True))
    assert with_two.outcome("failure") == 1 - Fraction(4, 6) ** 2  # 2d6 keep lowest


def test_grit_is_earned_only_below_the_maximum() -> None:
    def earned(grit_before: int | None) -> Fraction:
        odds = pool_odds(PoolRequest("test", "DEX", (Source("banes", -1),), grit_before=grit_before))
        return dict(odds.table("grit_gained").rows)["1"]

    assert earned(None) == 1 - Fraction(25, 36)  # no sheet: a kept 1 of 2d6 keep lowest earns Grit
    assert earned(4) == Fraction(11, 36)
    assert earned(5) == 0


def test_save_effects_and_vs_rushed() -> None:
    sources = (Source("dis", -1), Source("vs rushed", 1))
    request = PoolRequest("save", "STR", sources, stance="dis", vs_rushed=True)
    odds = pool_odds(request)
    assert odds.table("effect").rows == (("full effect", Fraction(1, 3)), ("partial", Fraction(1, 3)),
                                         ("resisted", Fraction(1, 3)))


def test_initiative_actions_and_ambush() -> None:
    odds = pool_odds(PoolRequest("initiative", "DEX", (Source("rating", 1),)))
    actions = {"1": Fraction(4, 36), "2": Fraction(12, 36), "3": Fraction(20, 36)}
    assert dict(odds.table("actions").rows) == actions
    ambush = pool_odds(PoolRequest("initiative", "DEX", ambush=True))
    assert dict(ambush.table("actions").rows) == {"1": 0, "2": 0, "3": 1}
    assert ambush.table("grit_gained").rows == (("1", 0), ("0", 1))


# ----- attacks ------------------------------------------------------------------------------------


ATTACKS = [
    AttackRequest(count, sides, (Source("net", net),), flat=flat, armour=armour, resist=resist, vuln=vuln,
                  minion=minion, grit_before=grit_before)
    for count, sides, net, flat, armour, resist, vuln, minion, grit_before in [
        (1, 2, 0, 0, "unarmoured", False, False, False, None),
        (1, 3, 1, 2, "medium", False, False, True, None),
        (2, 3, -1, -2, "heavy", True, False, False, 5),
        (2, 4, 0, 1, "heavy", True, True, False, 3),
        (1, 4, -2, -7, "unarmoured", False, False, True, None),  # a negative flat floors at 0
        (2, 2, 2, 3, "medium", True, False, True, None),
        (1, 6, 0, 2, "heavy", False, True, False, None),
        (3, 3, 0, 0, "unarmoured", False, True, True, 0),
    ]
]


@pytest.mark.parametrize("request_", ATTACKS)
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_attack_odds_match_every_roll(request_: AttackRequest, depth: int,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tally = tally_attack(request_, depth, monkeypatch)
    odds = attack_odds(request_, at_least=3, depth=depth)
    assert bands(odds) == nonzero(tally.outcomes)
    assert dict(odds.distribution) == nonzero(tally.damage)
    assert odds.leftover == tally.leftover
    # the mean and P(damage >= k) count the chains the table leaves over too (in closed form)
    assert odds.mean == whole(request_).mean
    assert odds.at_least.p == whole(request_).distribution.at_least(3)
    assert odds.table("grit_gained").rows[0] == ("1", tally.grit)
    if request_.minion:
        # a longer chain deals no less, so when every chain the cap cuts kills, they all count as kills
        every_leftover_kills = tally.leftover_killed == tally.leftover
        assert odds.table("minion").rows[0] == ("killed", tally.killed + (tally.leftover if every_leftover_kills
                                                                          else 0))


def test_a_minion_kill_does_not_depend_on_the_explosion_cap() -> None:
    # issue 14: "`odds 'atk d6 minion'` gives a kill chance of 14105549537279/16926659444736 where it is
    # exactly 5/6 (every non-miss kills): quantities that do not depend on the explosion cap must be exact."
    odds = statement_odds("atk d6 minion")
    assert dict(odds.table("minion").rows) == {"killed": Fraction(5, 6), "survives": Fraction(1, 6)}
    assert odds.leftover > 0  # the damage itself still has a cap
    # with a flat of -40 a crit kills after six re-rolls of 6, well inside the cap: still exact
    assert sum(p for _, p in statement_odds("atk d6-40 minion").table("minion").rows) == 1
    # with -200 it kills only past the cap of 16 re-rolls: that chance does depend on the cap
    far = statement_odds("atk d6-200 minion")
    assert far.table("minion").rows[0][1] + far.table("minion").rows[1][1] == 1 - far.leftover


attack_requests = st.builds(
    lambda count, sides, net, flat, armour, resist, vuln, minion, grit: AttackRequest(
        count, sides, (Source("net", net),), flat=flat, armour=armour, resist=resist, vuln=vuln,
        minion=minion, grit_before=grit),
    st.integers(1, 2), st.integers(2, 4), st.integers(-2, 2), st.integers(-4, 4),
    st.sampled_from(["unarmoured", "medium", "heavy"]), st.booleans(), st.booleans(), st.booleans(),
    st.sampled_from([None, 0, 5]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request_=attack_requests, depth=st.integers(0, 2), at_least=st.integers(-1, 9))
def test_any_small_attack_matches_every_roll(request_: AttackRequest, depth: int, at_least: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    tally = tally_attack(request_, depth, monkeypatch)
    odds = attack_odds(request_, at_least=at_least, depth=depth)
    assert bands(odds) == nonzero(tally.outcomes)
    assert dict(odds.distribution) == nonzero(tally.damage)
    assert odds.leftover == tally.leftover
    assert odds.at_least.p == whole(request_).distribution.at_least(at_least)  # the leftover counted too


def test_at_the_engine_cap_the_chain_stops_as_the_engine_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for the engine's own depth, the odds truncate there too and nothing is left over."""
    monkeypatch.setattr(crux_odds, "EXPLOSION_DEPTH", 3)
    monkeypatch.setattr(engine, "EXPLOSION_DEPTH", 3)
    request = AttackRequest(2, 3, (Source("net", 1),), flat=1)
    tally = Tally()
    for result, p in every_roll(roll_attack, request, 3):
        tally.damage[result.damage] += p
    odds = attack_odds(request, depth=50)
    assert odds.leftover == 0
    assert odds.depth == 3
    assert dict(odds.distribution) == nonzero(tally.damage)


def test_rushed_n_banes_the_primary_die() -> None:
    rushed_2 = attack_odds(AttackRequest(1, 6, (Source("rushed", -2),)))
    assert rushed_2.outcome("miss") == 1 - Fraction(5, 6) ** 3  # 3d6 keep the lowest
    assert rushed_2.outcome("crit") == Fraction(1, 6) ** 3


def test_crits_ignore_armour_but_not_resistance() -> None:
    odds = attack_odds(AttackRequest(1, 2, (), flat=10, armour="heavy", resist=True), depth=1)
    # d2: 1 misses; 2 crits and re-rolls once: 2 + (1 | 2 -> left over); flat counts, then halved
    assert dict(odds.distribution) == {0: Fraction(1, 2), (2 + 1 + 10) // 2: Fraction(1, 4)}
    assert odds.leftover == Fraction(1, 4)


def test_resist_then_vulnerability() -> None:
    """Vulnerability ignores armour; resistance halves first, then vulnerability doubles."""
    odds = attack_odds(AttackRequest(1, 4, (), flat=1, armour="heavy", resist=True, vuln=True))
    hits = {(face + 1) // 2 * 2: Fraction(1, 4) for face in (2, 3)}
    assert {d: p for d, p in odds.distribution if d < 5 and p} == {0: Fraction(1, 4), **hits}


def test_negative_flat_is_floored_and_a_minion_survives_zero() -> None:
    odds = attack_odds(AttackRequest(1, 6, (), flat=-4, minion=True), depth=1)
    assert odds.distribution[0] == (0, Fraction(1, 6) + Fraction(3, 6))  # miss, or 2..4 - 4 <= 0
    assert dict(odds.table("minion").rows)["survives"] == Fraction(4, 6)


# ----- a larger attack against icepool --------------------------------------------------------------


def icepool_attack(depth: int) -> dict[int, Fraction]:
    """`atk 2d8+3 heavy rushed`, written independently in icepool."""
    primary = icepool.d8.lowest(2, 1)

    def damage(face: int) -> icepool.Die | int:
        if face == 1:
            return 0
        if face == 8:
            return 8 + icepool.d8.explode(depth=depth) + icepool.d8 + 3  # crit: armour ignored
        return (face + icepool.d8) // 2  # heavy: half the dice, flat ignored

    result = primary.map(damage)
    return {o: Fraction(q, result.denominator()) for o, q in result.items() if q}


def test_attack_against_icepool() -> None:
    request = AttackRequest(2, 8, (Source("rushed", -1),), flat=3, armour="heavy")
    ours = attack_odds(request, depth=engine.EXPLOSION_DEPTH)  # truncated as icepool truncates
    # the engine's cap counts every re-roll; icepool's depth those after the first
    assert dict(ours.distribution) == icepool_attack(engine.EXPLOSION_DEPTH - 1)
    capped = attack_odds(request)
    assert capped.depth == 14  # re-rolls: 8**-14 < 1e-12 <= 8**-13
    assert capped.leftover == Fraction(1, 64) * Fraction(1, 8) ** 14


def test_odds_are_exhaustive_per_outcome() -> None:
    for request in ATTACKS:
        odds = attack_odds(request)
        assert sum(p for _, p in odds.outcomes) == 1
        assert sum(p for _, p in odds.distribution) == 1 - odds.leftover
    for net, kind in itertools.product(range(-3, 4), ("test", "save", "initiative")):
        odds = pool_odds(PoolRequest(kind, "DEX", (Source("rating", net),)))
        assert sum(p for _, p in odds.outcomes) == 1
        kept = die(6).highest(1 + net) if net >= 0 else die(6).lowest(1 - net)
        assert odds.table("kept").rows == tuple((str(face), p) for face, p in kept.items())
