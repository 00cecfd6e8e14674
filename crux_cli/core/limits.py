"""The limits (crux-notation(7) LIMITS): every statement is answered quickly or refused by name."""

from contextvars import ContextVar

MAX_DICE = 1_000  # dice rolled per statement, explosions and rerolls included
MAX_SIDES = 10_000
MAX_INPUT = 1_000  # characters of one statement
MAX_NESTING = 32  # levels of parentheses (and of unary signs, which nest the same way)
MAX_INTEGER = 10**9
MAX_REPEAT = 1_000  # answers from one `Nx EXPR` or `--repeat N`
MAX_STATEMENTS = 100  # `;`-separated statements on one line
EXPLOSION_DEPTH = 100  # an exploding chain stops here even below the dice limit (odds use their own cap)

# MAX_DICE and MAX_SIDES guard rolling: the dice of a roll are drawn one by one, and shown. Exact odds
# count rather than roll, and are held to the odds limit of their own (crux_cli/probability/cost.py:
# time and memory predicted before the work), so `crux odds 1d20000` is answered where `crux 1d20000`
# is refused. The odds set a list here while they read and work out a statement; None: a roll.
counting: ContextVar[list[str] | None] = ContextVar("counting", default=None)


def rolling(limit: str) -> bool:
    """Asked where a statement passes the dice limit `limit`: True, it is rolled (refuse it); False, it is
    only counted (odds), and the limit passed is noted in the list `counting` holds."""
    passed = counting.get()
    if passed is None:
        return True
    passed.append(limit)
    return False
