"""Rolling generic dice expressions: the syntax tree in, a *rolled* tree out.

The rolled tree mirrors the syntax tree node for node and records every die:
its face, whether it was kept or dropped, rerolled away, set off an explosion
or was added by one. The syntax tree is never changed, so one statement can be
rolled many times (`6x 4d6kh3`). Pure: no printing, no global random state;
every die comes from the `Roller`, which counts it against the dice limit.
"""

from __future__ import annotations

from typing import ClassVar

from crux_cli.core.errors import CruxError
from crux_cli.core.limits import EXPLOSION_DEPTH
from crux_cli.core.memo import REMEMBERED, by_identity
from crux_cli.core.record import Record
from crux_cli.core.rng import Roller
from crux_cli.core.vocabulary import COUNTDOWN_HINT, COUNTDOWN_SIZES
from crux_cli.dice import syntax


class Die(Record):
    """One die as rolled. `kept` is False both for dice dropped by keep/drop and for rerolled faces."""

    value: int
    kept: bool = True
    rerolled: bool = False  # replaced by a reroll: shown, never counted
    exploded: bool = False  # its face set off an explosion
    added: bool = False  # rolled by an explosion
    parts: tuple[int, ...] = ()  # compounding (!!): the faces added up into `value`
    success: bool | None = None  # success counting: whether it passed the target

    @property
    def live(self) -> bool:
        """Still in play (not rerolled away): the dice keep/drop chooses among."""
        return not self.rerolled


class RolledDice(Record):
    term: syntax.DiceTerm
    dice: tuple[Die, ...]
    value: int  # the kept dice added up, or the number of successes


class RolledNumber(Record):
    node: syntax.Number
    value: int


class RolledGroup(Record):
    node: syntax.Group
    inner: Rolled
    value: int


class RolledLabel(Record):
    node: syntax.Labelled
    inner: Rolled
    value: int


class RolledNegate(Record):
    node: syntax.Negate
    inner: Rolled
    value: int


class RolledChain(Record):
    """A rolled Sum or Product: the operands in order with their operators."""

    node: syntax.Sum | syntax.Product
    first: Rolled
    rest: tuple[tuple[str, Rolled], ...]
    value: int


class RolledPool(Record):
    """A rolled grouped roll or min/max: each item rolled, and which of them count."""

    node: syntax.Pool
    items: tuple[Rolled, ...]
    kept: tuple[bool, ...]
    value: int


Rolled = RolledDice | RolledNumber | RolledGroup | RolledLabel | RolledNegate | RolledChain | RolledPool


class DiceResult(Record):
    kind: ClassVar[str] = "dice"
    statement: syntax.Roll
    rolled: Rolled

    @property
    def total(self) -> int:
        return self.rolled.value


class VersusResult(Record):
    """One roll of `EXPR vs N` (a target) or `EXPR vs EXPR` (opposed: the other side is rolled too).

    A target passes when the total reaches it (`>=`); the margin is the total less the target. An
    opposed roll is won by the higher total, and equal totals are a tie (no side wins); the margin is
    this side's total less the other's.
    """

    statement: syntax.Versus
    rolled: Rolled
    against: Rolled

    @property
    def kind(self) -> str:
        return "opposed" if self.statement.opposed else "target"

    @property
    def total(self) -> int:
        return self.rolled.value

    @property
    def margin(self) -> int:
        return self.rolled.value - self.against.value

    @property
    def outcome(self) -> str:
        margin = self.margin
        if not self.statement.opposed:
            return "pass" if margin >= 0 else "fail"
        return "win" if margin > 0 else "tie" if margin == 0 else "lose"


class CountdownResult(Record):
    """One roll of a countdown die: a 1 shrinks it one size, and a 1 on the smallest ends it."""

    kind: ClassVar[str] = "countdown"
    sides: int
    face: int
    next_sides: int | None  # the die to roll next time; None once the countdown has ended

    @property
    def outcome(self) -> str:
        if self.face != 1:
            return "holds"
        return "ends" if self.next_sides is None else "shrinks"

    @property
    def total(self) -> int:
        return self.face


# -- expressions -----------------------------------------------------------------------------------

