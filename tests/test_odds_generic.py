"""Generic dice terms (crux-notation(7) DICE EXPRESSIONS, grammar/dice.md) against enumeration of every way the dice
can fall, following the roller's rules: a reroll on every die (explosion dice too), explosions
adding dice of their own (`!`) or compounding (`!!`), one keep or drop, then successes among
the kept dice."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crux_cli.core.errors import CruxError, LimitError
from crux_cli.probability.dist import Dist
from crux_cli.probability.generic import base_die, countdown_odds, dice_term, explosion_depth

Faces = dict[int, Fraction]
Test = Callable[[int], bool]


def plain(sides: int) -> Faces:
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


FUDGE = {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}


def one_face(faces: Faces, reroll: Test | None, once: bool) -> Faces:
    """A die's face after its reroll, as the roller does it."""
    if reroll is None:
        return faces
    if once:
        table: Counter[int] = Counter()
        for first, p in faces.items():
            if reroll(first):
                for second, q in faces.items():
                    table[second] += p * q
            else:
                table[first] += p
        return dict(table)
    stays = {f: p for f, p in faces.items() if not reroll(f)}
    return {f: p / sum(stays.values()) for f, p in stays.items()}


def chains(faces: Faces, explodes: Test | None, depth: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every chain one die can roll, up to `depth` added faces; longer ones are not counted."""
    out: list[tuple[tuple[int, ...], Fraction]] = []

    def walk(so_far: tuple[int, ...], p: Fraction) -> None:
        for face, q in faces.items():
            if explodes is None or not explodes(face):
                out.append(((*so_far, face), p * q))
            elif len(so_far) < depth:
                walk((*so_far, face), p * q)

    walk((), Fraction(1))
    return out


def enumerate_term(faces: Faces, count: int, *, reroll: Test | None = None, once: bool = False,
                   explodes: Test | None = None, compound: bool = False, depth: int = 2,
                   keep: tuple[str, int] | None = None, success: Test | None = None) -> Faces:
    per_die = chains(one_face(faces, reroll, once), explodes, depth)
    table: Counter[int] = Counter()
    for picks in itertools.product(per_die, repeat=count):
        p = Fraction(1)
        for _, q in picks:
            p *= q
        dice = [sum(chain) for chain, _ in picks] if compound else [f for chain, _ in picks for f in chain]
        kept = sorted(dice)
        if keep is not None:
            how, n = keep
            n = min(n, len(kept))
            kept = {"kh": kept[len(kept) - n:], "kl": kept[:n], "dh": kept[:len(kept) - n],
                    "dl": kept[n:]}[how]
        value = sum(1 for f in kept if success(f)) if success else sum(kept)
        table[value] += p
    return {o: p for o, p in table.items() if p}


def got(dist: Dist) -> Faces:
    return dict(dist.items())


KEEPS = [None, ("kh", 1), ("kh", 2), ("kl", 2), ("dh", 1), ("dl", 2), ("kl", 5)]


@pytest.mark.parametrize("keep", KEEPS)
def test_keep_and_drop(keep: tuple[str, int] | None) -> None:
    assert got(dice_term(4, 6, keep=keep)) == enumerate_term(plain(6), 4, keep=keep)
    assert got(dice_term(3, "F", keep=keep)) == enumerate_term(FUDGE, 3, keep=keep)


@pytest.mark.parametrize("keep", KEEPS)
@pytest.mark.parametrize("explodes", [None, (lambda f: f >= 3), (lambda f: f == 1), (lambda f: f <= 2)],
                         ids=["top", ">=3", "=1", "<=2"])
@pytest.mark.parametrize("compound", [False, True])
def test_explosions(keep: tuple[str, int] | None, explodes: Test | None, compound: bool) -> None:
    test = explodes or (lambda f: f == 4)
    expected = enumerate_term(plain(4), 3, explodes=test, compound=compound, depth=2, keep=keep)
    term = dice_term(3, 4, explode=explodes or True, compound=compound, depth=2, keep=keep)
    assert got(term) == expected
    assert term.leftover == 1 - sum(expected.values())


@pytest.mark.parametrize("keep", [None, ("kh", 2), ("kl", 1), ("dl", 1)])
@pytest.mark.parametrize("success", [(lambda f: f >= 3), (lambda f: f == 2), (lambda f: f < 2)],
                         ids=[">=3", "=2", "<2"])
def test_successes_among_the_kept_dice(keep: tuple[str, int] | None, success: Test) -> None:
    assert got(dice_term(4, 4, keep=keep, success=success)) == enumerate_term(plain(4), 4, keep=keep,
                                                                                success=success)
    exploding = enumerate_term(plain(3), 2, explodes=lambda f: f == 3, depth=2, keep=keep, success=success)
    assert got(dice_term(2, 3, explode=True, depth=2, keep=keep, success=success)) == exploding


@pytest.mark.parametrize("once", [True, False])
@pytest.mark.parametrize("keep", [None, ("kh", 1)])
def test_rerolls_with_and_without_explosions(once: bool, keep: tuple[str, int] | None) -> None:
    low: Test = lambda f: f < 3  # noqa: E731
    assert got(dice_term(3, 6, reroll=low, reroll_once=once, keep=keep)) == enumerate_term(
        plain(6), 3, reroll=low, once=once, keep=keep)
    # explosion dice are rerolled too, and explode on their face after the reroll
    assert got(dice_term(2, 4, reroll=lambda f: f == 1, reroll_once=once, explode=True, depth=2,
                         keep=keep)) == enumerate_term(plain(4), 2, reroll=lambda f: f == 1, once=once,
                                                       explodes=lambda f: f == 4, depth=2, keep=keep)


THRESHOLDS: dict[str, Callable[[int], Test]] = {
    ">=": lambda t: (lambda f: f >= t), "<=": lambda t: (lambda f: f <= t), "=": lambda t: (lambda f: f == t),
}


@settings(max_examples=80, deadline=None)
@given(count=st.integers(0, 3), sides=st.integers(2, 4), data=st.data())
def test_any_small_term_matches_enumeration(count: int, sides: int, data: st.DataObject) -> None:
    """Random combinations of every modifier, each against the roller's rules by enumeration."""
    def test_of(name: str) -> Test | None:
        kind = data.draw(st.sampled_from([None, ">=", "<=", "="]), label=name)
        return None if kind is None else THRESHOLDS[kind](data.draw(st.integers(1, sides), label=f"{name} T"))

    reroll = test_of("reroll")
    once = data.draw(st.booleans(), label="once")
    if reroll is not None and not once and all(reroll(f) for f in range(1, sides + 1)):
        reroll = None  # a reroll of every face never ends (refused, tested elsewhere)
    explode_kind = data.draw(st.sampled_from([None, "top", ">=", "<="]), label="explode")
    compound = data.draw(st.booleans(), label="compound")
    keep = data.draw(st.sampled_from([None, ("kh", 1), ("kh", 2), ("kl", 1), ("dh", 1), ("dl", 2)]), label="keep")
    success = test_of("success")
    explodes: Test | None = None
    explode: bool | Test = False
    if explode_kind == "top":
        explodes, explode = (lambda f: f == sides), True
    elif explode_kind is not None:
        explodes = THRESHOLDS[explode_kind](sides if explode_kind == ">=" else 1)
        explode = explodes
    faces = one_face(plain(sides), reroll, once)
    if explodes is not None and all(explodes(f) for f in faces):  # the roller refuses these too
        with pytest.raises(CruxError, match="never ends"):
            dice_term(count, sides, reroll=reroll, reroll_once=once, explode=explode, depth=1)
        return
    expected = enumerate_term(plain(sides), count, reroll=reroll, once=once, explodes=explodes,
                              compound=compound, depth=1, keep=keep, success=success)
    term = dice_term(count, sides, reroll=reroll, reroll_once=once, explode=explode, compound=compound,
                     depth=1, keep=keep, success=success)
    assert got(term) == expected


def test_default_explosion_cap_leaves_under_a_trillionth() -> None:
    term = dice_term(10, 6, explode=True)
    assert 0 < term.leftover < Fraction(1, 10**12)
    assert explosion_depth(10, 6) == 16  # 10 * 6**-17 < 1e-12 <= 10 * 6**-16
    assert explosion_depth(1, 10, explode=lambda f: f >= 9) == 17
    separate = dice_term(4, 6, explode=True, keep=("kh", 3))
    assert 0 < separate.leftover < Fraction(1, 10**12)


def test_at_the_rollers_cap_the_last_face_stands() -> None:
    """d20!>=3 needs more than the roller's 100 added dice to reach 1e-12: like a roll, the odds
    stop there and let the last face stand, so nothing is left over."""
    assert explosion_depth(1, 20, explode=lambda f: f >= 3) == 100
    assert dice_term(1, 20, explode=lambda f: f >= 3).leftover == 0


def test_the_special_dice() -> None:
    assert got(base_die("%")) == plain(100)
    assert got(dice_term(1, 66)) == {10 * t + u: Fraction(1, 36) for t in range(1, 7) for u in range(1, 7)}
    assert got(dice_term(2, "%")) == enumerate_term(plain(100), 2)
    assert got(dice_term(1, 1)) == {1: Fraction(1)}
    assert got(dice_term(0, 6)) == {0: Fraction(1)}
    assert got(dice_term(0, 6, keep=("kh", 1), success=lambda f: f > 3)) == {0: Fraction(1)}
    d66_top = dice_term(1, 66, explode=True, depth=1)  # a d66 explodes on 66
    assert got(d66_top)[66 + 11] == Fraction(1, 36 * 36)
    fudge_top = dice_term(2, "F", explode=True, depth=1, keep=("kh", 1))  # dF explodes on +1
    assert got(fudge_top) == enumerate_term(FUDGE, 2, explodes=lambda f: f == 1, depth=1, keep=("kh", 1))


def test_arithmetic_of_terms() -> None:
    expression = (dice_term(2, 6) * 2 - dice_term(1, 4)) // 3  # (2d6*2 - d4) / 3, rounding down
    twice = {2 * total: p for total, p in enumerate_term(plain(6), 2).items()}
    expected: Counter[int] = Counter()
    for a, p in twice.items():
        for b, q in plain(4).items():
            expected[(a - b) // 3] += p * q
    assert got(expression) == dict(expected)


def test_a_keep_of_too_much_work_is_refused() -> None:
    with pytest.raises(LimitError, match="odds size limit"):
        dice_term(500, 6, explode=True, keep=("kh", 250))
    assert dice_term(50, 10, explode=True, keep=("kl", 20)).leftover < Fraction(1, 10**12)  # one keep, shared


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
    with pytest.raises(CruxError, match="never ends"):
        dice_term(1, 6, reroll=lambda f: f < 7)
    with pytest.raises(CruxError, match="never ends"):
        dice_term(1, 1, explode=True)
    with pytest.raises(CruxError, match="between others"):
        dice_term(3, 6, explode=lambda f: f == 3, keep=("kh", 1))
    assert dice_term(3, 6, explode=lambda f: f == 3, compound=True, keep=("kh", 1), depth=1)  # one value each
