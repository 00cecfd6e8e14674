"""Polynomials of weights, and the algorithms on them: the weight of outcome `o` is the coefficient of `x**o`,
a dense list from the lowest outcome up, packed into one big integer (a slot of fixed width each) so that a
product is one big-integer multiplication; powers of them (`dist.Dist.sum_of`), the highest `keep` of
`count` dice (`Dist.keep_highest`), and dice that explode in closed form (`Dist.explode`, `explode_sum`).

The algorithms read a distribution as `cost.Weighted` (a `dist.Dist` is one) and give back its weights
(`Dense`, or outcomes and weights); `dist.py` makes the `Dist` of them, so this module never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from math import comb
from operator import add
from typing import TYPE_CHECKING

from crux_cli.probability import cost

if TYPE_CHECKING:
    from crux_cli.probability.cost import Score, Weighted

Dense = tuple[int, list[int], int]  # a distribution's weights: (its lowest outcome, dense weights, denominator)


def dense_of(dist: Weighted) -> list[int]:
    """The weights of every integer from the lowest outcome to the highest (0 where there is none)."""
    lo = dist.outcomes[0]
    dense = [0] * (dist.outcomes[-1] - lo + 1)
    for o, w in zip(dist.outcomes, dist.weights, strict=True):
        dense[o - lo] = w
    return dense


def slot_bytes(bound: int) -> int:
    """Bytes per packed coefficient when no coefficient exceeds `bound`."""
    return max(1, (bound.bit_length() + 7) // 8)


def pack(dense: list[int], width: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in dense), "little")


def unpack(packed: int, width: int, slots: int) -> list[int]:
    raw = packed.to_bytes(width * slots, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * slots, width)]


def uniform_power(degree: int, count: int) -> list[int]:
    """Coefficients of (1 + x + ... + x**degree)**count: the ways count dice of degree+1 faces sum.

    Miller's recurrence (see `power_by_recurrence`) with every coefficient of P
    equal to 1 needs only two running window sums, so each coefficient costs O(1).
    """
    slots = count * degree + 1
    upto = slots // 2 + 1  # palindromic: compute half, mirror the rest
    coefficients = [1] + [0] * (upto - 1)
    window = weighted = 1  # sum of a[k-i] and of i*a[k-i] for i = 1..degree, here for k = 1
    scale = count + 1
    for k in range(1, upto):
        value = (scale * weighted - k * window) // k
        coefficients[k] = value
        old = coefficients[k - degree] if k >= degree else 0
        weighted += window + value - (degree + 1) * old
        window += value - old
    return coefficients + coefficients[:slots - upto][::-1]


def power_by_recurrence(dense: list[int], count: int) -> list[int]:
    """Coefficients of P(x)**count by J.C.P. Miller's recurrence, O(result x len(P)).

    From A = P**n follows P*A' = n*P'*A, which gives each coefficient from the
    previous len(P)-1 with one exact division. A palindromic P (a fair die) has a
    palindromic power, so only half is computed.
    """
    degree = len(dense) - 1
    slots = count * degree + 1
    symmetric = dense == dense[::-1]
    upto = slots // 2 + 1 if symmetric else slots
    first = dense[0]
    coefficients = [first ** count] + [0] * (upto - 1)
    factors = list(enumerate(dense))[1:]
    scale = count + 1
    for k in range(1, upto):
        total = 0
        for i, p in factors[:k]:
            if p:
                total += (scale * i - k) * p * coefficients[k - i]
        coefficients[k] = total // (k * first)
    if symmetric:
        coefficients += coefficients[:slots - upto][::-1]
    return coefficients


def times_window_power(column: list[int], width: int, count: int) -> list[int]:
    """The coefficients of column(z) * (1 + z + ... + z**(width - 1))**count, without a big product:
    that power is (1 - z**width)**count, sparse, over (1 - z)**count, which is `count` prefix sums."""
    length = len(column) + (width - 1) * count
    result = [0] * length
    binomial = 1  # comb(count, j)
    for j in range(count + 1):
        at = j * width
        if at >= length:
            break  # past the product's degree: the prefix sums never carry a term downwards
        part = column[:length - at]
        result[at:at + len(part)] = map(add, result[at:at + len(part)],
                                        map((-binomial if j & 1 else binomial).__mul__, part))
        binomial = binomial * (count - j) // (j + 1)
    for _ in range(count):
        result = list(accumulate(result))
    return result


def ways_from(t: int, n: int, k: int) -> list[int]:
    """For a = 0 .. k-1: the ways n - a dice (faces of weight 1) put at least k - a of them on
    face t and the rest below, sum over e >= k - a of comb(n - a, e) * t**(n - a - e).

    That is (t + 1)**(n - a) less P_a = sum over e < k - a, and along a the P_a follow
    P_a = (t + 1) * P_(a+1) + comb(n - a - 1, k - a - 1) * t**(n - k + 1), from P_k = 0.
    """
    return ways_over(1, t, n, k)


def ways_over(here: int, below: int, n: int, k: int) -> list[int]:
    """`ways_from` for a face of weight `here` with total weight `below` under it:
    sum over e >= k - a of comb(n - a, e) * here**e * below**(n - a - e)."""
    both = here + below
    tail = below ** (n - k + 1)
    partial, binomial, power_here = 0, 1, 1  # P_a, comb(n-a-1, k-a-1), here**(k-a-1)
    everything = both ** (n - k + 1)  # both**(n - a)
    ways = [0] * k
    for a in range(k - 1, -1, -1):
        partial = both * partial + binomial * power_here * tail
        ways[a] = everything - partial
        everything *= both
        binomial = binomial * (n - a) // (k - a)  # comb(n-a, k-a) from comb(n-a-1, k-a-1)
        power_here *= here
    return ways


# ----- the highest `keep` of `count` dice, 1 < keep < count -----------------------------------------

def keep_methods(single: Weighted, count: int, keep: int,
                  score: Score | None) -> list[tuple[float, Callable[[], Dense]]]:
    """The ways to work out a keep that apply here (`cost.keep_ways` says which), each with its cost."""
    values = [score(o) for o in single.outcomes] if score else list(single.outcomes)
    methods: dict[str, Callable[[], Dense]] = {
        "uniform": lambda: keep_uniform(single, count, keep),
        "placing": lambda: keep_by_placing(single, count, keep, values),
        "threshold": lambda: keep_by_threshold(single, count, keep, values),
    }
    return [(seconds, methods[way]) for way, seconds in cost.keep_ways(single, count, keep, score).items()]


def keep_highest(single: Weighted, count: int, keep: int, score: Score | None = None) -> Dense:
    """Sum of the `keep` highest of `count` copies (of their scores, if given), 1 < keep < count,
    by the cheapest method that applies."""
    estimate, method = min(keep_methods(single, count, keep, score), key=lambda pair: pair[0])
    cost.check(estimate)
    return method()


def keep_uniform(single: Weighted, count: int, keep: int) -> Dense:
    """`keep_highest` for a uniform run of faces 0..S-1 (shifted): O(keep**2 * S) integer operations.

    Split by the face t of the keep-th highest die: a < keep dice above it, the rest at t or
    below. The a dice above are a fair sample of faces t+1..S-1, whose generating function is
    x**(t+1) * (1 - x**m) / (1 - x), m = S-1-t; the kept at t add (keep - a) * t. So the answer is

        sum over a of M_a / (1 - x)**a,   M_a = sum over t of c(t, a) * x**(keep*t + a) * (1 - x**m)**a

    where c(t, a) = comb(count, a) * (the ways for the other count-a dice to put at least keep-a
    of them on t and the rest below). Each M_a is sparse; the divisions by (1 - x) are prefix
    sums, done Horner-fashion: R = M_{k-1}; R = M_a + R / (1 - x) for a = k-2 .. 0.
    """
    faces, n, k = len(single), count, keep
    ways = [ways_from(t, n, k) for t in range(faces)]
    choose_a = [comb(n, a) for a in range(k)]
    signed = [1]  # the coefficients of (1 - x)**a, from a = k - 1 down
    for i in range(k - 1):
        signed.append(-signed[-1] * (k - 1 - i) // (i + 1))
    result = [0] * (k * faces)  # above every exponent of M_a, and so of each R (the divisions are exact)
    for a in range(k - 1, -1, -1):
        if a < k - 1:
            result = list(accumulate(result))  # divided by (1 - x)
            signed = list(accumulate(signed))[:a + 1]  # (1 - x)**a: (1 - x)**(a + 1) divided by (1 - x)
        for t in range(faces if a == 0 else faces - 1):  # nothing lies above the top face
            m, coefficient = faces - 1 - t, choose_a[a] * ways[t][a]
            if m == 0:
                result[k * t] += coefficient
                continue
            at = slice(k * t + a, k * t + a + m * a + 1, m)  # M_a's terms for this t, dense in C loops
            result[at] = map(add, result[at], map(coefficient.__mul__, signed))
    scale = single.weights[0] ** n
    return (k * single.outcomes[0], [c * scale for c in result[:k * (faces - 1) + 1]],
                       single.denominator ** n)


def keep_by_threshold(single: Weighted, count: int, keep: int, values: list[int]) -> Dense:
    """`keep_highest` for any die: split by the face t of the keep-th highest die, as
    `keep_uniform` does, with the dice above it as powers of a packed polynomial A_t, summed
    Horner-fashion: sum over a of c(t, a) * A_t**a * x**((keep - a) * value_t), keep products
    per face."""
    lo = min(values)
    span = max(values) - lo
    slots = keep * span + 1
    width = slot_bytes((2 * single.total + 1) ** count)  # bounds every partial sum (see below)
    bits = 8 * width
    result = 0
    above = 0  # A_t packed: the faces above t, by value
    below = single.total
    choose_a = [comb(count, a) for a in range(keep)]
    for value, weight in zip(reversed(values), reversed(single.weights), strict=True):
        below -= weight
        step = bits * (value - lo)
        ways = ways_over(weight, below, count, keep)
        # Horner over a: H = c_(k-1) X; H = H * A + c_a X**(k-a); each c(t, a) * A**a is at most
        # comb(count, a) * total**count, so every H stays under (2 * total)**count.
        horner = (choose_a[keep - 1] * ways[keep - 1]) << step
        for a in range(keep - 2, -1, -1):
            horner = horner * above + ((choose_a[a] * ways[a]) << (step * (keep - a)))
        result += horner
        above += weight << step
    return (keep * lo, unpack(result, width, slots), single.denominator ** count)


def keep_by_placing(single: Weighted, count: int, keep: int, values: list[int]) -> Dense:
    """`keep_highest` by placing dice on the faces from the highest down: cheap when few are kept.

    Walk the outcomes from the highest down. `placed[c]` is the packed polynomial
    (in the kept sum) of the ways `c < keep` dice have landed on the outcomes seen
    so far. At each outcome, j more dice land there: while the kept count stays
    below `keep` the state moves to c + j; once it reaches `keep`, the remaining
    dice may take any lower outcome, so that branch is finished at once, all j
    at the same shift.
    """
    lo = min(values)
    span = max(values) - lo
    slots = keep * span + 1
    width = slot_bytes((single.total + 1) ** count)  # bounds every partial count (binomial theorem)
    bits = 8 * width
    placed = [0] * keep
    placed[0] = 1
    finished = 0
    below = single.total
    for value, w in zip(reversed(values), reversed(single.weights), strict=True):
        below -= w
        step = bits * (value - lo)
        moved = [0] * keep
        for c, poly in enumerate(placed):
            if not poly:
                continue
            left = count - c
            need = keep - c  # dice that fill the kept set from here
            ways_here = 1  # comb(left, j) * w**j: j of the `left` dice land on this outcome
            short = 0  # ways that keep fewer than `need` here, the rest lower
            for j in range(need if below else 0):  # at the lowest outcome every die must land
                if j:
                    ways_here = ways_here * w * (left - j + 1) // j
                moved[c + j] += (poly << (step * j)) * ways_here
                short += ways_here * below ** (left - j)
            # every way for the other dice to land here or lower, less those that keep too few here
            finished += (poly << (step * need)) * ((w + below) ** left - short)
        placed = moved
    return (keep * lo, unpack(finished, width, slots), single.denominator ** count)


# ----- dice that explode ------------------------------------------------------------------------------

def exploding_total(stops: Weighted, each: int, face: int, up: int, count: int, depth: int) -> Dense:
    """`explode_sum` with one exploding `face` of weight `up`: Q, the stopping faces' total of `count`
    dice, shifted by face * k for k explosions, each weighted ways(k) * up**k * each**(rolls - k)
    (rolls = count * depth, the most explosions counted).

    Those weights span thousands of bits, nearly all of them the power of `each`. Write a total as
    low + face * K + r (0 <= r < face): it is reached from Q[r + face * i] with k = K - i, so its
    weight is each**(rolls - K) times the convolution, over i, of Q[r + face * i] * each**i with
    ways(k) * up**k, whose terms are short. One packed product per residue r.
    """
    rolls = count * depth
    dense = dense_of(stops)
    power_up, scaled = 1, []  # ways(k) * up**k
    for ways in uniform_power(depth, count):
        scaled.append(ways * power_up)
        power_up *= up
    each_powers = [1]
    for _ in range(rolls + (len(dense) - 1) // face):
        each_powers.append(each_powers[-1] * each)
    totals = [0] * (len(dense) + face * rolls)
    for r in range(min(face, len(dense))):
        column = [q * each_powers[i] for i, q in enumerate(dense[r::face])]
        if not any(column):
            continue  # no stopping total in this residue
        width = slot_bytes(max(column) * max(scaled) * min(len(column), len(scaled)))
        slots = len(column) + rolls
        if up == 1 and (cost.window_cost(len(column), depth + 1, count, 8 * width)
                        < cost.residue_cost(len(column), rolls, width)):
            inner = times_window_power(column, depth + 1, count)  # ways(k) are (1 + ... + z**depth)**count
        else:
            inner = unpack(pack(column, width) * pack(scaled, width), width, slots)
        # K <= rolls: times each**(rolls - K); beyond, every term holds each**(K - rolls): divide it out
        totals[r::face] = [value * each_powers[rolls - k] if k <= rolls else value // each_powers[k - rolls]
                           for k, value in enumerate(inner)]
    return stops.outcomes[0], totals, each ** (rolls + count)


def layered_chain(stopping: Weighted, exploding: Weighted, depth: int,
                  truncate: bool) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """`explode` when one face explodes and chains of different lengths cannot meet (the usual
    explode-on-the-highest-face): chain t is t exploding faces then a stopping one, written out.

    Over the denominator each**(depth+1), chain t weighs up**t * w * each**(depth-t).
    """
    top, up, each = exploding.outcomes[0], exploding.weights[0], stopping.denominator
    outcomes: list[int] = []
    weights: list[int] = []
    for t in range(depth + 1):
        scale = up ** t * each ** (depth - t)
        outcomes.extend(t * top + o for o in stopping.outcomes)
        weights.extend(w * scale for w in stopping.weights)
    if truncate:  # the last fresh roll stands even when it shows the exploding face
        outcomes.append((depth + 1) * top)
        weights.append(up ** (depth + 1))
    return tuple(outcomes), tuple(weights), each ** (depth + 1)
