"""`crux sheet …`: make a character sheet (asking, or from flags) and check one.

Playing with a sheet is `crux --sheet FILE STATEMENT` (or CRUX_SHEET=FILE); this
group only creates and checks the files.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from crux_cli.cli.params import WordType
from crux_cli.core.errors import CruxError
from crux_cli.core.vocabulary import MAX_HP, MAX_WOUND_CAP


def attribute_names() -> tuple[str, ...]:
    from crux_cli.core.vocabulary import ATTRIBUTES

    return ATTRIBUTES


ATTRIBUTE = WordType("attribute", attribute_names)  # checked by attribute_option, in crux's words
ATTRIBUTE_HELP = "ATTR=MOD/RATING, e.g. STR=+2/1: modifier +2, Boon/Bane rating +1 (repeatable)"


@click.group("sheet")
def sheet_group() -> None:
    """Character sheets: crux sheet new FILE, crux sheet check FILE, crux sheet undo FILE.

    \b
    Then play with it: crux --sheet FILE 'DEX +1b grit', or export CRUX_SHEET=FILE.
    """


@sheet_group.command("new")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--name", help="The hero's name (default: asked, or the file's name).")
@click.option("--attr", "attributes", multiple=True, metavar="ATTR=MOD/RATING", help=ATTRIBUTE_HELP)
@click.option("--adv", "advantaged", type=ATTRIBUTE, metavar="ATTR", help="The advantaged save type (+1 Boon).")
@click.option("--dis", "disadvantaged", type=ATTRIBUTE, metavar="ATTR", help="The disadvantaged save type (+1 Bane).")
@click.option("--attack", "attack_die", metavar="DIE", help="The attack die, e.g. d8 or 2d6 (default d6).")
@click.option("--attack-attr", "attack_attribute", type=ATTRIBUTE, metavar="ATTR",
              help="The attribute added to damage.")
@click.option("--hp", type=click.IntRange(1, MAX_HP), help="Maximum HP (default 10).")
@click.option("--hit-dice", type=click.IntRange(0, 100), help="Hit Dice (default 1).")
@click.option("--hit-die", metavar="DIE", help="The Hit Die, e.g. d8 (default d8).")
@click.option("--wound-cap", type=click.IntRange(1, MAX_WOUND_CAP),
              help="Wounds that mean death (default 6; lower for a grittier game).")
@click.option("--ask/--no-ask", default=None, help="Ask for what the flags leave out (default: on a terminal "
                                                     "when no --name is given).")
def new_command(file: str, name: str | None, attributes: tuple[str, ...], advantaged: str | None,
                disadvantaged: str | None, attack_die: str | None, attack_attribute: str | None,
                hp: int | None, hit_dice: int | None, hit_die: str | None, wound_cap: int | None,
                ask: bool | None) -> None:
    """Write a new, commented character sheet to FILE (never over an existing file)."""
    from crux_cli.state.store import create_sheet, file_for

    if os.path.lexists(file):  # a dangling symbolic link too: its target would be made somewhere else
        what = "is a symbolic link" if os.path.islink(file) else "already exists"
        raise CruxError(f"{file} {what}", hint="choose another file name; crux never overwrites a sheet")
    answers: dict[str, Any] = {"name": name, "advantaged": advantaged, "disadvantaged": disadvantaged,
                               "attack_die": attack_die, "attack_attribute": attack_attribute, "hp": hp,
                               "hit_dice": hit_dice, "hit_die": hit_die}
    stats = dict(attribute_value_of(spec) for spec in attributes)
    if ask if ask is not None else (name is None and sys.stdin.isatty()):
        ask_for_the_rest(answers, stats, default_name=Path(file).stem)
    count, sides = parse_die(answers["attack_die"] or "d6", "--attack")
    hp_max = answers["hp"] or 10
    hit_dice = 1 if answers["hit_dice"] is None else answers["hit_dice"]
    values = dict(
        name=(answers["name"] or "").strip() or Path(file).stem,
        attributes=stats,
        advantaged_save=attribute_option(answers["advantaged"], "--adv"),
        disadvantaged_save=attribute_option(answers["disadvantaged"], "--dis"),
        attack_count=count, attack_sides=sides,
        attack_attribute=attribute_option(answers["attack_attribute"], "--attack-attr"),
        hp=hp_max, hp_max=hp_max, wound_cap=wound_cap or 6, hit_dice=hit_dice, hit_dice_max=hit_dice,
        hit_die=parse_die(answers["hit_die"] or "d8", "--hit-die", single=True)[1],
    )
    if values["advantaged_save"] and values["advantaged_save"] == values["disadvantaged_save"]:
        raise CruxError(f"{values['advantaged_save']} cannot be both the advantaged and the disadvantaged save")
    sheets = file_for(None)  # the default rule set's sheets: the fields asked here are its own
    hero = sheets.new(values)
    create_sheet(file, sheets.template(hero))
    click.echo(f"wrote {file} for {hero.name}: edit it freely; play with crux --sheet {shlex.quote(file)} 'DEX +1b'")


def attribute_value(attribute: str, text: str) -> tuple[int, int]:
    """An answer to an attribute's question, read as `--attr ATTR=MOD/RATING` would be: (modifier, rating);
    refused in the words of the question (`+2/1`), not of the flag (`STR=+2/1`)."""
    try:
        return attribute_value_of(f"{attribute}={text}")[1]
    except CruxError as error:
        hint = "write MODIFIER/RATING, like +2/1, -1/0 or +2"
        if error.message.startswith("cannot read the attribute"):
            raise CruxError(f"cannot read {text.strip()!r} as {attribute}'s modifier/rating", hint=hint) from None
        raise error.with_hint(hint) from None


def attribute_value_of(spec: str) -> tuple[str, tuple[int, int]]:
    """`--attr STR=+2/1` → (STR, (modifier, rating))."""
    from crux_cli.core.vocabulary import attribute_spec

    name, modifier, rating = attribute_spec(spec)
    return name, (modifier, rating)


def ask_for_the_rest(answers: dict[str, Any], stats: dict[str, Any], default_name: str) -> None:
    """Prompt for every value the flags left out; each question says its format, and a bad answer is
    asked again (with the reason) rather than ending the command and losing the answers before it."""
    from crux_cli.core.vocabulary import ATTRIBUTES

    answers["name"] = answers["name"] or click.prompt("Name", default=default_name)
    for attribute in ATTRIBUTES:
        if attribute not in stats:
            stats[attribute] = ask(f"{attribute} modifier/rating (e.g. +2/1, -1/0)", "0/0",
                                   functools.partial(attribute_value, attribute))
    questions: list[tuple[str, str, Any, Callable[[str], Any]]] = [  # (answer, question, default, check)
        ("advantaged", "Advantaged save (STR, DEX, INT, WIL or none)", "none",
         lambda text: attribute_answer(text, "the advantaged save")),
        ("disadvantaged", "Disadvantaged save (STR, DEX, INT, WIL or none)", "none",
         lambda text: other_than(attribute_answer(text, "the disadvantaged save"), answers["advantaged"])),
        ("attack_die", "Attack die (e.g. d8 or 2d6)", "d6", lambda text: die_answer(text, "the attack die")),
        ("attack_attribute", "Attack attribute added to damage (STR, DEX, INT, WIL or none)", "none",
         lambda text: attribute_answer(text, "the attack attribute")),
        ("hp", f"Maximum HP (1-{MAX_HP})", "10", lambda text: whole_number(text, 1, MAX_HP)),
        ("hit_dice", "Hit Dice (0-100)", "1", lambda text: whole_number(text, 0, 100)),
        ("hit_die", "Hit Die (e.g. d8)", "d8", lambda text: die_answer(text, "the Hit Die", single=True)),
    ]
    for key, question, default, check in questions:
        if answers[key] is None:
            answers[key] = ask(question, default, check)


def ask(question: str, default: str, check: Callable[[str], Any]) -> Any:
    """One question, asked until `check` takes the answer; a refusal says why, in crux's words."""

    def checked(text: str) -> Any:
        try:
            return check(text)
        except CruxError as error:
            raise click.BadParameter(error.message + (f" ({error.hint})" if error.hint else "")) from None

    return click.prompt(question, default=default, value_proc=checked)


