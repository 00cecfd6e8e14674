"""The `crux` command: options and dispatch only; the work happens in the runner and renderers.

A word that is not a subcommand starts a statement, so `crux DEX +2b`,
`crux 'save WIL adv'` and `crux init` roll, while `crux odds …` and
`crux sheet …` are subcommands. No arguments with piped stdin is batch mode.

The command line never imports the interactive session (crux_cli/repl): `main` is
given a function that starts one, by crux_cli/__main__.py, the console script.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar, cast, overload

import click

from crux_cli import __version__, rulesets
from crux_cli.cli.params import COMPLETION_SHELLS, STATEMENT_COMMAND, RuleSetName, Seed, SheetFile, usage_error
from crux_cli.core.errors import CruxError
from crux_cli.core.style import COLOR_CHOICES
from crux_cli.running.modes import run_batch, run_odds, run_one
from crux_cli.running.output import Output
from crux_cli.running.quick import check_text, read_config, refuse
from crux_cli.running.settings import Settings, TableAsked
from crux_cli.running.streams import guard_streams, internal_error, is_terminal, os_error, output_failed

EXAMPLES = """\b
Crux statements (the default rule set):
  crux 'DEX +2b -1B grit'        test: 3d6 keep highest, spending 1 Grit
  crux save WIL adv              save with the advantaged save type
  crux init                      initiative: actions for the first round
  crux 'atk 2d8+3 heavy rushed'  attack: primary die, crits explode, armour

\b
Dice, in every rule set:
  crux 4d6kh3                    keep the highest 3 of 4d6
  crux '(2d4+1)*3 # torch'       arithmetic, with a comment
  crux '6x 4d6kh3'               six rolls

\b
Odds, sheets, other rule sets, scripts:
  crux odds 'atk 2d8+3 heavy'    exact odds and the damage distribution
  crux --sheet wren.toml 'DEX grit'   the sheet's ratings; Grit spent from it
  crux --rules challenge 'action 2 adv major'
  printf 'DEX +1b\\natk d8+2\\n' | crux --json -
                                 one JSON object per line read

\b
Statements are described in man crux-notation(7); the command in man crux(1).
Exit status: 0 when every statement was answered, 2 when any was refused."""

RULE_SET_NAME, SHEET_FILE, SEED = RuleSetName(), SheetFile(), Seed()  # one of each for every command that takes them
REPL = "crux.repl"  # ctx.meta key: the function that runs the interactive session, given by `main`
ReplStarter = Callable[[Settings], int]
LAZY_COMMANDS = {  # name -> (module, click command)
    "sheet": ("crux_cli.cli.sheet", "sheet_group"),
    "log": ("crux_cli.cli.log", "log_command"),
}


Decorated = TypeVar("Decorated", bound=Callable[..., Any])


@overload
def common_options(command: Decorated, *, rolls: bool = True) -> Decorated: ...
@overload
def common_options(command: None = None, *, rolls: bool = True) -> Callable[[Decorated], Decorated]: ...
def common_options(command: Decorated | None = None, *,
                   rolls: bool = True) -> Decorated | Callable[[Decorated], Decorated]:
    """The options every way of running takes, so they may come before or after the statement.

    `rolls=False` leaves out what only a roll uses (--seed, --repeat): `crux odds` rolls nothing.
    """
    if command is None:
        return lambda command: common_options(command, rolls=rolls)
    for option in reversed([
        *([click.option("--seed", type=SEED, default=None, metavar="N",
                        help="Seed the dice: the same seed repeats a run exactly.")] if rolls else []),
        click.option("--json", "json", is_flag=True, default=None,
                     help="One JSON object per statement (JSON Lines), for scripts."),
        click.option("--rules", type=RULE_SET_NAME, default=None, envvar="CRUX_RULES", metavar="NAME",
                     help="Rule set to use (default crux); '--rules list' names them all."),
        click.option("--color", "color", type=click.Choice(COLOR_CHOICES), default=None, metavar="WHEN",
                     help="Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns "
                          "it off), always (through a pipe too) or never."),
        click.option("--no-color", "no_color", is_flag=True, default=None,
                     help="No colour, even on a terminal (--color=never; NO_COLOR works too)."),
        click.option("--sheet", type=SHEET_FILE, default=None, envvar="CRUX_SHEET", metavar="FILE",
                     help="A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds "
                          "and conditions are kept on it (CRUX_SHEET works too)."),
        click.option("--no-sheet", "no_sheet", is_flag=True, default=None,
                     help="No character sheet, whatever the config file or CRUX_SHEET names."),
        *([click.option("--repeat", type=click.IntRange(1), default=None, metavar="N",
                        help="Answer each statement N times (like '6x 4d6kh3' for dice).")] if rolls else []),
        *([click.option("--no-journal", "no_journal", is_flag=True, default=None,
                        help="Leave no trace of this run in the journal (CRUX_JOURNAL=off works too).")]
          if rolls else []),
    ]):
        command = option(command)
    return command


class StatementGroup(click.Group):
    """A group whose unknown first word is handed to the statement command whole."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:  # imported only when asked for: a plain roll never pays for them
            module, attribute = LAZY_COMMANDS[name]
            return cast("click.Command", getattr(importlib.import_module(module), attribute))
        return super().get_command(ctx, name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, Any, list[str]]:
        if args and args[0] not in self.commands and args[0] not in LAZY_COMMANDS:
            return STATEMENT_COMMAND, self.commands[STATEMENT_COMMAND], args
        return super().resolve_command(ctx, args)


