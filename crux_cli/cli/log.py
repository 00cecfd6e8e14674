"""`crux log`: the rolls and changes kept in the journal, for people or (with --json) as its lines.

The common forms are read without click and printed by running.log_view, which this command calls too.
"""

from __future__ import annotations

import sys

import click

from crux_cli.core.errors import CruxError
from crux_cli.core.style import COLOR_CHOICES
from crux_cli.running.log_view import show, show_stats
from crux_cli.running.replay import with_answers
from crux_cli.running.verify import chained, record_lines, verify
from crux_cli.state.db import state_dir, store_path
from crux_cli.state.dice_keys import epochs
from crux_cli.state.history import select_entries
from crux_cli.state.recovery import open_store
from crux_cli.state.sessions import is_alive


@click.command("log")
@click.option("--json", "as_json", is_flag=True, help="The journal's own JSON lines, one per roll or change.")
@click.option("--since", metavar="WHEN", help="From a time on: 30m, 2h, 3d ago, or a date like 2026-11-23 20:00.")
@click.option("--sheet", metavar="FILE", help="Only what touched this sheet.")
@click.option("--fight", is_flag=True, help="Only the words and rolls of fights.")
@click.option("--session", metavar="ID", help="Only one session ('last' for the latest).")
@click.option("-n", "--last", "last", type=click.IntRange(1), metavar="N", help="Only the last N entries.")
@click.option("--stats", is_flag=True,
              help="Count the faces rolled against fair dice and each plain statement's outcomes against its odds.")
@click.option("--export", "export", is_flag=True,
              help="The session's verifiable record (--session, else the last): commitment, entries, reveal.")
@click.option("--verify", "verify_file", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="Check a record made by --export: its chain, its seeds and every die (crux-verify(7)).")
@click.option("--color", "color", type=click.Choice(COLOR_CHOICES), default="auto", metavar="WHEN",
              help="Colour: auto (on a terminal), always (through a pipe too), never.")
@click.option("--no-color", "no_color", is_flag=True, help="No colour, even on a terminal (--color=never).")
@click.option("--set-aside", "set_aside", is_flag=True,
              help="Keep a damaged store under another name (crux.db.damaged-TIME) and start a new one.")
def log_command(as_json: bool, since: str | None, sheet: str | None, fight: bool, session: str | None,
                last: int | None, stats: bool, export: bool, verify_file: str | None, color: str,
                no_color: bool, set_aside: bool) -> None:
    """Show the rolls and changes of every session (the journal, in $XDG_STATE_HOME/crux/crux.db).

    \b
    Each line: the time, who rolled, the statement and its answer; changes show what
    they did to a sheet. `crux sheet undo FILE` takes a sheet's last change back.
    """
    if set_aside:  # the way out a damaged store's message offers (state.damage)
        from crux_cli.state.damage import set_aside_now

        click.echo(set_aside_now(store_path(state_dir())))
        return
    if stats:
        show_stats(as_json, since, sheet, fight, session, last)
        return
    if verify_file is not None:
        sys.exit(check_record(verify_file))
    if export:
        export_record(session)
        return
    show(as_json, since, sheet, fight, session, last, color=color, no_color=no_color)  # as read without click


def export_record(session: str | None) -> None:
    """`crux log --export`: the session's record as JSON Lines (running.verify), its seeds revealed once ended."""
    store = open_store()
    if store is None:
        raise CruxError("the journal holds nothing yet", hint="roll something first")
    try:
        if session is None or session == "last":
            session = store.last_session()
        if session is None:
            raise CruxError("the journal holds nothing yet", hint="roll something first")
        kept = epochs(store, session)
        if not kept:
            raise CruxError(f"session {session} kept no commitment of its dice: it cannot be verified",
                            hint="sessions rolled by this crux with the journal on keep one")
        chosen = select_entries(store, session=session)
        running = is_alive(store.path.parent, session)
    finally:
        store.close()
    for line in chained(record_lines(session, chosen, with_answers(chosen), kept, running)):
        click.echo(line)


def check_record(path: str) -> int:
    """`crux log --verify FILE`: 0 and the counts when the record holds, else 1 and the first failing line."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise CruxError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    checked = verify(line for line in text.splitlines() if line.strip())
    first = checked.first
    if first is not None:
        click.echo(f"crux: {path}: line {first[0]}: {first[1]}", err=True)
        return 1
    click.echo(f"verified: {checked.rolls} rolls, {checked.changes} changes")
    return 0
