"""`crux log` read and printed without click (issue 38: every reader of history within 0.2 s of CPU).

click and what it brings (inspect, ast, uuid, threading, locale: about 45 % of the modules `crux log -n 20` loaded)
cost every reader of the journal more than reading it did. The forms of `crux log` people type, a few options of
`log` and their values,

    crux log [--json] [--fight] [--stats] [-n N | --last N] [--since WHEN] [--sheet FILE] [--session ID]
             [--color WHEN] [--no-color]

are read here (`read`) and printed by the very functions the click command calls (cli/log.py), with click's
`echo` done the same way (`echo`). Anything else returns None and goes to click, as running/quick.py does for a
roll: another option (`--export`, `--verify`, `--set-aside`, `-h`), `--opt=value`, `-n5`, an option given twice, a
value starting with `-`, a number click's type would refuse, an argument, CRUX_RULES or CRUX_SHEET set (click
checks them for every command), a completion request, Windows. tests/test_log_quick.py runs each form both ways.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from crux_cli.core.errors import CruxError
from crux_cli.core.style import COLOR_CHOICES, Palette, wants_colour
from crux_cli.render.log import iter_log_lines, log_lines
from crux_cli.running.quick import answered, clicks_own, leading_options, read_config
from crux_cli.running.replay import iter_answers, with_answers
from crux_cli.running.streams import guard_streams, is_terminal
from crux_cli.state.history import iter_lines, kept_rolls, select_entries, since_stamp, stream_entries
from crux_cli.state.recovery import open_store
from crux_cli.state.values import reading

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from crux_cli.core.journal_entry import JournalEntry

FLAGS = {"--json": "as_json", "--fight": "fight", "--stats": "stats", "--no-color": "no_color"}
VALUES = {"--since": "since", "--sheet": "sheet", "--session": "session", "-n": "last", "--last": "last",
          "--color": "color"}
ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")  # what click.echo strips from what it writes where colour is off


def read(words: list[str]) -> dict[str, Any] | None:
    """The options of a `crux log` command line read here (`show`'s arguments), else None: click's to read."""
    if words[:1] != ["log"] or clicks_own():
        return None
    read = leading_options(words, 1, FLAGS, VALUES)
    if read is None or read[1] != len(words):  # a word that is no option: click's to refuse
        return None
    options = read[0]
    if "last" in options:
        last = options["last"]
        if not (last.isascii() and last.isdigit() and 1 <= int(last) < 1 << 63):
            return None  # click's IntRange(1) says what is wrong with it
        options["last"] = int(last)
    if options.get("color", "auto") not in COLOR_CHOICES:
        return None
    return options


def answer(words: list[str], ready: Callable[[], None] | None = None) -> int | None:
    """The exit status of a `crux log` command line answered here; None: click's to answer (`read`). As
    crux_cli.cli `main` answers it: the config read first (a warning if it cannot be used), never a traceback."""
    options = read(words)
    if options is None:
        return None
    guard_streams()
    if ready is not None:
        ready()

    def log() -> int:
        read_config()
        show(**options)
        return 0

    return answered(words, log)


def echo(text: str, err: bool = False, color: bool | None = None) -> None:
    """Write a line as click.echo does: colour codes stripped where colour is off (`color` False, or None and not a
    terminal), the stream flushed."""
    stream = sys.stderr if err else sys.stdout
    text += "\n"
    if color is False or (color is None and not is_terminal(stream)):
        text = ANSI.sub("", text)
    stream.write(text)
    stream.flush()


def show(as_json: bool = False, since: str | None = None, sheet: str | None = None, fight: bool = False,
         session: str | None = None, last: int | None = None, stats: bool = False, color: str = "auto",
         no_color: bool = False) -> None:
    """`crux log` with these options (but --export, --verify and --set-aside, which cli/log.py answers)."""
    if stats:
        show_stats(as_json, since, sheet, fight, session, last)
        return
    if last is None:
        print_all(as_json, since, sheet, fight, session, color, no_color)
        return
    chosen, empty = chosen_entries(since, sheet, fight, session, last)
    chosen = with_answers(chosen)
    if as_json:
        for line in iter_lines(chosen):
            echo(line)
        return
    palette = Palette(wants_colour(sys.stdout.isatty(), no_color, dict(os.environ), color))
    for line in log_lines(chosen, palette) or ["the journal holds nothing yet" if empty else
                                               "nothing in the journal matches"]:
        echo(line, color=palette.enabled)


def print_all(as_json: bool, since: str | None, sheet: str | None, fight: bool, session: str | None, color: str,
              no_color: bool) -> None:
    """Every entry the options choose, printed as it is read, a page at a time (state.history `stream_entries`):
    the memory stays that of a page whatever the journal holds (tests/test_log_streams.py)."""
    palette = Palette(wants_colour(sys.stdout.isatty(), no_color, dict(os.environ), color))
    store = open_store()
    if store is None:
        echo("the journal holds nothing yet")
        return
    try:
        for warning in store.warnings:
            echo(f"crux: warning: {warning}", err=True)
        if session == "last":
            session = store.last_session()
        entries = iter_answers(stream_entries(store, session=session, since=since_stamp(since) if since else None,
                                              sheet=os.path.expanduser(sheet) if sheet else None, fight=fight))
        lines = iter_lines(entries) if as_json else iter_log_lines(entries, palette)
        if not echo_pages(lines, palette.enabled) and not as_json:
            echo("the journal holds nothing yet" if store.last_session() is None else
                 "nothing in the journal matches")
    finally:
        store.close()


PAGE = 512  # lines written at once (one write a page, not a line); the first pages are smaller, to start at once


def echo_pages(lines: Iterator[str], color: bool) -> bool:
    """Write `lines` a page at a time, each page as soon as it is made; whether there was any."""
    page: list[str] = []
    wrote, size = False, 16
    for line in lines:
        page.append(line)
        if len(page) == size:
            echo("\n".join(page), color=color)
            page, wrote, size = [], True, min(2 * size, PAGE)
    if page:
        echo("\n".join(page), color=color)
    return wrote or bool(page)


def chosen_entries(since: str | None, sheet: str | None, fight: bool, session: str | None,
                   last: int | None) -> tuple[list[JournalEntry], bool]:
    """The journal's entries the options choose, and whether the journal holds nothing at all."""
    store = open_store()
    if store is None:
        return [], True
    try:
        if session == "last":
            session = store.last_session()
        chosen = select_entries(store, session=session, since=since_stamp(since) if since else None,
                                sheet=os.path.expanduser(sheet) if sheet else None, fight=fight, last=last)
        empty = not chosen and store.last_session() is None
    finally:
        store.close()
    for warning in store.warnings:
        echo(f"crux: warning: {warning}", err=True)
    return chosen, empty


def show_stats(as_json: bool, since: str | None, sheet: str | None, fight: bool, session: str | None,
               last: int | None) -> None:
    """`crux log --stats`: faces against fair dice, outcomes against the exact odds (running.stats)."""
    from crux_cli.running.stats import report, tally, text_lines  # fractions and the odds: --stats alone
    from crux_cli.running.stats_blocks import tally_all

    for given, name in ((sheet, "--sheet"), (fight or None, "--fight"), (last, "-n")):
        if given is not None:
            raise CruxError(f"--stats counts every roll kept: it does not take {name}",
                            hint="--stats takes --since and --session")
    store = open_store()
    if store is not None:
        try:
            with reading(store.path):
                if session == "last":
                    session = store.last_session()
                if session is None and since is None:  # all history: the sums kept of its blocks, and what is new
                    counted = tally_all(store)
                else:
                    counted = tally(kept_rolls(store, session=session, since=since_stamp(since) if since else None))
        finally:
            store.close()
    else:
        counted = tally(())
    stats = report(counted)
    if as_json:
        echo(json.dumps(stats, ensure_ascii=False))
        return
    for line in text_lines(stats):
        echo(line)
