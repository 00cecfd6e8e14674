"""The typed fields of a `RollResult` (crux-python(7)): written by tools/gen_fields.py from the JSON Schemas
of the answers, crux_cli/data/schema/roll.*.json; do not edit by hand.

Each property is a field of the JSON object `crux --json` prints for some kind of answer, typed as what those kinds
hold (lists as tuples, objects as read-only mappings). They exist for a type checker only: at run time a field is
read from the answer (`RollResult.__getattr__`), and a kind without it raises AttributeError naming the fields it
has. A rule set of another package adds fields of its own: read them from `fields`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

Text = str  # `str` is a field's name too (stepdice's attack): in the class body it would name that property


class AnswerFields:
    """The fields of the answers of every built-in kind, as a type checker sees them."""

    __slots__ = ()

    if TYPE_CHECKING:
        @property
        def actions(self) -> int:
            """actions: in crux initiative."""

        @property
        def advantage(self) -> bool:
            """advantage: in challenge action."""

        @property
        def advantages(self) -> int:
            """advantages: in challenge fortune."""

        @property
        def against(self) -> Mapping[Text, Any]:
            """against: in opposed."""

        @property
        def ambush(self) -> bool:
            """ambush: in crux initiative."""

        @property
        def amount(self) -> int:
            """amount: in crux damage, crux heal, crux wound."""

        @property
        def armor(self) -> int | Text:
            """armor: in crux attack, d20check damage, stepdice attack."""

        @property
        def armor_given(self) -> int:
            """armor_given: in d20check damage, stepdice attack."""

        @property
        def attack_dice(self) -> tuple[Text, ...]:
            """attack_dice: in stepdice attack."""

        @property
        def attribute(self) -> Text | None:
            """attribute: in crux initiative, crux save, crux test, stepdice attack."""

        @property
        def automatic(self) -> bool:
            """automatic: in stepdice save."""

        @property
        def changes(self) -> Mapping[Text, Any]:
            """changes: in crux condition, crux damage, crux heal, crux rest field, crux rest safe, crux wound."""

        @property
        def consequence(self) -> Text | None:
            """consequence: in stepdice attack."""

        @property
        def count(self) -> int:
            """count: in crux attack, d20check damage."""

        @property
        def crit(self) -> bool:
            """crit: in crux damage, crux wound."""

        @property
        def d20(self) -> int:
            """d20: in d20check check."""

        @property
        def damage(self) -> int:
            """damage: in crux attack, d20check damage, stepdice attack."""

        @property
        def dice(self) -> tuple[int, ...] | tuple[Mapping[Text, Any], ...]:
            """dice: in challenge action, challenge fortune, challenge resist, countdown, crux attack, crux
            initiative, crux rest field, crux save, crux test, d20check check, d20check damage, stepdice attack,
            stepdice death, stepdice save, stepdice step, table."""

        @property
        def dice_total(self) -> int:
            """dice_total: in crux attack."""

        @property
        def die(self) -> Text:
            """die: in countdown, stepdice save, stepdice step, table."""

        @property
        def difficulty(self) -> int:
            """difficulty: in d20check check."""

        @property
        def direct(self) -> int:
            """direct: in stepdice attack."""

        @property
        def disadvantage(self) -> bool:
            """disadvantage: in challenge action."""

        @property
        def disadvantages(self) -> int:
            """disadvantages: in challenge fortune."""

        @property
        def effect(self) -> Text:
            """effect: in crux save."""

        @property
        def events(self) -> tuple[Text, ...]:
            """events: in crux condition, crux damage, crux heal, crux rest field, crux rest safe, crux wound."""

        @property
        def explosions(self) -> tuple[int, ...]:
            """explosions: in crux attack."""

        @property
        def expression(self) -> Text:
            """expression: in dice, opposed, target."""

        @property
        def favor(self) -> Text:
            """favor: in d20check check."""

        @property
        def favor_die(self) -> int | None:
            """favor_die: in d20check check."""

        @property
        def file(self) -> Text:
            """file: in table."""

        @property
        def flat(self) -> int:
            """flat: in crux attack, d20check damage."""

        @property
        def grit(self) -> Mapping[Text, Any]:
            """grit: in challenge resist, crux attack, crux initiative, crux save, crux test, stepdice attack."""

        @property
        def groups(self) -> tuple[Mapping[Text, Any], ...]:
            """groups: in dice, opposed, target."""

        @property
        def hero(self) -> Mapping[Text, Any]:
            """hero: in crux show."""

        @property
        def highest(self) -> int:
            """highest: in stepdice attack."""

        @property
        def hp_restored(self) -> int:
            """hp_restored: in crux heal, crux rest field."""

        @property
        def immune(self) -> bool:
            """immune: in d20check damage."""

        @property
        def inline(self) -> tuple[Mapping[Text, Any], ...]:
            """inline: in table."""

        @property
        def keep(self) -> Text:
            """keep: in crux initiative, crux save, crux test."""

        @property
        def kept(self) -> int | None:
            """kept: in challenge action, challenge fortune, challenge resist, crux initiative, crux save, crux test,
            stepdice death, stepdice save."""

        @property
        def killed(self) -> bool:
            """killed: in crux attack."""

        @property
        def labels(self) -> Mapping[Text, Any] | tuple[Mapping[Text, Any], ...]:
            """labels: in crux attack, crux initiative, crux save, crux test, dice, opposed, target."""

        @property
        def luck(self) -> int:
            """luck: in d20check check."""

        @property
        def margin(self) -> int:
            """margin: in opposed, target."""

        @property
        def marked(self) -> bool:
            """marked: in stepdice death."""

        @property
        def marked_after(self) -> bool:
            """marked_after: in stepdice death."""

        @property
        def minion(self) -> bool:
            """minion: in crux attack."""

        @property
        def mode(self) -> Text:
            """mode: in stepdice attack, stepdice save."""

        @property
        def nested(self) -> Mapping[Text, Any]:
            """nested: in table."""

        @property
        def net(self) -> int:
            """net: in crux attack, crux initiative, crux save, crux test."""

        @property
        def next(self) -> Text | None:
            """next: in countdown."""

        @property
        def opposing(self) -> Mapping[Text, Any] | None:
            """opposing: in stepdice save."""

        @property
        def outcome(self) -> Text:
            """outcome: in challenge action, challenge fortune, challenge resist, countdown, crux attack, crux
            initiative, crux save, crux test, d20check check, d20check damage, opposed, stepdice attack, stepdice
            death, stepdice save, target."""

        @property
        def pool(self) -> int:
            """pool: in challenge action, challenge fortune, challenge resist."""

        @property
        def primary(self) -> Mapping[Text, Any]:
            """primary: in crux attack."""

        @property
        def rating(self) -> int:
            """rating: in challenge action, challenge fortune, challenge resist."""

        @property
        def reason(self) -> Text:
            """reason: in d20check damage."""

        @property
        def resist(self) -> bool:
            """resist: in crux attack."""

        @property
        def risk(self) -> Text:
            """risk: in challenge action."""

        @property
        def rolls(self) -> tuple[Mapping[Text, Any], ...]:
            """rolls: in stepdice attack, stepdice save."""

        @property
        def row(self) -> Mapping[Text, Any]:
            """row: in table."""

        @property
        def save(self) -> Mapping[Text, Any] | None:
            """save: in stepdice attack."""

        @property
        def sides(self) -> int:
            """sides: in countdown, crux attack, d20check damage."""

        @property
        def sources(self) -> tuple[Mapping[Text, Any], ...]:
            """sources: in crux attack, crux initiative, crux save, crux test."""

        @property
        def stance(self) -> Text | None:
            """stance: in crux save."""

        @property
        def stat(self) -> int:
            """stat: in d20check check."""

        @property
        def steps(self) -> int:
            """steps: in stepdice step."""

        @property
        def stopped(self) -> bool:
            """stopped: in stepdice step."""

        @property
        def str(self) -> Text | None:
            """str: in stepdice attack."""

        @property
        def str_after(self) -> Text | None:
            """str_after: in stepdice attack."""

        @property
        def table(self) -> Text:
            """table: in table."""

        @property
        def target(self) -> int:
            """target: in stepdice save, target."""

        @property
        def terms(self) -> tuple[Mapping[Text, Any], ...]:
            """terms: in dice, opposed, target."""

        @property
        def text(self) -> Text:
            """text: in challenge action, challenge fortune, challenge resist, stepdice death, table."""

        @property
        def total(self) -> int:
            """total: in countdown, crux attack, d20check check, d20check damage, dice, opposed, table, target."""

        @property
        def trained(self) -> bool:
            """trained: in d20check check."""

        @property
        def vs(self) -> int | Text:
            """vs: in stepdice save."""

        @property
        def vs_rushed(self) -> bool:
            """vs_rushed: in crux save."""

        @property
        def vuln(self) -> bool:
            """vuln: in crux attack."""

        @property
        def weak(self) -> bool:
            """weak: in d20check damage."""

        @property
        def wounds_gained(self) -> int:
            """wounds_gained: in crux damage, crux wound."""

        @property
        def xp(self) -> int:
            """xp: in challenge action."""

        @property
        def zero_pool(self) -> bool:
            """zero_pool: in challenge action, challenge fortune, challenge resist."""
