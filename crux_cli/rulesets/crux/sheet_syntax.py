"""The syntax tree of sheet statements: damage, heal, rests, conditions and `show`.

They change (or print) the loaded character sheet rather than roll a test;
`str(node)` prints the canonical spelling, as the Crux nodes do.
"""

from __future__ import annotations

from crux_cli.core.record import Record, field


class Damage(Record):
    amount: int
    crit: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"damage {self.amount}" + (" crit" if self.crit else "")


class Wound(Record):
    amount: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"wound {self.amount}"


class Heal(Record):
    amount: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"heal {self.amount}"


class Rest(Record):
    kind: str  # "field" (spend Hit Dice) | "safe" (everything back, 1 Wound healed)
    hit_dice: int = 0  # Hit Dice to spend on a Field Rest
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"rest field {self.hit_dice}" if self.kind == "field" else "rest safe"


class Condition(Record):
    action: str  # "add" | "remove"
    names: tuple[str, ...]  # the seed's condition names, checked by the parser
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"cond {self.action} " + " ".join(self.names)


class Show(Record):
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return "show"


SheetStatement = Damage | Wound | Heal | Rest | Condition | Show