def roll_expression(roller: Roller, expr: syntax.Expr) -> Rolled:
    """Roll every die of `expr` and work out its value."""
    # a dice term told by its type (one set lookup), then isinstance in turn rather than `match`: a class pattern
    # costs more, and a batch rolls every node
    if type(expr) in DICE_TERMS:
        return roll_dice(roller, expr)  # type: ignore[arg-type]
    if isinstance(expr, (syntax.Sum, syntax.Product)):
        return roll_operations(roller, expr)
    if isinstance(expr, syntax.Number):  # the same every roll: one record a number of the tree
        return expr.__dict__.get(NUMBER_KEY) or rolled_number(expr)
    if isinstance(expr, syntax.Group):
        rolled = roll_expression(roller, expr.expr)
        return RolledGroup(expr, rolled, rolled.value)
    if isinstance(expr, syntax.Labelled):
        rolled = roll_expression(roller, expr.expr)
        return RolledLabel(expr, rolled, rolled.value)
    if isinstance(expr, syntax.Negate):
        rolled = roll_expression(roller, expr.operand)
        return RolledNegate(expr, rolled, -rolled.value)
    if isinstance(expr, syntax.Pool):
        return roll_pool(roller, expr)
    if isinstance(expr, syntax.SheetValue):  # the handler puts the sheet's values in first: here, there is none
        from crux_cli.dice.sheet_values import no_sheet

        no_sheet(expr)
    return roll_dice(roller, expr)


DICE_TERMS = frozenset({syntax.Dice, syntax.D66, syntax.Fudge, syntax.Reroll, syntax.Explode, syntax.Keep, syntax.Drop,
                        syntax.Successes, syntax.Sorted})  # syntax.DiceTerm's types


def number_rolled(node: syntax.Number) -> RolledNumber:
    return RolledNumber(node, node.value)


rolled_number = by_identity(number_rolled)  # a number "rolled": one immutable record a node, shared by every roll
NUMBER_KEY: str = rolled_number.kept_as  # type: ignore[attr-defined]  # where a node keeps it


def roll_pool(roller: Roller, pool: syntax.Pool) -> RolledPool:
    """Every item of the group in order; the kept ones add up (among equal totals the earlier is dropped first)."""
    items = tuple(roll_expression(roller, item) for item in pool.items)
    kept = kept_items([item.value for item in items], pool.kept_count(), pool.highest)
    return RolledPool(pool, items, kept, sum(item.value for item, keep in zip(items, kept, strict=True) if keep))


def kept_items(values: list[int], count: int, highest: bool) -> tuple[bool, ...]:
    """Which of `values` the `count` highest (or lowest) are; ties drop the earlier value first, as dice do."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i) if highest else (-values[i], i))
    dropped = set(order[:len(values) - count])
    return tuple(i not in dropped for i in range(len(values)))


def roll_operations(roller: Roller, node: syntax.Sum | syntax.Product) -> RolledChain:
    first = roll_expression(roller, node.first)
    value = first.value
    rest = []
    for op, operand in node.rest:
        rolled = roll_expression(roller, operand)
        if op == "+":  # `apply`'s commonest cases, without a call
            value += rolled.value
        elif op == "-":
            value -= rolled.value
        else:
            value = apply(op, value, rolled.value, operand)
        rest.append((op, rolled))
    return RolledChain(node, first, tuple(rest), value)


def apply(op: str, left: int, right: int, operand: syntax.Expr) -> int:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if right == 0:
        why = "" if isinstance(operand, syntax.Number) else f" ({operand} came to 0)"
        raise CruxError(f"division by zero{why}", position=operand.pos,
                        hint="make sure what you divide by cannot be 0")
    return left // right  # floor: toward minus infinity, so -7/2 is -4


def least_dice(expr: syntax.Expr) -> int:
    """The dice `expr` rolls at the least (before rerolls and explosions), for an early refusal."""
    # isinstance in turn rather than `match`, as `roll_expression` does: a batch of different lines walks each tree
    if isinstance(expr, syntax.Number):
        return 0
    if isinstance(expr, syntax.Group | syntax.Labelled):
        return least_dice(expr.expr)
    if isinstance(expr, syntax.Negate):
        return least_dice(expr.operand)
    if isinstance(expr, syntax.Sum | syntax.Product):
        return least_dice(expr.first) + sum(least_dice(operand) for _, operand in expr.rest)
    if isinstance(expr, syntax.Pool):
        return sum(least_dice(item) for item in expr.items)
    if isinstance(expr, syntax.SheetValue):
        return 0
    base = syntax.base_of(expr)
    return base.count * (2 if isinstance(base, syntax.D66) else 1)


# -- dice ------------------------------------------------------------------------------------------

class DicePlan(Record):
    """A dice term's modifiers unpacked: what the roller does for each die."""

    base: syntax.BaseDice
    reroll: syntax.Reroll | None = None
    explode: syntax.Explode | None = None
    keep: syntax.Keep | syntax.Drop | None = None
    target: syntax.Compare | None = None

    @staticmethod
    def of(term: syntax.DiceTerm) -> DicePlan:
        parts: dict[str, object] = {}
        while True:
            match term:
                case syntax.Successes(inner, target):
                    parts["target"] = target
                case syntax.Keep(inner) | syntax.Drop(inner):
                    parts["keep"] = term
                case syntax.Explode(inner):
                    parts["explode"] = term
                case syntax.Reroll(inner):
                    parts["reroll"] = term
                case _:
                    return DicePlan(term, **parts)  # type: ignore[arg-type]
            term = inner

    def face(self, roller: Roller) -> int:
        base = self.base
        if isinstance(base, syntax.Fudge):
            return roller.die(3) - 2
        if isinstance(base, syntax.D66):
            return 10 * roller.die(6) + roller.die(6)
        return roller.die(base.sides)

    def explodes(self, face: int) -> bool:
        if self.explode is None:
            return False
        if self.explode.when is not None:
            return self.explode.when.test(face)
        return face == self.base.top


