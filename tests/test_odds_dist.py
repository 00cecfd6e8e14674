"""Exact distributions against brute-force enumeration (small cases) and icepool (larger ones)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.probability import cost, polynomial
from crux_cli.probability import dist as D
from crux_cli.probability.dist import Dist, constant, d66, default_depth, die, fudge, mix, percentile, pool

# ----- helpers ------------------------------------------------------------------------------------


def probabilities(dist: Dist) -> dict[int, Fraction]:
    return dict(dist.items())


def brute(parts: Sequence[Dist], combine: Callable[..., int]) -> dict[int, Fraction]:
    """Every combination of the parts' outcomes, weighted: the answer by enumeration."""
    table: Counter[int] = Counter()
    for picks in itertools.product(*(p.items() for p in parts)):
        weight = Fraction(1)
        for _, p in picks:
            weight *= p
        table[combine(*(o for o, _ in picks))] += weight
    return {o: p for o, p in sorted(table.items()) if p}


def keep_sum(values: tuple[int, ...], keep: int, highest: bool) -> int:
    ordered = sorted(values, reverse=highest)
    return sum(ordered[:keep])


def as_icepool(dist: Dist) -> dict[int, Fraction]:
    return {o: Fraction(w, dist.denominator) for o, w in zip(dist.outcomes, dist.weights, strict=True)}


def icepool_probabilities(die_: icepool.Die) -> dict[int, Fraction]:
    total = die_.denominator()
    return {o: Fraction(q, total) for o, q in die_.items() if q}


ODD = Dist((-2, 0, 1, 5), (3, 1, 2, 1), 7)  # uneven weights, a gap, negative outcomes
SPARSE = Dist((0, 1, 100), (2, 1, 1), 4)
SHORT = Dist((1, 2, 3), (1, 1, 1), 4)  # a quarter left over
SMALL = [die(2), die(3), die(6), fudge(), ODD, SPARSE, SHORT]

small_dists = st.builds(
    lambda table, extra: Dist.from_weights(table, sum(table.values()) + extra),
    st.dictionaries(st.integers(-6, 6), st.integers(1, 5), min_size=1, max_size=4),
    st.sampled_from([0, 0, 0, 2]),
)


# ----- construction and presentation --------------------------------------------------------------


def test_dice_of_the_notation() -> None:
    assert probabilities(die(6)) == {face: Fraction(1, 6) for face in range(1, 7)}
    assert probabilities(percentile()) == {face: Fraction(1, 100) for face in range(1, 101)}
    assert probabilities(fudge()) == {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}
    assert probabilities(d66()) == brute([die(6), die(6)], lambda tens, ones: 10 * tens + ones)
    assert set(d66().outcomes) == {10 * t + u for t in range(1, 7) for u in range(1, 7)}
    assert probabilities(constant(7)) == {7: Fraction(1)}


def test_presentation() -> None:
    assert ODD.mean() == Fraction(-6 + 0 + 2 + 5, 7)
    assert ODD.at_least(1) == Fraction(3, 7)
    assert ODD.probability(lambda o: o < 0) == Fraction(3, 7)
    assert SHORT.leftover == Fraction(1, 4)
    assert die(6).leftover == 0
    assert Dist((1, 2), (2, 4), 8).reduced().weights == (1, 2)
    assert Dist((1, 2), (2, 4), 8) == Dist((1, 2), (1, 2), 4)
    assert Dist((1, 2), (2, 4), 8) != Dist((1, 2), (1, 2), 3)
    assert hash(Dist((1, 2), (2, 4), 8)) == hash(Dist((1, 2), (1, 2), 4))


def test_immutable() -> None:
    with pytest.raises(AttributeError):
        die(6).denominator = 3  # type: ignore[misc]


def test_from_weights_checks() -> None:
    assert Dist.from_weights({3: 2, 1: 1, 2: 0}).outcomes == (1, 3)
    with pytest.raises(ValueError):
        Dist.from_weights({1: -1})
    with pytest.raises(ValueError):
        Dist.from_weights({1: 3}, denominator=2)


# ----- arithmetic ---------------------------------------------------------------------------------


