"""Odds of generic dice expressions (NOTATION §2), as functions with plain parameters.

The dice AST compiles to these in a few lines: each dice term to `dice_term`,
each `+ - * /` and unary minus to the `Dist` operators (`/` is `//`: it rounds
down), a bare integer to `constant`, and the whole expression to `dice_odds`
(crux_cli.odds.result). A countdown die has `countdown_odds`.

What a term means, in order, per die: the face (`sides` 2..10000, "%", "F" or
66); rerolls (`ro`: once, `rr`: while the face matches); explosions (`!` on the
highest face, `!>=T` on T or more; the chain's fresh rolls are like the first);
then, over the `count` dice, either success counting (`>=T`) or one keep/drop
(`khN` `klN` `dhN` `dlN`), or the plain sum.

Kept, dropped or counted, the two kinds of explosion differ: with `!` every
fresh roll is a die of its own (`4d6!kh3` keeps three of all the dice rolled,
as NOTATION §2 reads "adds another die"); with `!!` a die's chain is one value.
Their sums are the same.
"""

from __future__ import annotations

from crux_cli.errors import CruxError
from crux_cli.odds.dist import Dist, Predicate, constant, d66, default_depth, die, fudge, percentile, pool
from crux_cli.odds.result import Odds, rows

KEEPS = ("kh", "kl", "dh", "dl")


def base_die(sides: int | str) -> Dist:
    """One die of NOTATION §2: `dS`, `d%`, `dF`, `d66`."""
    if sides == "%":
        return percentile()
    if isinstance(sides, str) and sides.upper() == "F":
        return fudge()
    if sides == 66:
        return d66()
    if not isinstance(sides, int) or sides < 1:
        raise CruxError(f"there is no die d{sides}")
    return die(sides)


def dice_term(count: int, sides: int | str, *, keep: tuple[str, int] | None = None,
              explode: bool = False, explode_at: int | None = None, compound: bool = False,
              depth: int | None = None, reroll: tuple[int, ...] = (), reroll_below: int | None = None,
              reroll_once: bool = True, success_at: int | None = None) -> Dist:
    """The distribution of one dice term, e.g. `4d6kh3`, `3d6!`, `2d10!>=9`, `4d6ro<2`, `6d10>=8`.

    `keep` is ("kh"|"kl"|"dh"|"dl", N). `explode` (or an `explode_at` threshold)
    makes each die explode, up to `depth` fresh rolls per die (default: the least
    that leaves under 1e-12 uncounted over the `count` dice); `compound` (`!!`)
    makes each die's chain one value. `reroll` lists faces and `reroll_below` a
    bound (faces below it) to roll again, once or (`reroll_once=False`) for as
    long as they come up.
    """
    if keep is not None and keep[0] not in KEEPS:
        raise CruxError(f"'{keep[0]}' is not a way to keep or drop dice", hint="use kh, kl, dh or dl")
    single = base_die(sides)
    if reroll or reroll_below is not None:
        matches = _reroll_match(reroll, reroll_below)
        single = single.reroll_once(matches) if reroll_once else single.reroll(matches)
    if explode or explode_at is not None:
        threshold = single.outcomes[-1] if explode_at is None else explode_at
        if depth is None:
            depth = default_depth(single.probability(lambda face: face >= threshold), count)
        if not compound and (keep is not None or success_at is not None):
            return exploded_dice(count, single, threshold, depth, keep=keep, success_at=success_at)
        single = single.explode(depth, on=lambda face: face >= threshold)
    if success_at is not None:
        return single.successes(count, lambda face: face >= success_at)
    return _kept(count, single, keep)


