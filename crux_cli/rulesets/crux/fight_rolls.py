"""What a fight rolls, as values: an attack or a test or save, with what the fight adds to it.

The grammar reads only what was typed (`atk d6 +1b`, `save DEX`: the player's words, and an enemy's
dice); the fight adds its own parts to that value (rushed, Help waiting, Boons and Banes from
conditions and Defend, the target's armour, resistance, vulnerability, a minion group) as fields, and
the runner answers the value (`FightRunner.answer_statement`). The text shown, and kept in the journal,
is the statement as it would be typed (`atk d6 rushed 1 help heavy`); what the grammar refuses when
the same part is given twice (two armours, a second Help) is refused here too, placed in that text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crux_cli.core.errors import CruxError
from crux_cli.core.grammar import check_input, typographic
from crux_cli.core.record import Record
from crux_cli.core.vocabulary import ARMOUR_WORDS
from crux_cli.rulesets.crux import grammar, syntax
from crux_cli.rulesets.crux.fight_line import POOL

if TYPE_CHECKING:
    from crux_cli.rulesets.crux import encounter as ledger

Roll = syntax.Attack | syntax.Test | syntax.Save


class Built(Record):
    """A roll as the fight makes it: the statement value, and the text it shows (what a player would type)."""

    statement: Roll
    text: str


def read_typed(typed: str, keyword: str, whole: str) -> Roll:
    """What was typed of a roll, read by the rule set's grammar once; a refusal is placed in `whole`, the
    statement as shown (`typed` begins it)."""
    try:
        check_input(whole)
        node = grammar.parse(typographic(typed), keyword)
    except CruxError as error:
        raise error.replace(text=typographic(whole)) if error.text is not None else error from None
    assert isinstance(node, syntax.Attack | syntax.Test | syntax.Save)  # what the grammar makes of these words
    return node


def joined(typed: list[str], added: list[tuple[str, str]]) -> tuple[str, dict[str, int]]:
    """The statement as shown: the typed words, then the fight's; and where each of the fight's begins."""
    text, where = " ".join(typed), {}
    for tag, word in added:
        where[tag] = len(text) + 1
        text = f"{text} {word}"
    return text, where


def helping(boons: int) -> list[tuple[str, str]]:
    """Help waiting: `help`, worth +1 Boon, and any more as Boons (`help +1b`)."""
    return [("help", "help" + (f" +{boons - 1}b" if boons > 1 else ""))] if boons else []


def with_mods(mods: syntax.Modifiers, helped: int, net: int, where: dict[str, int], text: str) -> syntax.Modifiers:
    """The roll's modifiers with the fight's: Help waiting (refused beside a Help typed), Boons, Banes."""
    if helped and mods.help:
        raise CruxError("only one Help reaction counts on a roll: it is worth +1 Boon", text=text,
                        position=where["help"])
    boons = mods.boons + max(helped - 1, 0) + max(net, 0)
    return mods.replace(help=mods.help or helped > 0, boons=boons, banes=mods.banes + max(-net, 0))


def attack(attacker: ledger.Combatant, target: ledger.Combatant, rest: list[str], spent: ledger.Step,
           net: int) -> Built:
    """The attack `attacker` rolls at `target`: the typed words (dice first, as the grammar has them; an
    enemy's own dice when none is typed), and what the fight adds."""
    typed = ["atk"]
    if attacker.side == "enemy" and not any(POOL.fullmatch(w) for w in rest):
        if not attacker.attack:
            raise CruxError(f"{attacker.name} has no attack dice", hint=f"atk \"{target.name}\" d6, or give "
                            f"enemies dice when they join: enemy {attacker.name} hp N atk d6")
        typed.append(attacker.attack)
    typed += sorted(rest, key=lambda w: not POOL.fullmatch(w))
    added = attack_parts(target, spent, net)
    text, where = joined(typed, added)
    node = read_typed(" ".join(typed), "atk", text)
    assert isinstance(node, syntax.Attack)  # the attack's grammar makes nothing else
    return Built(against_target(node, target, typed, where, text).replace(
        rushed=node.rushed + spent.rushed, mods=with_mods(node.mods, spent.boons, net, where, text)), text)


def attack_parts(target: ledger.Combatant, spent: ledger.Step, net: int) -> list[tuple[str, str]]:
    """The words the fight adds to an attack, in the order it shows them."""
    added = [("rushed", f"rushed {spent.rushed}")] if spent.rushed else []
    added += helping(spent.boons)
    added += [("net", f"+{net}b" if net > 0 else f"-{-net}B")] if net else []
    if target.side == "enemy":
        added += [("armour", target.armour)] if target.armour != "unarmoured" else []
        added += [(flag, flag) for flag, on in (("resist", target.resist), ("vuln", target.vuln),
                                                ("minion", target.minions > 0)) if on]
    return added


def against_target(node: syntax.Attack, target: ledger.Combatant, typed: list[str], where: dict[str, int],
                   text: str) -> syntax.Attack:
    """The attack with the target's armour, resistance, vulnerability and minions, each refused beside the
    same typed (as the grammar refuses it said twice)."""
    if "armour" in where:
        if any(w.lower() in ARMOUR_WORDS for w in typed[1:]):
            raise CruxError("a target wears one kind of armour", text=text, position=where["armour"])
        node = node.replace(armour=target.armour)
    for flag in ("resist", "vuln", "minion"):
        if flag in where:
            if getattr(node, flag):
                raise CruxError(f"'{flag}' is said once", text=text, position=where[flag])
            node = node.replace(**{flag: True})
    return node


def test_or_save(head: str, typed: list[str], roller: ledger.Combatant, banes: int) -> Built:
    """A test or save as `roller` rolls it in the fight: what was typed (`save STR`, `DEX +1b`), Help
    waiting for them, and Banes from an enemy's conditions."""
    words = [head, *typed]
    added = helping(roller.helped) + ([("net", f"-{banes}B")] if banes else [])
    text, where = joined(words, added)
    node = read_typed(" ".join(words), head, text)
    if isinstance(node, syntax.Attack):  # a roll word is never an attack's (`fight_words.ROLLS`)
        raise CruxError(f"'{head}' is not a test or a save", text=text, position=0)
    return Built(node.replace(mods=with_mods(node.mods, roller.helped, -banes, where, text)), text)