@pytest.mark.parametrize("a", SMALL)
@pytest.mark.parametrize("b", SMALL)
def test_binary_operations_match_enumeration(a: Dist, b: Dist) -> None:
    assert probabilities(a + b) == brute([a, b], lambda x, y: x + y)
    assert probabilities(a - b) == brute([a, b], lambda x, y: x - y)
    assert probabilities(a * b) == brute([a, b], lambda x, y: x * y)
    if 0 not in b.outcomes:
        assert probabilities(a // b) == brute([a, b], lambda x, y: x // y)


@pytest.mark.parametrize("a", SMALL)
def test_constants_and_unary_minus(a: Dist) -> None:
    assert probabilities(-a) == brute([a], lambda x: -x)
    assert probabilities(a + 3) == brute([a], lambda x: x + 3)
    assert probabilities(3 - a) == brute([a], lambda x: 3 - x)
    assert probabilities(a * -2) == brute([a], lambda x: -2 * x)
    assert probabilities(a // 2) == brute([a], lambda x: x // 2)
    assert probabilities(a // -3) == brute([a], lambda x: x // -3)  # rounds down, not towards zero
    assert probabilities(10 // die(3)) == {10: Fraction(1, 3), 5: Fraction(1, 3), 3: Fraction(1, 3)}
    assert probabilities(a.map(abs)) == brute([a], abs)


def test_division_by_zero_is_refused() -> None:
    with pytest.raises(CruxError, match="divisor can be 0"):
        die(6) // (die(3) - 1)
    with pytest.raises(CruxError, match="division by zero"):
        die(6) // 0


@pytest.mark.parametrize("single", SMALL)
@pytest.mark.parametrize("count", [0, 1, 2, 3, 4])
def test_sum_of_copies(single: Dist, count: int) -> None:
    expected = brute([single] * count, lambda *xs: sum(xs)) if count else {0: Fraction(1)}
    assert probabilities(single.sum_of(count)) == expected


def test_three_ways_to_raise_a_polynomial_agree() -> None:
    """The uniform recurrence, Miller's general one and the packed pow give the same numbers."""
    for sides, count in [(2, 30), (6, 25), (7, 40), (20, 21)]:
        dense = [1] * sides
        width = polynomial.slot_bytes(sides ** count)
        slots = count * (sides - 1) + 1
        packed = polynomial.unpack(polynomial.pack(dense, width) ** count, width, slots)
        assert polynomial.uniform_power(sides - 1, count) == packed
        assert polynomial.power_by_recurrence(dense, count) == packed
    lopsided = [3, 0, 1, 2]
    width = polynomial.slot_bytes(6 ** 23)
    packed = polynomial.unpack(polynomial.pack(lopsided, width) ** 23, width, 70)
    assert polynomial.power_by_recurrence(lopsided, 23) == packed


def test_many_copies_of_an_uneven_die_use_the_recurrence() -> None:
    single = Dist((0, 1, 3), (2, 1, 5), 8)
    slow = single
    for _ in range(24):
        slow = D._combine(slow, single, lambda x, y: x + y)
    assert single.sum_of(25) == slow
    assert SPARSE.sum_of(5) == D._combine(SPARSE.sum_of(4), SPARSE, lambda x, y: x + y)


def test_bind_and_mix() -> None:
    # roll a d3, then that many d2: by enumeration of each branch
    mixed = die(3).bind(lambda n: die(2).sum_of(n))
    expected: Counter[int] = Counter()
    for n in (1, 2, 3):
        for total, p in brute([die(2)] * n, lambda *xs: sum(xs)).items():
            expected[total] += p / 3
    assert probabilities(mixed) == dict(expected)
    low, high = die(6).part(lambda f: f <= 2), die(6).part(lambda f: f > 2)
    assert low.leftover == Fraction(2, 3)
    assert mix(low.map(lambda _: 0), (high + die(4)).map(lambda t: t)) == die(6).bind(
        lambda f: 0 if f <= 2 else die(4) + f)


# ----- several dice: highest, lowest, keep and drop ------------------------------------------------


@pytest.mark.parametrize("single", SMALL)
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_highest_and_lowest(single: Dist, count: int) -> None:
    assert probabilities(single.highest(count)) == brute([single] * count, lambda *xs: max(xs))
    assert probabilities(single.lowest(count)) == brute([single] * count, lambda *xs: min(xs))


@pytest.mark.parametrize("single", SMALL)
@pytest.mark.parametrize(("count", "keep"), [(n, k) for n in range(1, 6) for k in range(0, n + 1)])
def test_keep_and_drop_match_enumeration(single: Dist, count: int, keep: int) -> None:
    if len(single) ** count > 4000:
        single = die(3)
    faces = [single] * count
    highest = brute(faces, lambda *xs: keep_sum(xs, keep, True))
    lowest = brute(faces, lambda *xs: keep_sum(xs, keep, False))
    assert probabilities(single.keep_highest(count, keep)) == highest
    assert probabilities(single.keep_lowest(count, keep)) == lowest
    assert single.drop_lowest(count, count - keep) == single.keep_highest(count, keep)
    assert single.drop_highest(count, count - keep) == single.keep_lowest(count, keep)


def test_pool_picks_the_right_operation() -> None:
    d6 = die(6)
    assert pool(4, d6) == d6.sum_of(4)
    assert pool(4, d6, keep_highest=3) == d6.keep_highest(4, 3)
    assert pool(4, d6, keep_lowest=1) == d6.lowest(4)
    assert pool(4, d6, drop_highest=1) == d6.keep_lowest(4, 3)
    assert pool(4, d6, drop_lowest=1) == d6.keep_highest(4, 3)
    assert pool(2, d6, keep_highest=5) == d6.sum_of(2)  # keeping more than there are keeps them all


@settings(max_examples=60, deadline=None)
@given(small_dists, st.integers(1, 4), st.integers(0, 4))
def test_keep_highest_property(single: Dist, count: int, keep: int) -> None:
    keep = min(keep, count)
    expected = brute([single] * count, lambda *xs: keep_sum(xs, keep, True))
    assert probabilities(single.keep_highest(count, keep)) == expected


uniform_runs = st.builds(  # a fair die, shifted, maybe with some probability left over
    lambda low, sides, weight, extra: Dist(tuple(range(low, low + sides)), (weight,) * sides, weight * sides + extra),
    st.integers(-4, 4), st.integers(1, 6), st.integers(1, 3), st.sampled_from([0, 0, 1]))
SCORES = {"face": None, "success": lambda face: 1 if face >= 2 else 0, "distance": abs}


@settings(max_examples=80, deadline=None)
@given(st.one_of(small_dists, uniform_runs), st.integers(3, 5), st.integers(2, 4), st.sampled_from(sorted(SCORES)))
def test_every_keep_method_matches_enumeration(single: Dist, count: int, keep: int, scored: str) -> None:
    """Each way of working out a keep, forced, against enumeration: the cheapest is picked by cost,
    so without forcing some would go untested. The weights and the denominator must match too."""
    keep = min(keep, count - 1)
    score = SCORES[scored]
    if len(single) ** count > 3000:
        count = keep + 1
    expected = brute([single] * count, lambda *xs: sum(
        score(x) if score else x for x in sorted(xs, reverse=True)[:keep]))
    methods = polynomial.keep_methods(single, count, keep, score)
    assert len(methods) == (1 if score is None and cost.uniform_run(single) else 2)
    for _, method in methods:
        result = D._from_dense(*method())
        assert probabilities(result) == expected
        assert result.denominator == single.denominator ** count


@pytest.mark.parametrize(("count", "keep"), [(60, 30), (40, 3), (40, 37)])
def test_large_keeps_against_icepool(count: int, keep: int) -> None:
    assert as_icepool(die(6).keep_highest(count, keep)) == icepool_probabilities(icepool.d6.highest(count, keep))
    assert as_icepool(die(6).keep_lowest(count, keep)) == icepool_probabilities(icepool.d6.lowest(count, keep))


@settings(max_examples=60, deadline=None)
@given(small_dists, small_dists)
def test_total_probability_is_kept(a: Dist, b: Dist) -> None:
    """Without leftover, probabilities sum to 1; with it, to the product of what each part counts."""
    counted_a, counted_b = 1 - a.leftover, 1 - b.leftover
    for result, counted in [
        (a + b, counted_a * counted_b),
        (a - b, counted_a * counted_b),
        (a * b, counted_a * counted_b),
        (a.keep_highest(3, 2), counted_a ** 3),
        (b.lowest(2), counted_b ** 2),
        (a.sum_of(3), counted_a ** 3),
        (a.explode(2) if len(a) > 1 else a, None),  # a die of one face would explode forever
    ]:
        total = sum(p for _, p in result.items())
        assert total == 1 - result.leftover
        if counted is not None:
            assert total == counted


# ----- one die, changed: explode, reroll, count successes -------------------------------------------


def exploded(single: Dist, depth: int, on: Callable[[int], bool], truncate: bool) -> dict[int, Fraction]:
    """Every chain of rolls up to `depth` fresh ones, by recursion."""
    table: Counter[int] = Counter()

    def walk(total: int, p: Fraction, rolled: int) -> None:
        for face, q in single.items():
            if on(face) and rolled < depth:
                walk(total + face, p * q, rolled + 1)
            elif not on(face) or truncate:
                table[total + face] += p * q

    walk(0, Fraction(1), 0)
    return {o: p for o, p in sorted(table.items()) if p}


@pytest.mark.parametrize("sides", [2, 3, 6])
@pytest.mark.parametrize("depth", [0, 1, 2, 4])
@pytest.mark.parametrize("truncate", [False, True])
def test_explode_matches_enumeration(sides: int, depth: int, truncate: bool) -> None:
    single = die(sides).explode(depth, truncate=truncate)
    assert probabilities(single) == exploded(die(sides), depth, lambda f: f == sides, truncate)
    expected_leftover = 0 if truncate else Fraction(1, sides ** (depth + 1))
    assert single.leftover == expected_leftover


@settings(max_examples=60, deadline=None)
@given(st.one_of(small_dists, uniform_runs), st.integers(0, 12), st.integers(0, 6))
def test_the_total_of_exploding_dice_is_the_sum_of_their_chains(single: Dist, count: int, depth: int) -> None:
    """`explode_sum` (a closed form in the number of explosions) against summing the chains."""
    if len(single) == 1:
        return  # its only face explodes: refused, as `explode` refuses it
    total = single.explode_sum(count, depth)
    assert total == single.explode(depth).sum_of(count)
    assert total.denominator == single.explode(depth).sum_of(count).denominator


def test_threshold_explode_and_uneven_dice() -> None:
    five_up = die(6).explode(3, on=lambda f: f >= 5)
    assert probabilities(five_up) == exploded(die(6), 3, lambda f: f >= 5, False)
    assert probabilities(ODD.explode(2)) == exploded(ODD, 2, lambda f: f == 5, False)
    # one exploding face whose chains overlap, or sit below the stopping faces: the general path
    high_stops = Dist((1, 5, 6), (1, 1, 1), 3)
    for on, truncate in itertools.product([lambda f: f == 1, lambda f: f == 5], [False, True]):
        assert probabilities(high_stops.explode(3, on=on, truncate=truncate)) == exploded(
            high_stops, 3, on, truncate)
    # compounding (!!) is one die's chain, the same distribution; N dice add their chains
    chains = die(4).explode(2)
    assert probabilities(chains.sum_of(2)) == brute([chains, chains], lambda x, y: x + y)


def test_default_depth_leaves_less_than_the_target() -> None:
    for sides, count in [(2, 1), (2, 10), (6, 1), (6, 100), (20, 3), (10000, 1)]:
        depth = default_depth(Fraction(1, sides), count)
        chains = die(sides).explode(count=count)
        assert 1 - (1 - chains.leftover) ** count < Fraction(1, 10**12)
        assert count * Fraction(1, sides) ** depth >= Fraction(1, 10**12)  # and no deeper than needed
    assert default_depth(Fraction(99, 100)) == 100  # capped at the engine's depth


def test_explode_refuses_a_die_that_never_stops() -> None:
    with pytest.raises(CruxError, match="never ends"):
        die(6).explode(on=lambda f: f >= 1)
    assert die(6).explode(on=lambda f: f > 6) == die(6)


@pytest.mark.parametrize("single", [die(6), die(4), ODD])
def test_rerolls(single: Dist) -> None:
    low = single.outcomes[0]
    once: Counter[int] = Counter()
    for first, p in single.items():
        if first == low:
            for second, q in single.items():
                once[second] += p * q
        else:
            once[first] += p
    assert probabilities(single.reroll_once(lambda f: f == low)) == dict(once)
    kept = {o: p for o, p in single.items() if o != low}
    conditioned = {o: p / sum(kept.values()) for o, p in kept.items()}
    assert probabilities(single.reroll(lambda f: f == low)) == conditioned
    with pytest.raises(CruxError, match="never ends"):
        single.reroll(lambda f: True)


def test_success_counting() -> None:
    fives = brute([die(6)] * 4, lambda *xs: sum(x >= 5 for x in xs))
    assert probabilities(die(6).successes(4, lambda f: f >= 5)) == fives
    positive = brute([ODD] * 3, lambda *xs: sum(x > 0 for x in xs))
    assert probabilities(ODD.successes(3, lambda f: f > 0)) == positive


# ----- against icepool, on larger cases ------------------------------------------------------------


@pytest.mark.parametrize(("ours", "theirs"), [
    (lambda: die(10).keep_highest(10, 3), lambda: icepool.d10.highest(10, 3)),
    (lambda: die(6).keep_lowest(8, 3), lambda: icepool.d6.lowest(8, 3)),
    (lambda: die(20).keep_highest(6, 4), lambda: icepool.d20.highest(6, 4)),
    (lambda: die(300).keep_highest(4, 3), lambda: icepool.Die(range(1, 301)).highest(4, 3)),
    (lambda: d66().keep_highest(5, 2), lambda: icepool.Die([10 * t + u for t in range(1, 7)
                                                           for u in range(1, 7)]).highest(5, 2)),
    (lambda: die(6).sum_of(20), lambda: 20 @ icepool.d6),
    (lambda: die(6).sum_of(100), lambda: 100 @ icepool.d6),
    (lambda: die(12).sum_of(30), lambda: 30 @ icepool.d12),
    (lambda: die(6).highest(10), lambda: icepool.d6.highest(10, 1)),
    (lambda: die(8).lowest(7), lambda: icepool.d8.lowest(7, 1)),
    (lambda: die(8).explode(13, truncate=True), lambda: icepool.d8.explode(depth=13)),
    (lambda: die(6).explode(5, truncate=True).sum_of(3), lambda: 3 @ icepool.d6.explode(depth=5)),
    (lambda: die(6).reroll_once(lambda f: f <= 2).sum_of(3), lambda: 3 @ icepool.d6.reroll([1, 2], depth=1)),
    (lambda: die(10).reroll(lambda f: f == 1), lambda: icepool.d10.reroll([1], depth="inf")),
    (lambda: die(6).sum_of(3) * die(4) - die(8) // 3,
     lambda: (3 @ icepool.d6) * icepool.d4 - icepool.d8 // 3),
    (lambda: fudge().sum_of(4), lambda: 4 @ icepool.Die([-1, 0, 1])),
])
def test_against_icepool(ours: Callable[[], Dist], theirs: Callable[[], icepool.Die]) -> None:
    assert as_icepool(ours()) == icepool_probabilities(theirs())


# ----- limits -------------------------------------------------------------------------------------


@pytest.mark.parametrize("too_big", [
    lambda: die(1000).sum_of(1000),  # too many bits of exact weights (1000d100 is answered in 0.4 s)
    lambda: die(10000).sum_of(100),  # too many outcomes (30d10000 is answered)
    lambda: die(10000) * die(10000) * die(10000),  # too many pairs
    lambda: die(10000).keep_highest(1000, 500),  # a keep of too much work
    lambda: die(100).keep_highest(1000, 500),
])
def test_huge_odds_are_refused_by_name(too_big: Callable[[], Dist]) -> None:
    with pytest.raises(LimitError, match="odds size limit"):
        too_big()