def attribute_answer(text: str, what: str) -> str:
    """An attribute's name, or 'none' (kept as the text the flags would take)."""
    return attribute_option(text, what) or "none"


def other_than(answer: str, advantaged: str | None) -> str:
    """The disadvantaged save, refused at its question when it is the advantaged one too."""
    chosen = attribute_option(advantaged, "--adv") if advantaged else None
    if answer != "none" and answer == chosen:
        raise CruxError(f"{answer} is already the advantaged save", hint="choose another attribute, or none")
    return answer


def die_answer(text: str, what: str, single: bool = False) -> str:
    parse_die(text, what, single=single)
    return text.strip()


def whole_number(text: str, low: int, high: int) -> int:
    if not text.strip().isdigit() or not low <= int(text) <= high:
        raise CruxError(f"'{text.strip()}' is not a whole number from {low} to {high}")
    return int(text)


@sheet_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check_command(file: str) -> None:
    """Read FILE and say whether it is a valid sheet (exit 2, with the line and reason, if not)."""
    from crux_cli.state.store import load_hero

    hero = load_hero(file)
    click.echo(f"{file}: a valid sheet for {hero.name}")


@sheet_group.command("undo")
@click.argument("file", type=click.Path(dir_okay=False))
def undo_command(file: str) -> None:
    """Take back the last change crux made to FILE (as the journal has it); repeat to go further back.

    Refused, leaving FILE as it is, when the sheet no longer holds what that change
    wrote: someone changed it since, and crux says what.
    """
    undo_or_redo(file, redo=False)