# A statement's tree is reused by every roll of it (the parse cache), so its plans are worked out once.
plan_of = by_identity(DicePlan.of)
PLAN_KEY: str = plan_of.kept_as  # type: ignore[attr-defined]  # where a term keeps its plan (memo.by_identity)


def plain_die(face: int) -> Die:
    """A kept die with no marks: one shared record per face (records are immutable), not one per die rolled."""
    die = PLAIN_DICE.get(face)
    if die is None:
        die = Die(face)
        if len(PLAIN_DICE) < REMEMBERED:  # faces of common dice; a d10000's faces are made each time
            PLAIN_DICE[face] = die
    return die


PLAIN_DICE: dict[int, Die] = {}  # by face: the shared kept die of no marks (a renderer tells one by `is`)


def roll_dice(roller: Roller, term: syntax.DiceTerm) -> RolledDice:
    if type(term) is syntax.Sorted:  # `4d6s`: the same roll, its dice shown in order of face
        inner = roll_dice(roller, term.dice)
        return RolledDice(term, tuple(sorted(inner.dice, key=face_of)), inner.value)
    plan = term.__dict__.get(PLAN_KEY) or plan_of(term)  # `plan_of`'s value, read where it keeps it
    base = plan.base
    dice: list[Die] = []
    if plan.reroll is None and plan.explode is None:  # one die per face: most terms, and most of a batch
        if type(base) is syntax.Dice:
            faces = roller.dice(base.count, base.sides)
            known = PLAIN_DICE  # each face's shared die, looked up here rather than called for (`plain_die`)
            if plan.keep is None and plan.target is None:  # `3d6`: every die kept and counted
                return RolledDice(term, tuple([known.get(face) or plain_die(face) for face in faces]), sum(faces))
            dice = [known.get(face) or plain_die(face) for face in faces]
        else:
            roller.reserve(base.count * (2 if isinstance(base, syntax.D66) else 1))
            face = plan.face
            dice = [plain_die(face(roller)) for _ in range(base.count)]
    else:
        roller.reserve(base.count * (2 if isinstance(base, syntax.D66) else 1))
        for _ in range(base.count):
            dice += roll_one_die(roller, plan)
    if plan.keep is not None:
        dice = keep_or_drop(dice, plan.keep)
    if plan.target is not None:
        dice = [d.replace(success=plan.target.test(d.value)) if d.kept else d for d in dice]
        return RolledDice(term, tuple(dice), sum(1 for d in dice if d.success))
    return RolledDice(term, tuple(dice), sum(d.value for d in dice if d.kept))


def face_of(die: Die) -> int:
    return die.value


def roll_face(roller: Roller, plan: DicePlan, added: bool) -> tuple[list[Die], int]:
    """One die's face after rerolls, with the faces rerolled away (shown, not counted)."""
    gone: list[Die] = []
    face = plan.face(roller)
    if plan.reroll is not None:
        while plan.reroll.when.test(face):
            gone.append(Die(face, kept=False, rerolled=True, added=added))
            face = plan.face(roller)
            if plan.reroll.once:
                break
    return gone, face


