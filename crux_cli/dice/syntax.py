"""The syntax tree of generic dice expressions (crux-notation(7) DICE EXPRESSIONS): immutable records, nothing rolled.

One node type per operator, so the roller (engine/dice.py) and the exact odds
(odds/) can each walk the tree with a plain `match`. `str(node)` prints canonical
notation: the form the examples corpus and the output echo. Positions (`pos`)
point into the input for errors found after parsing and never take part in
equality.

Sums and products are n-ary (`first` and a tuple of `(operator, operand)`)
rather than nested binary nodes, so `1+1+…+1` is a flat node and walking it
never recurses deeper than the parentheses do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from crux_cli.core.record import Record, field

COMPARISONS = (">=", "<=", ">", "<", "=")


class Compare(Record):
    """A face test such as `>=5`; `=` is printed bare (`rr1`, not `rr=1`)."""

    op: str  # one of COMPARISONS
    value: int

    def test(self, face: int) -> bool:
        op, value = self.op, self.value
        if op == ">=":
            return face >= value
        if op == "<=":
            return face <= value
        if op == ">":
            return face > value
        if op == "<":
            return face < value
        return face == value

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


# -- dice ------------------------------------------------------------------------------------------

class Dice(Record):
    """`NdS`: N dice of S faces 1..S (`d%` is read as `1d100`)."""

    count: int
    sides: int
    pos: int = field(default=0, compare=False)

    def faces(self) -> range:
        return range(1, self.sides + 1)

    @property
    def top(self) -> int:
        return self.sides

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


class D66(Record):
    """`Nd66`: N d66 values, each two d6 read as tens and ones (11..66)."""

    count: int
    pos: int = field(default=0, compare=False)

    def faces(self) -> list[int]:
        return [10 * tens + ones for tens in range(1, 7) for ones in range(1, 7)]

    @property
    def top(self) -> int:
        return 66

    def __str__(self) -> str:
        return f"{self.count}d66"


class Fudge(Record):
    """`NdF`: N Fudge dice, each −1, 0 or +1."""

    count: int
    pos: int = field(default=0, compare=False)

    def faces(self) -> range:
        return range(-1, 2)

    @property
    def top(self) -> int:
        return 1

    def __str__(self) -> str:
        return f"{self.count}dF"


BaseDice = Dice | D66 | Fudge


class Reroll(Record):
    """`rrT` (again until the face no longer matches) or `roT` (once), on each die as it is rolled."""

    dice: BaseDice
    when: Compare
    once: bool
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.dice}{'ro' if self.once else 'rr'}{self.when}"


class Explode(Record):
    """`!` (on the top face), `!>=T`, or compounding `!!`: a die that matches rolls again."""

    dice: BaseDice | Reroll
    when: Compare | None  # None: the die's top face
    compound: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.dice}{self.suffix()}"

    def suffix(self) -> str:
        when = f"{self.when.op}{self.when.value}" if self.when else ""
        return f"{'!!' if self.compound else '!'}{when}"


class Keep(Record):
    """`khN` / `klN` (`kN` = `khN`): keep the N highest or lowest dice, drop the rest."""

    dice: BaseDice | Reroll | Explode
    highest: bool
    count: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.dice}{'kh' if self.highest else 'kl'}{self.count}"


class Drop(Record):
    """`dhN` / `dlN`: drop the N highest or lowest dice, keep the rest."""

    dice: BaseDice | Reroll | Explode
    highest: bool
    count: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.dice}{'dh' if self.highest else 'dl'}{self.count}"


class Successes(Record):
    """`NdS>=T`: the value is how many kept dice pass the test, not their sum."""

    dice: BaseDice | Reroll | Explode | Keep | Drop
    target: Compare
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        target = f"{self.target.op}{self.target.value}"
        if isinstance(self.dice, Explode):  # 10d10>=8! : written after `!`, the target would read as its threshold
            return f"{self.dice.dice}{target}{self.dice.suffix()}"
        return f"{self.dice}{target}"


class Sorted(Record):
    """`4d6s`: the dice are shown in ascending order of face; nothing else changes (a display modifier)."""

    dice: BaseDice | Reroll | Explode | Keep | Drop | Successes
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.dice}s"


DiceTerm = BaseDice | Reroll | Explode | Keep | Drop | Successes | Sorted


def unsorted(term: Expr) -> Expr:
    """The term under a sort (`4d6>=5s` counts successes as `4d6>=5` does)."""
    return term.dice if isinstance(term, Sorted) else term


def counts_successes(term: Expr) -> bool:
    return isinstance(unsorted(term), Successes)


def base_of(term: DiceTerm) -> BaseDice:
    """The plain dice under a term's modifiers."""
    while not isinstance(term, BaseDice):  # the union made once, not at every test
        term = term.dice
    return term


# -- arithmetic ------------------------------------------------------------------------------------

class Number(Record):
    value: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return str(self.value)


class SheetValue(Record):
    """`DEX` in a dice expression (`1d20 + DEX`): the loaded sheet's modifier of that attribute, read when the
    statement is rolled (dice/sheet_values.py), never while parsing."""

    attribute: str  # the short name: STR, DEX, INT, WIL
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return self.attribute


