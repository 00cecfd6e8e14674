"""Odds of generic dice expressions (NOTATION §2), as functions with plain parameters.

The dice AST compiles to these in a few lines: each dice term to `dice_term`,
each `+ - * /` and unary minus to the `Dist` operators (`/` is `//`: it rounds
down), a bare integer to `constant`, and the whole expression to `dice_odds`
(crux_cli.odds.result). A countdown die has `countdown_odds`.

What a term means, in order, per die: the face (`sides` 2..10000, "%", "F" or
66); rerolls (`ro`: once, `rr`: while the face matches); explosions (`!` on the
highest face, `!>=T` on T or more; the chain's fresh rolls are like the first);
then, over the `count` dice, either success counting (`>=T`) or one keep/drop
(`khN` `klN` `dhN` `dlN`), or the plain sum. An exploding die's chain counts as
one value when dice are kept or dropped or counted as successes, which is what
compounding (`!!`) means and what `!` means too under this reading; the two give
the same sum.
"""

from __future__ import annotations

from crux_cli.errors import CruxError
from crux_cli.odds.dist import Dist, Predicate, d66, default_depth, die, fudge, percentile, pool
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
              explode: bool = False, explode_at: int | None = None, depth: int | None = None,
              reroll: tuple[int, ...] = (), reroll_below: int | None = None, reroll_once: bool = True,
              success_at: int | None = None) -> Dist:
    """The distribution of one dice term, e.g. `4d6kh3`, `3d6!`, `2d10!>=9`, `4d6ro<2`, `6d10>=8`.

    `keep` is ("kh"|"kl"|"dh"|"dl", N). `explode` (or an `explode_at` threshold)
    makes each die explode, up to `depth` fresh rolls per die (default: the least
    that leaves under 1e-12 uncounted over the `count` dice). `reroll` lists faces
    and `reroll_below` a bound (faces below it) to roll again, once or
    (`reroll_once=False`) for as long as they come up.
    """
    single = base_die(sides)
    if reroll or reroll_below is not None:
        matches = _reroll_match(reroll, reroll_below)
        single = single.reroll_once(matches) if reroll_once else single.reroll(matches)
    if explode or explode_at is not None:
        threshold = single.outcomes[-1] if explode_at is None else explode_at
        single = single.explode(depth, on=lambda face: face >= threshold, count=count)
    if success_at is not None:
        return single.successes(count, lambda face: face >= success_at)
    if keep is None:
        return single.sum_of(count)
    how, n = keep
    if how not in KEEPS:
        raise CruxError(f"'{how}' is not a way to keep or drop dice", hint="use kh, kl, dh or dl")
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

