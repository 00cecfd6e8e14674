"""The syntax tree of Crux statements: small immutable records, nothing rolled yet.

`str(node)` prints a statement back in canonical notation, which is what the
output echoes as "what crux understood" and what the REPL keeps in history.
Positions (`pos`) point into the input for errors found after parsing; they do
not take part in equality.
"""

from __future__ import annotations

from crux_cli.core.record import Record, field


class Modifiers(Record):
    boons: int = 0
    banes: int = 0
    grit: bool = False
    help: bool = False
    position: str | None = None  # controlled | risky | desperate (a label only)
    effect: str | None = None  # limited | standard | great (a label only)

    def __str__(self) -> str:
        words = []
        if self.boons:
            words.append(f"+{self.boons}b")
        if self.banes:
            words.append(f"-{self.banes}B")
        words += [w for w, on in (("grit", self.grit), ("help", self.help)) if on]
        words += [w for w in (self.position, self.effect) if w]
        return " ".join(words)


def _join(*parts: object) -> str:
    """Words joined by single spaces, leaving out the empty ones."""
    return " ".join(word for word in map(str, parts) if word and word not in ("None", "False"))


class Test(Record):
    attribute: str | None  # STR | DEX | INT | WIL, or None for a bare test (rating 0)
    mods: Modifiers = Modifiers()
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return _join(self.attribute or "test", self.mods)


class Save(Record):
    attribute: str
    stance: str | None = None  # adv | dis: the hero's advantaged/disadvantaged save type
    vs_rushed: bool = False
    mods: Modifiers = Modifiers()
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return _join("save", self.attribute, self.stance, "vs rushed" if self.vs_rushed else "", self.mods)


class Initiative(Record):
    mods: Modifiers = Modifiers()
    ambush: bool = False
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return _join("init", self.mods, "ambush" if self.ambush else "")


class Pool(Record):
    count: int
    sides: int
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


class AttributeBonus(Record):
    """`+STR` in an attack: the sheet's modifier for that attribute, added (or taken) as flat damage."""

    sign: int  # +1 or -1
    attribute: str
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{'+' if self.sign > 0 else '-'}{self.attribute}"


class Attack(Record):
    pool: Pool | None = None  # None: the sheet's attack die
    flat: int = 0
    bonuses: tuple[AttributeBonus, ...] = ()
    mods: Modifiers = Modifiers()
    rushed: int = 0  # banes from attacking again this turn
    armour: str = "unarmoured"
    resist: bool = False
    vuln: bool = False
    minion: bool = False
    ranged: bool = False  # Prone only hinders melee attacks
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        flat = f"{self.flat:+d}" if self.flat else ""
        damage = f"{self.pool or ''}{flat}" + "".join(str(b) for b in self.bonuses)
        rushed = "" if not self.rushed else ("rushed" if self.rushed == 1 else f"rushed {self.rushed}")
        armour = "" if self.armour == "unarmoured" else self.armour
        flags = [w for w, on in (("resist", self.resist), ("vuln", self.vuln), ("minion", self.minion),
                                 ("ranged", self.ranged)) if on]
        return _join("atk", damage, self.mods, rushed, armour, *flags)


CruxStatement = Test | Save | Initiative | Attack