class Group(Record):
    """`( expr )`: kept so canonical notation shows the parentheses the user wrote."""

    expr: Expr
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"({self.expr})"


POOL_KEEPS = ("kh", "kl", "dh", "dl")  # `{…}kh1`; min and max are `kl1` and `kh1` written as functions
EXTREMES = ("min", "max")


class Pool(Record):
    """A grouped roll: `{A, B, C}` adds the items' totals; `{A, B}kh1` (kl, dh, dl) keeps or drops whole
    items by their totals, as keep/drop does dice; `min(A, B)` and `max(A, B)` keep the lowest or highest."""

    items: tuple[Expr, ...]
    keep: str = ""  # "", one of POOL_KEEPS, or one of EXTREMES
    count: int = 1
    pos: int = field(default=0, compare=False)

    def kept_count(self) -> int:
        """How many items count: all of them, or what the keep or drop leaves (never fewer than 0)."""
        n = len(self.items)
        if not self.keep:
            return n
        if self.keep in EXTREMES:
            return min(1, n)
        return max(0, min(self.count, n)) if self.keep[0] == "k" else max(0, n - self.count)

    @property
    def highest(self) -> bool:
        """Do the kept items come from the top?"""
        return self.keep in ("kh", "dl", "max", "")

    def __str__(self) -> str:
        inside = ", ".join(str(item) for item in self.items)
        if self.keep in EXTREMES:
            return f"{self.keep}({inside})"
        return "{" + inside + "}" + (f"{self.keep}{self.count}" if self.keep else "")


class Labelled(Record):
    """`term [fire]`: a label on the term right before it (dice, number or group)."""

    expr: Expr
    label: str
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.expr} [{self.label}]"


class Negate(Record):
    """Unary minus (runs of signs are folded while parsing: `--2` is `2`)."""

    operand: Expr
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"-{self.operand}"


class Product(Record):
    """`a * b / c`: left to right; `/` floors toward minus infinity (−7/2 = −4)."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]  # ("*" | "/", operand)
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return str(self.first) + "".join(f" {op} {operand}" for op, operand in self.rest)


class Sum(Record):
    """`a + b - c`: left to right."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]  # ("+" | "-", operand)
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return str(self.first) + "".join(f" {op} {operand}" for op, operand in self.rest)


Expr = Number | DiceTerm | Group | Labelled | Negate | Product | Sum | Pool | SheetValue


# -- statements ------------------------------------------------------------------------------------

class Roll(Record):
    """`[roll] [Nx] EXPR`: a dice expression, rolled `repeat` times (each its own answer)."""

    expr: Expr
    repeat: int = 1
    pos: int = field(default=0, compare=False)
    reads_sheet: bool = field(default=False, compare=False)  # names an attribute (`1d20 + DEX`): see SheetValue

    def __str__(self) -> str:
        return f"{self.repeat}x {self.expr}" if self.repeat != 1 else readable(self.expr)




class Versus(Record):
    """`EXPR vs N`, a target (the roll passes when its total reaches N), or `EXPR vs EXPR`, an opposed roll
    (both sides rolled: the higher total wins, equal totals tie). A side with no dice is a target."""

    expr: Expr
    against: Expr
    repeat: int = 1
    pos: int = field(default=0, compare=False)
    reads_sheet: bool = field(default=False, compare=False)

    @property
    def opposed(self) -> bool:
        return has_dice(self.against)

    def __str__(self) -> str:
        return (f"{self.repeat}x {self.expr}" if self.repeat != 1 else readable(self.expr)) + f" vs {self.against}"


def readable(expr: Expr) -> str:
    """The expression as it reads back: one that starts with an attribute (`+ STR` prints `STR`) would be read
    as a rule set's statement, so `roll` goes first."""
    text = str(expr)
    first = next(leaves(expr))
    return f"roll {text}" if isinstance(first, SheetValue) and text.startswith(first.attribute) else text


def leaves(expr: Expr) -> Iterator[Expr]:
    """The nodes of `expr` that hold no other expression: numbers, dice, sheet values."""
    if isinstance(expr, Group | Labelled):
        yield from leaves(expr.expr)
    elif isinstance(expr, Negate):
        yield from leaves(expr.operand)
    elif isinstance(expr, Sum | Product):
        yield from leaves(expr.first)
        for _, operand in expr.rest:
            yield from leaves(operand)
    elif isinstance(expr, Pool):
        for item in expr.items:
            yield from leaves(item)
    else:
        yield expr


def names_attribute(expr: Expr) -> bool:
    """Does `expr` name an attribute (a `SheetValue`) anywhere?"""
    return any(isinstance(leaf, SheetValue) for leaf in leaves(expr))


def has_dice(expr: Expr) -> bool:
    """Does rolling `expr` roll any die?"""
    return any(not isinstance(leaf, Number | SheetValue) for leaf in leaves(expr))


class Countdown(Record):
    """`CdS`: a countdown die; on a 1 it shrinks one size (d8 → d6), and a 1 on Cd4 ends it."""

    sides: int
    repeat: int = 1
    pos: int = field(default=0, compare=False)
    reads_sheet: ClassVar[bool] = False

    def __str__(self) -> str:
        return (f"{self.repeat}x " if self.repeat != 1 else "") + f"Cd{self.sides}"


DiceStatement = Roll | Countdown | Versus