def settings_of(ctx: click.Context, options: dict[str, Any]) -> Settings:
    settings: Settings = ctx.find_object(Settings) or Settings()
    if ctx.parent is not None:
        # The group already read CRUX_RULES; read again here it would undo `crux --rules X statement`.
        options = {name: value for name, value in options.items()
                   if ctx.get_parameter_source(name) is not click.core.ParameterSource.ENVIRONMENT}
    elif options.get("sheet") is None and os.environ.get("CRUX_SHEET") == "":
        settings.forget_sheet()  # an empty CRUX_SHEET names no sheet, over the config file's
    no_sheet = options.pop("no_sheet", None)
    settings.update(options)
    if no_sheet:
        settings.forget_sheet()
    if settings.rules == "list":
        for name, summary in rulesets.summaries():
            click.echo(f"{name:10} {summary}")
        ctx.exit(0)
    return settings


def print_completion(ctx: click.Context, param: click.Parameter, shell: str | None) -> None:
    """`--completion SHELL`: print the completion script, generated from this command (imports no grammar)."""
    if shell is None or ctx.resilient_parsing:
        return
    from crux_cli.cli.completion import script

    click.echo(script(shell, ctx.find_root().command), nl=False)
    ctx.exit(0)


def print_completion_words(ctx: click.Context, param: click.Parameter, what: str | None) -> None:
    """`--completion-words WHAT` (hidden): what a completion script asks at Tab, one word a line."""
    if what is None or ctx.resilient_parsing:
        return
    from crux_cli.cli.completion import asked

    click.echo("".join(f"{word}\n" for word in asked(what)), nl=False)
    ctx.exit(0)



@click.group(cls=StatementGroup, invoke_without_command=True, epilog=EXAMPLES,
             context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True})
@common_options
@click.option("--completion", type=click.Choice(COMPLETION_SHELLS), metavar="SHELL", is_eager=True,
              expose_value=False, callback=print_completion,
              help="Print the Tab-completion script for SHELL (bash, zsh or fish) and exit.")
@click.option("--completion-words", metavar="WHAT", is_eager=True, expose_value=False, hidden=True,
              callback=print_completion_words)
@click.version_option(__version__, "--version", "-V", prog_name="crux", message="%(prog)s %(version)s")
@click.pass_context
def crux(ctx: click.Context, /, **options: Any) -> None:
    """crux: roll dice the way the Crux System and its kin read them.

    Give a STATEMENT to roll it, '-' to read statements from stdin (one per
    line), or nothing with piped stdin. With nothing on a terminal (or with
    'crux repl'), open the interactive session.
    """
    ctx.meta[REPL] = ctx.obj  # what `main` was given to start a session with (None: no session here)
    ctx.obj = Settings.from_config(read_config())
    settings = settings_of(ctx, options)
    if ctx.invoked_subcommand is None:
        if is_terminal(sys.stdin) and is_terminal(sys.stdout):
            start_repl(ctx, settings)
        if is_terminal(sys.stdin):  # output redirected: a session would write its prompt into the file
            click.echo(ctx.get_help())
            return
        raise SystemExit(run_batch(settings, sys.stdin, Output(settings)))


@crux.command("repl")
@common_options
@click.pass_context
def repl_command(ctx: click.Context, /, **options: Any) -> None:
    """Open the interactive session (also what 'crux' alone does on a terminal)."""
    settings = settings_of(ctx, options)
    if not is_terminal(sys.stdin):  # piped stdin is batch mode, never a prompt
        raise SystemExit(run_batch(settings, sys.stdin, Output(settings)))
    if not is_terminal(sys.stdout):  # a session would write its prompt and redraws into the file
        raise CruxError("the interactive session needs a terminal to write to",
                        hint="to answer statements into a file: crux - < statements.txt > answers.txt")
    start_repl(ctx, settings)


def start_repl(ctx: click.Context, settings: Settings) -> None:
    starter: ReplStarter | None = ctx.meta.get(REPL)
    if starter is None:
        raise CruxError("this entry point has no interactive session", hint="run the crux command itself")
    raise SystemExit(starter(settings))


