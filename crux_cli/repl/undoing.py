"""`undo` and `redo` in a session: a step's sheets set back, then its fight, hero and countdowns; a sheet changed
since (another crux, an edit) refuses the sheets' half, and the session offers the rest alone or skipping the step,
so undo is never stuck (issue 36)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError, SheetError
from crux_cli.repl import tracking

if TYPE_CHECKING:
    from crux_cli.repl.session import Session
    from crux_cli.repl.tracking import Step


def undo(session: Session, redo: bool = False) -> list[str]:
    """Take back the last change (or make again the last one taken back): sheets and fight together.

    A sheet that changed since (another crux, an edit) refuses the sheets' half: the session says what
    differs, and offers the rest alone (the fight's ledger) or skipping the step, so undo is never stuck."""
    from crux_cli.state.sheet_undo import restore_sheets

    step = session.steps.last(redo)
    word = "redo" if redo else "undo"
    if step is None:
        return [f"nothing to {word}" + ("" if redo else " in this session")]
    side = "after" if redo else "before"
    other = "before" if redo else "after"
    try:
        restore_sheets([(change["path"], change[other], change[side]) for change in step.sheets], step.statement,
                       sheets_as_given(session, step))
    except SheetError as error:
        return offer_rest(session, step, redo, error)
    return took(session, step, redo, step.sheets)


def sheets_as_given(session: Session, step: Step) -> dict[str, str]:
    """Each sheet of a step (by its real path) as the user gave it (`wren.toml`), for what undo says."""
    given = {}
    for snapshot in (step.before, step.after):
        for path in (snapshot.fight.sheets.values() if snapshot.fight is not None else ()):
            given[os.path.realpath(os.path.expanduser(path))] = path
    if session._runner is not None and session._runner.sheet is not None:
        given.setdefault(os.path.realpath(session._runner.sheet), session._runner.sheet)
    return given


def offer_rest(session: Session, step: Step, redo: bool, error: CruxError) -> list[str]:  # a SheetError, naming it
    """A sheet refused `undo`: say what differs, and offer the rest of the step alone, or skipping it."""
    word = "redo" if redo else "undo"
    rest = step.before.fight != step.after.fight or step.before.hero != step.after.hero \
        or step.before.countdowns != step.after.countdowns or step.before.party != step.after.party
    said = [f"{error.message}: another crux, or an edit, changed the sheet since, so {word} leaves it as it is"]
    if rest:
        said.append(f"  y: {word} the fight alone, the sheet staying as it is · skip: leave this step out of "
                    f"{word} (nothing changes) · anything else: leave it as it is")
    else:
        said.append(f"  skip: leave this step out of {word} (nothing changes) · anything else: leave it as it is")

    def answer(line: str) -> list[str]:
        reply = line.strip().lower()
        if reply in ("y", "yes") and rest:
            return took(session, step, redo, ())
        if reply in ("s", "skip"):
            session.steps = session.steps.skipped(redo)
            return [f"left out of {word}: `{step.statement}` (the sheet and the fight stay as they are)"]
        if reply in ("", "n", "no", "y", "yes"):
            return ["left as it was"]
        return ["left as it was (the question wanted y, skip or n)", *session.handle(line)]

    session.pending = answer
    return said


def took(session: Session, step: Step, redo: bool, sheets: tuple[dict[str, Any], ...]) -> list[str]:
    """The step taken back (or made again): the fight, the hero and countdowns as it had them, and the
    `sheets` changes already set back on their sheets (none: the sheets stayed as they are)."""
    from crux_cli.core.journal_entry import JournalEntry

    word = "redo" if redo else "undo"
    side = "after" if redo else "before"
    other = "before" if redo else "after"
    tracking.restore(session, step.after if redo else step.before)
    session.steps = session.steps.moved(redo)
    alone = " (the fight alone: the sheet stays as it is)" if step.sheets and not sheets else ""
    out = [f"{'made again' if redo else 'took back'}: {step.statement}{alone}"]
    with session.journal_transaction():
        if session.journal is not None:
            session.journal.append(JournalEntry(
                kind=word, statement=step.statement, undoes=step.entry_id, answers=(),
                sheets=tuple({**c, "before": c[other], "after": c[side]} for c in sheets)))
        if step.before.fight != step.after.fight or step.before.party != step.after.party:
            out += session.fighting.keep()
    session.sheet_mtime = None
    from crux_cli.render.log import change_summary

    out += [session.palette.dim("  " + change_summary({**c, "before": c[other], "after": c[side]}))
            for c in sheets]
    out += session.journal.take_warnings() if session.journal is not None else []
    return out
