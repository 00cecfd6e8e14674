"""`crux serve` and `crux join LINK`: the session shared at a table (issue 34), started from the command line.

Both open the interactive session (the face is handed in by crux_cli/__main__.py, as for `crux repl`),
with `Settings.table` saying what to share or join; the table's own modules load only then.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from crux_cli.cli import common_options, settings_of, start_repl
from crux_cli.core.errors import CruxError
from crux_cli.running.settings import TableAsked


def needs_terminal(what: str) -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CruxError(f"{what} opens the interactive session, which needs a terminal")


@click.command("serve")
@common_options
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to serve on; 0.0.0.0 serves every network (the links are then the only key).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, metavar="N",
              help="The port (0, the default, picks a free one).")
@click.option("--cert", type=click.Path(exists=True, dir_okay=False), default=None, metavar="FILE",
              help="A TLS certificate (PEM): the links become https://.")
@click.option("--key", type=click.Path(exists=True, dir_okay=False), default=None, metavar="FILE",
              help="The TLS certificate's private key (PEM).")
@click.pass_context
def serve_command(ctx: click.Context, /, host: str, port: int, cert: str | None, key: str | None,
                  **options: Any) -> None:
    """Open the session and share it: players join with the player link (a browser or 'crux join').

    \b
    Prints a player link and a GM link, each with its own token; the table makes
    every roll. It binds 127.0.0.1 unless --host says otherwise. See man crux-table.
    """
    if (cert is None) != (key is None):
        raise CruxError("--cert and --key go together", hint="crux serve --cert cert.pem --key key.pem")
    settings = settings_of(ctx, options)
    needs_terminal("crux serve")
    settings.update({"table": TableAsked(host=host, port=port, cert=cert, key=key)})
    start_repl(ctx, settings)


@click.command("join")
@click.argument("link", metavar="LINK")
@click.option("--hero", default=None, metavar="NAME", help="The hero you roll as (also: /hero NAME once joined).")
@click.option("--no-color", "no_color", is_flag=True, default=None, help="No colour, even on a terminal.")
@click.pass_context
def join_command(ctx: click.Context, /, link: str, hero: str | None, **options: Any) -> None:
    """Join a table from its link: the usual session, each statement rolled by the table for everyone.

    \b
    crux join http://192.168.1.20:8765/t/TOKEN
    """
    settings = settings_of(ctx, options)
    needs_terminal("crux join")
    settings.update({"table": TableAsked(link=link, hero=hero)})
    start_repl(ctx, settings)