def exploded_dice(count: int, single: Dist, threshold: int, depth: int, *,
                  keep: tuple[str, int] | None = None, success_at: int | None = None) -> Dist:
    """`count` dice exploding on `threshold` or more, each fresh roll a die of its own, then kept,
    dropped or counted as successes. No enumeration of the dice:

    A die's chain is some exploding faces, then one that stops it. Given that `e`
    faces exploded among all the dice, those `e` are independent draws of an
    exploding face and the `count` last ones of a stopping face; and every
    exploding face is higher than every stopping one, so the highest dice are
    exploding faces first. The answer mixes, over the distribution of `e`,
    a keep of the exploding faces and a keep of the stopping ones.
    """
    explodes = single.part(lambda face: face >= threshold)
    stops = single.part(lambda face: face < threshold)
    if not explodes.outcomes:
        return single.successes(count, lambda f: f >= success_at) if success_at is not None else (
            _kept(count, single, keep))
    if not stops.outcomes:
        raise CruxError("every face of this die explodes, so the roll never ends",
                        hint="explode on fewer faces, e.g. only the highest")
    high = Dist(explodes.outcomes, explodes.weights, explodes.total)  # an exploding face, given it exploded
    low = Dist(stops.outcomes, stops.weights, stops.total)
    up, down, each = explodes.total, stops.total, single.denominator
    # explosions of one die: t with probability up**t * down / each**(t+1), t <= depth; the rest left over
    per_die = Dist(tuple(range(depth + 1)),
                   tuple(up ** t * down * each ** (depth - t) for t in range(depth + 1)), each ** (depth + 1))

    def given(exploded: int) -> Dist:
        if success_at is not None:
            hits = low.successes(count, lambda f: f >= success_at)
            return hits + high.successes(exploded, lambda f: f >= success_at) if exploded else hits
        return _split_keep(high, exploded, low, count, keep)

    return per_die.sum_of(count).bind(given)


def _split_keep(high: Dist, highs: int, low: Dist, lows: int, keep: tuple[str, int] | None) -> Dist:
    """Keep or drop among `highs` dice like `high` and `lows` like `low`, every `high` face above
    every `low` one."""
    total = highs + lows
    if keep is None:
        return _sum(high, highs) + low.sum_of(lows)
    how, n = keep
    if how in ("dh", "dl"):  # dropping n keeps the others, from the other end
        how, n = ("kl" if how == "dh" else "kh"), total - n
    n = max(0, min(n, total))
    if how == "kh":
        if n <= highs:
            return high.keep_highest(highs, n) if highs else constant(0)
        return _sum(high, highs) + low.keep_highest(lows, n - highs)
    if n <= lows:
        return low.keep_lowest(lows, n)
    return low.sum_of(lows) + high.keep_lowest(highs, n - lows)


def _sum(single: Dist, count: int) -> Dist:
    return single.sum_of(count) if count else constant(0)


def _kept(count: int, single: Dist, keep: tuple[str, int] | None) -> Dist:
    if keep is None:
        return single.sum_of(count)
    how, n = keep
    option = {"kh": "keep_highest", "kl": "keep_lowest", "dh": "drop_highest", "dl": "drop_lowest"}[how]
    return pool(count, single, **{option: n})


def explosion_depth(count: int, sides: int | str, explode_at: int | None = None) -> int:
    """The default cap `dice_term` uses for `count` exploding dice (for the odds' text)."""
    single = base_die(sides)
    threshold = single.outcomes[-1] if explode_at is None else explode_at
    return default_depth(single.probability(lambda face: face >= threshold), count)


def countdown_odds(sides: int) -> Odds:
    """`Cd8`: a 1 shrinks the die a size (d8 -> d6); a 1 on Cd4 ends it."""
    face = die(sides)
    one = face.probability(lambda f: f == 1)
    change = "ends" if sides <= 4 else "shrinks"
    return Odds(kind="countdown", outcomes=rows({"holds": 1 - one, change: one}),
                distribution=tuple(face.items()), label="face", mean=face.mean())


def _reroll_match(values: tuple[int, ...], below: int | None) -> Predicate:
    wanted = frozenset(values)
    return lambda face: face in wanted or (below is not None and face < below)