@crux.command(STATEMENT_COMMAND, hidden=True, context_settings={"ignore_unknown_options": True})
@common_options
@click.argument("statement", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def statement_command(ctx: click.Context, /, statement: tuple[str, ...], **options: Any) -> None:
    settings = settings_of(ctx, options)
    refuse_unknown_options(ctx, statement, "crux --help lists the options")
    if statement[:1] == ("help",):
        text = " ".join(statement)
        raise CruxError("'help' is not a statement", text=text, position=0,
                        hint="crux --help lists the options and commands; man crux-notation describes the statements")
    if statement == ("-",):
        raise SystemExit(run_batch(settings, sys.stdin, Output(settings)))
    raise SystemExit(run_one(settings, " ".join(statement), Output(settings)))


def refuse_unknown_options(ctx: click.Context, statement: tuple[str, ...], hint: str) -> None:
    """`--sed 3` is a mistyped option; `--2` or `---1` is arithmetic; a first word `-x` (letters, no die: not
    `-d6` or `-dF`) is an option too, never dice."""
    unknown = next((word for word in statement if word[:3].startswith("--") and word[2:3].isalpha()), None)
    first = statement[0] if statement else ""
    if unknown is None and len(first) > 1 and first[0] == "-" and first[1:].isalpha() and first[1] not in "dD":
        unknown = first
    if unknown is not None:
        text = " ".join(statement)
        name = unknown.partition("=")[0]
        if name in ("--seed", "--repeat") and ctx.command.name == "odds":
            hint = f"odds roll nothing, so {name} does nothing there; {hint}"
        else:
            from difflib import get_close_matches

            known = [opt for param in ctx.command.params for opt in param.opts if opt.startswith("--")]
            close = get_close_matches(name, known, n=1, cutoff=0.8)
            if close:
                hint = f"did you mean {close[0]}? {hint}"
        raise CruxError(f"no such option: {name}", text=text, position=text.find(unknown), hint=hint)


@crux.command("odds", context_settings={"ignore_unknown_options": True})
@common_options(rolls=False)
@click.option("--at-least", "at_least", type=int, default=None, metavar="K",
              help="Also the chance that the damage (or total) is K or more.")
@click.option("--cumulative", is_flag=True, default=False,
              help="Also the chance of at least and at most each damage or total.")
@click.argument("statement", nargs=-1, required=True, type=click.UNPROCESSED)
@click.pass_context
def odds_command(ctx: click.Context, /, statement: tuple[str, ...], at_least: int | None, cumulative: bool,
                 **options: Any) -> None:
    """Exact odds of STATEMENT: each outcome as a fraction, a percentage and a bar.

    Attacks add the damage distribution and its mean; an exploding crit is exact
    up to a cap whose left-over probability is printed when it is not zero.
    Several statements ('A; B; C') are shown side by side, each against the first.
    """
    settings = settings_of(ctx, options)
    refuse_unknown_options(ctx, statement, "crux odds --help lists its options")
    raise SystemExit(run_odds(settings, " ".join(statement), Output(settings), at_least, cumulative))


# -- the shared table (issue 34): both open the session, with Settings.table saying what to share or join --

def needs_terminal(what: str) -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CruxError(f"{what} opens the interactive session, which needs a terminal")


@crux.command("serve")
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


@crux.command("join")
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


def main(argv: list[str] | None = None, repl: ReplStarter | None = None) -> None:
    """The command line, never a traceback whatever the input or the state of the streams.

    `repl` runs the interactive session (crux_cli/__main__.py gives it).
    """
    guard_streams()
    try:
        check_text(sys.argv[1:] if argv is None else argv)
        code = crux.main(args=argv, prog_name="crux", standalone_mode=False, obj=repl)
    except click.UsageError as error:  # a usage error click found itself, said as crux says its own
        if type(error).__name__ == "NoArgsIsHelpError":  # `crux sheet` alone: its help, as click shows it
            error.show()
            raise SystemExit(error.exit_code) from None

        words = sys.argv[1:] if argv is None else argv
        code = refuse(usage_error(error, words, crux), words)
    except click.ClickException as error:
        error.show()
        code = error.exit_code
    except CruxError as error:  # raised outside a statement: an unknown option, 'help', no terminal…
        code = refuse(error, sys.argv[1:] if argv is None else argv)
    except BrokenPipeError:  # the reader went away (crux … | head): stop quietly, as other Unix tools do
        code = output_failed(None)
    except OSError as error:  # the output cannot be written (a full disk, a closed descriptor), or a file
        code = os_error(error)
    except (KeyboardInterrupt, click.Abort):
        code = 130  # crux(1): interrupted
    except Exception as error:  # a bug in crux, not the user's input
        code = internal_error(error)
    raise SystemExit(code if isinstance(code, int) else 0)