def roll_one_die(roller: Roller, plan: DicePlan) -> list[Die]:
    """One die of the term and every die its explosions add (each counted by the roller).

    A chain stops after EXPLOSION_DEPTH explosions even below the dice limit.
    """
    out, face = roll_face(roller, plan, added=False)
    faces = [face]
    while plan.explodes(faces[-1]) and len(faces) <= EXPLOSION_DEPTH:
        gone, face = roll_face(roller, plan, added=True)
        out += gone
        faces.append(face)
    if plan.explode is not None and plan.explode.compound:
        parts = tuple(faces) if len(faces) > 1 else ()
        return [*out, Die(sum(faces), exploded=len(faces) > 1, parts=parts)]
    return out + [Die(f, exploded=plan.explodes(f) and i < len(faces) - 1, added=i > 0)
                  for i, f in enumerate(faces)]


def keep_or_drop(dice: list[Die], rule: syntax.Keep | syntax.Drop) -> list[Die]:
    """Mark dice dropped; among equal faces the earlier die is dropped first (the total is the same)."""
    live = [i for i, d in enumerate(dice) if not d.rerolled]  # `live`, without a call a die
    count = min(rule.count, len(live))
    keeping = isinstance(rule, syntax.Keep)
    drop_count = len(live) - count if keeping else count
    drops_highest = rule.highest != keeping  # kl and dh drop from the top, kh and dl from the bottom
    order = sorted(live, key=lambda i: (-dice[i].value if drops_highest else dice[i].value, i))
    dropped = set(order[:drop_count])
    return [(dropped_die(d.value) if PLAIN_DICE.get(d.value) is d else d.replace(kept=False)) if i in dropped else d
            for i, d in enumerate(dice)]


def dropped_die(face: int) -> Die:
    """A plain die dropped (`Die(face, kept=False)`, what `replace` would make of the shared plain die): shared too."""
    die = _dropped_dice.get(face)
    if die is None:
        die = Die(face, kept=False)
        if len(_dropped_dice) < REMEMBERED:
            _dropped_dice[face] = die
    return die


_dropped_dice: dict[int, Die] = {}


# -- statements ------------------------------------------------------------------------------------

def roll_statement(roller: Roller, statement: syntax.Roll) -> DiceResult:
    """One roll of the statement's expression (the runner repeats it `statement.repeat` times).

    On a fresh roller the whole statement, every repetition, is checked against the dice limit
    before the first die is rolled, so `6x 400d6` is refused without rolling 2,000 dice first.
    """
    least = least_dice_of(statement) * (statement.repeat if roller.rolled == 0 else 1)
    if roller.rolled + least > roller.limit:  # `reserve`'s test, asked here: a batch rolls every line
        roller.reserve(least)
    return DiceResult(statement, roll_expression(roller, statement.expr))


def roll_versus(roller: Roller, statement: syntax.Versus) -> VersusResult:
    """One roll of a target or an opposed roll: this side, then the other (a target is worked out, not rolled)."""
    roller.reserve(least_dice_of(statement) * (statement.repeat if roller.rolled == 0 else 1))
    return VersusResult(statement, roll_expression(roller, statement.expr), roll_expression(roller, statement.against))


def statement_least_dice(statement: syntax.Roll | syntax.Versus) -> int:
    if isinstance(statement, syntax.Versus):
        return least_dice(statement.expr) + least_dice(statement.against)
    return least_dice(statement.expr)


least_dice_of = by_identity(statement_least_dice)  # each statement's `least_dice`, worked out once


def next_countdown(sides: int) -> int | None:
    """The die a countdown shrinks to after a 1 (None: a Cd4 ends)."""
    index = COUNTDOWN_SIZES.index(sides)
    return COUNTDOWN_SIZES[index - 1] if index else None


def roll_countdown(roller: Roller, sides: int) -> CountdownResult:
    """Roll a countdown die of `sides` (4, 6, 8, 10, 12 or 20): on a 1 it shrinks or ends."""
    if sides not in COUNTDOWN_SIZES:
        raise CruxError(f"there is no countdown die Cd{sides}",
                        hint=COUNTDOWN_HINT)
    face = roller.die(sides)
    return CountdownResult(sides, face, next_countdown(sides) if face == 1 else sides)
