"""The limits (crux-notation(7) LIMITS): every statement is answered quickly or refused by name."""

MAX_DICE = 1_000  # dice rolled per statement, explosions and rerolls included
MAX_SIDES = 10_000
MAX_INPUT = 1_000  # characters of one statement
MAX_NESTING = 32  # levels of parentheses (and of unary signs, which nest the same way)
MAX_INTEGER = 10**9
MAX_REPEAT = 1_000  # answers from one `Nx EXPR` or `--repeat N`
MAX_STATEMENTS = 100  # `;`-separated statements on one line
EXPLOSION_DEPTH = 100  # an exploding chain stops here even below the dice limit (odds use their own cap)
