"""Generic dice terms (NOTATION §2) against enumeration of every face each die can show."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from crux_cli.errors import CruxError
from crux_cli.odds.dist import Dist
from crux_cli.odds.generic import base_die, countdown_odds, dice_term, explosion_depth

Faces = dict[int, Fraction]


def plain(sides: int) -> Faces:
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def rerolled_once(faces: Faces, matches: Callable[[int], bool]) -> Faces:
    table: Counter[int] = Counter()
    for first, p in faces.items():
        if matches(first):
            for second, q in faces.items():
                table[second] += p * q
        else:
            table[first] += p
    return dict(table)


def chained(faces: Faces, explodes: Callable[[int], bool], depth: int) -> Faces:
    """Every chain of up to `depth` fresh rolls; chains cut short by the cap are not counted."""
    table: Counter[int] = Counter()

    def walk(total: int, p: Fraction, rolled: int) -> None:
        for face, q in faces.items():
            if not explodes(face):
                table[total + face] += p * q
            elif rolled < depth:
                walk(total + face, p * q, rolled + 1)

    walk(0, Fraction(1), 0)
    return dict(table)


def combined(faces: Faces, count: int, read: Callable[[tuple[int, ...]], int]) -> Faces:
    table: Counter[int] = Counter()
    for picks in itertools.product(faces.items(), repeat=count):
        p = Fraction(1)
        for _, q in picks:
            p *= q
        table[read(tuple(face for face, _ in picks))] += p
    return {o: p for o, p in table.items() if p}


def got(dist: Dist) -> Faces:
    return dict(dist.items())


def kept(values: tuple[int, ...], n: int, highest: bool) -> int:
    return sum(sorted(values, reverse=highest)[:n])


@pytest.mark.parametrize(("keep", "read"), [
    (None, sum),
    (("kh", 3), lambda v: kept(v, 3, True)),
    (("kl", 1), lambda v: kept(v, 1, False)),
    (("dh", 1), lambda v: kept(v, 3, False)),
    (("dl", 2), lambda v: kept(v, 2, True)),
])
def test_keep_and_drop(keep: tuple[str, int] | None, read: Callable[[tuple[int, ...]], int]) -> None:
    assert got(dice_term(4, 6, keep=keep)) == combined(plain(6), 4, read)


def test_explosions_with_the_cap() -> None:
    fours = chained(plain(4), lambda f: f == 4, 2)
    assert got(dice_term(2, 4, explode=True, depth=2)) == combined(fours, 2, sum)
    five_up = chained(plain(6), lambda f: f >= 5, 2)
    assert got(dice_term(2, 6, explode_at=5, depth=2)) == combined(five_up, 2, sum)
    # compounding (!!): kept and dropped, each die's chain is one value
    chains = chained(plain(4), lambda f: f == 4, 3)
    assert got(dice_term(3, 4, explode=True, compound=True, depth=3, keep=("kh", 2))) == combined(
        chains, 3, lambda v: kept(v, 2, True))


def rolled_dice(faces: Faces, explodes: Callable[[int], bool], depth: int, count: int,
                read: Callable[[tuple[int, ...]], int]) -> Faces:
    """`!` by enumeration: every die's chain of faces, each face a die of its own; chains cut
    short by the cap are not counted."""
    chains: list[tuple[tuple[int, ...], Fraction]] = []

    def walk(so_far: tuple[int, ...], p: Fraction) -> None:
        for face, q in faces.items():
            if not explodes(face):
                chains.append(((*so_far, face), p * q))
            elif len(so_far) < depth:
                walk((*so_far, face), p * q)

    walk((), Fraction(1))
    table: Counter[int] = Counter()
    for picks in itertools.product(chains, repeat=count):
        p = Fraction(1)
        for _, q in picks:
            p *= q
        table[read(tuple(face for chain, _ in picks for face in chain))] += p
    return {o: p for o, p in table.items() if p}


@pytest.mark.parametrize(("keep", "read"), [
    (("kh", 2), lambda v: kept(v, 2, True)),
    (("kh", 1), lambda v: kept(v, 1, True)),
    (("kl", 2), lambda v: kept(v, 2, False)),
    (("kl", 4), lambda v: kept(v, 4, False)),  # more than the dice first rolled: exploded ones too
    (("dh", 1), lambda v: kept(v, len(v) - 1, False)),
    (("dl", 1), lambda v: kept(v, len(v) - 1, True)),
    (("kh", 9), sum),
])
@pytest.mark.parametrize(("sides", "threshold"), [(3, 3), (4, 3)])
def test_exploded_dice_are_dice_of_their_own(keep: tuple[str, int], read: Callable[[tuple[int, ...]], int],
                                             sides: int, threshold: int) -> None:
    expected = rolled_dice(plain(sides), lambda f: f >= threshold, 2, 3, read)
    assert got(dice_term(3, sides, explode_at=threshold, depth=2, keep=keep)) == expected


def test_exploded_dice_count_successes_each() -> None:
    expected = rolled_dice(plain(4), lambda f: f == 4, 2, 3, lambda v: sum(f >= 3 for f in v))
    assert got(dice_term(3, 4, explode=True, depth=2, success_at=3)) == expected
    rerolled = rerolled_once(plain(4), lambda f: f == 1)
    expected = rolled_dice(rerolled, lambda f: f == 4, 2, 2, lambda v: kept(v, 1, True))
    assert got(dice_term(2, 4, explode=True, depth=2, reroll=(1,), keep=("kh", 1))) == expected


def test_default_explosion_cap_leaves_under_a_trillionth() -> None:
    term = dice_term(10, 6, explode=True)
    assert 0 < term.leftover < Fraction(1, 10**12)
    assert explosion_depth(10, 6) == 16  # 10 * 6**-17 < 1e-12 <= 10 * 6**-16
    assert explosion_depth(1, 10, explode_at=9) == 17


def test_rerolls() -> None:
    assert got(dice_term(3, 6, reroll=(1,))) == combined(rerolled_once(plain(6), lambda f: f == 1), 3, sum)
    below_3 = rerolled_once(plain(6), lambda f: f < 3)
    assert got(dice_term(2, 6, reroll_below=3)) == combined(below_3, 2, sum)
    recursive = {face: Fraction(1, 5) for face in range(2, 7)}
    assert got(dice_term(2, 6, reroll=(1,), reroll_once=False)) == combined(recursive, 2, sum)
    with pytest.raises(CruxError, match="never ends"):
        dice_term(1, 6, reroll_below=7, reroll_once=False)


def test_success_counting() -> None:
    assert got(dice_term(5, 6, success_at=5)) == combined(plain(6), 5, lambda v: sum(f >= 5 for f in v))
    assert got(dice_term(3, 10, success_at=8, reroll=(1,))) == combined(
        rerolled_once(plain(10), lambda f: f == 1), 3, lambda v: sum(f >= 8 for f in v))


def test_the_special_dice() -> None:
    assert got(base_die("%")) == plain(100)
    fudge = {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}
    assert got(dice_term(3, "F")) == combined(fudge, 3, sum)
    assert got(dice_term(1, 66)) == {10 * t + u: Fraction(1, 36) for t in range(1, 7) for u in range(1, 7)}
    assert got(dice_term(2, "%")) == combined(plain(100), 2, sum)


def test_arithmetic_of_terms() -> None:
    expression = (dice_term(2, 6) * 2 - dice_term(1, 4)) // 3  # (2d6*2 - d4) / 3, rounding down
    twice = combined(plain(6), 2, lambda v: 2 * sum(v))
    expected: Counter[int] = Counter()
    for a, p in twice.items():
        for b, q in plain(4).items():
            expected[(a - b) // 3] += p * q
    assert got(expression) == dict(expected)


def test_countdown() -> None:
    d8 = countdown_odds(8)
    assert dict(d8.outcomes) == {"holds": Fraction(7, 8), "shrinks": Fraction(1, 8)}
    assert dict(countdown_odds(4).outcomes) == {"holds": Fraction(3, 4), "ends": Fraction(1, 4)}
    assert d8.mean == Fraction(9, 2)


def test_mistakes_are_explained() -> None:
    with pytest.raises(CruxError, match="not a way to keep"):
        dice_term(4, 6, keep=("kx", 1))
    with pytest.raises(CruxError, match="no die"):
        base_die(0)