@sheet_group.command("redo")
@click.argument("file", type=click.Path(dir_okay=False))
def redo_command(file: str) -> None:
    """Make again the last change `crux sheet undo` took back from FILE."""
    undo_or_redo(file, redo=True)


def undo_or_redo(file: str, redo: bool) -> None:
    from crux_cli.render.log import change_summary
    from crux_cli.state.journal import Journal
    from crux_cli.state.sheet_undo import undo_sheet

    journal = Journal.open()
    if journal.mode == "off":
        journal.mode = "changes"  # an undo reads the journal, and what it takes back is kept there too
    try:
        target, entry = undo_sheet(journal, file, redo=redo)
    finally:
        journal.close()
    done = "made again" if redo else "took back"
    click.echo(f"{file}: {done} `{target.statement}` · {change_summary((entry.sheets or ())[0])}")
    for warning in journal.take_warnings():
        click.echo(f"crux: warning: {warning}", err=True)


def attribute_option(value: str | None, option: str) -> str | None:
    from crux_cli.core.vocabulary import canonical_attribute

    if value is None or value.strip().lower() in ("", "none", "-"):
        return None
    name = canonical_attribute(value)
    if name is None:
        raise CruxError(f"{option}: unknown attribute '{value}'", hint="the attributes are STR, DEX, INT and WIL")
    return name


def parse_die(text: str, option: str, single: bool = False) -> tuple[int, int]:
    """`d8` → (1, 8); `2d6` → (2, 6); refused with the option's name when it is not a die."""
    match = re.fullmatch(r"\s*(\d{0,9})\s*[dD]\s*(\d{1,9})\s*", text)  # int() refuses thousands of digits
    count, sides = (int(match.group(1) or 1), int(match.group(2))) if match else (0, 0)
    if not match or not 2 <= sides <= 10_000 or not 1 <= count <= (1 if single else 100):
        example = "d8" if single else "d8 or 2d6"
        raise CruxError(f"{option}: '{text}' is not a die", hint=f"write a die like {example}")
    return count, sides
