"""Session commands: a line starting with `/` is never a dice statement.

Each command is a function registered with `@command`; its docstring's first
line is its summary, so `/help` is generated from this registry and a command
cannot go undocumented.
"""

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from crux_cli import rulesets
from crux_cli.core.errors import CruxError
from crux_cli.core.record import Record
from crux_cli.core.rng import Roller, seeded
from crux_cli.core.style import BAD, MIXED
from crux_cli.repl.words import GLOBAL_STATEMENTS
from crux_cli.running.runner import checked_text
from crux_cli.running.settings import TableAsked

if TYPE_CHECKING:
    from crux_cli.repl.session import Session

PREFIX = "/"
USAGE_WIDTH = 26


class Invocation(Record):
    """One command line as typed: its arguments and where they start, for errors with a caret."""

    line: str
    name: str
    args: str
    args_at: int

    def error(self, message: str, word: str | None = None, hint: str | None = None) -> CruxError:
        """An error pointing at `word` among the arguments (at the arguments when None)."""
        found = self.args.find(word) if word else -1
        position = self.args_at + (found if found >= 0 else 0)
        return CruxError(message, text=self.line, position=position, hint=hint)


Handler = Callable[..., list[str]]  # (Session, Invocation) -> lines; a string forward reference costs start-up time


class Command(Record):
    name: str
    usage: str
    summary: str
    details: str
    run: Handler
    aliases: tuple[str, ...] = ()


COMMANDS: dict[str, Command] = {}


def command(name: str, usage: str = "", aliases: tuple[str, ...] = ()) -> Callable[[Handler], Handler]:
    """Register a session command; its docstring documents it in /help."""

    def register(function: Handler) -> Handler:
        doc = (function.__doc__ or "").strip()
        summary, _, details = doc.partition("\n")
        COMMANDS[name] = Command(name, f"{PREFIX}{name}" + (f" {usage}" if usage else ""), summary.strip(),
                                 "\n".join(line.strip() for line in details.strip().splitlines()), function,
                                 aliases)
        return function

    return register


def find(name: str) -> "Command | None":
    name = name.lower()
    return COMMANDS.get(name) or next((c for c in COMMANDS.values() if name in c.aliases), None)


def names() -> list[str]:
    """Every spelling a command answers to, for completion."""
    return sorted([*COMMANDS, *(a for c in COMMANDS.values() for a in c.aliases)])


def changes_state(line: str) -> bool:
    """Does this command change what the journal keeps (so `undo` can take it back)? Only /countdown does."""
    name = line[line.index(PREFIX) + len(PREFIX):].partition(" ")[0]
    found = find(name)
    return found is not None and found.name == "countdown"


def run_command(session: "Session", line: str) -> list[str]:
    checked_text(line)  # a path in Latin-1 (/sheet caf\xe9.toml) would break every roll after it
    start = line.index(PREFIX) + len(PREFIX)
    name, _, args = line[start:].partition(" ")
    found = find(name)
    if found is None:
        import difflib

        close = difflib.get_close_matches(name.lower(), names(), n=1)
        hint = f"did you mean {PREFIX}{close[0]}?" if close else f"{PREFIX}help lists the session commands"
        raise CruxError(f"there is no session command {PREFIX}{name}", text=line, position=start - 1, hint=hint)
    args_at = start + len(name) + 1 + (len(args) - len(args.lstrip()))
    return found.run(session, Invocation(line, found.name, args.strip(), args_at))


# -- the commands -----------------------------------------------------------------------------------

@command("help", "[COMMAND|notation|fight]", aliases=("?",))
def show_help(session: "Session", call: Invocation) -> list[str]:
    """Show the session commands, one command's details, or the notation of the rule set.

    `/help notation` lists the statements of the active rule set; `/help fight` the words of an encounter.
    """
    topic = call.args.lstrip(PREFIX).lower()
    if topic == "notation":
        return notation_help(session)
    if topic == "fight":
        return fight_help(session)
    if topic:
        found = find(topic)
        if found is None:
            raise call.error(f"there is no session command {PREFIX}{topic}", call.args,
                             f"{PREFIX}help lists them")
        return [found.usage, "  " + found.summary, *("  " + line for line in found.details.splitlines())]
    lines = [f"statements of the {session.runner.rules_name} rules are typed as they are; "
             f"{PREFIX}help notation lists them", "session commands:"]
    for entry in COMMANDS.values():  # a long usage puts its summary on the next line
        lines += [f"  {entry.usage:{USAGE_WIDTH}} {entry.summary}"] if len(entry.usage) < USAGE_WIDTH else \
            [f"  {entry.usage}", f"  {'':{USAGE_WIDTH}} {entry.summary}"]
    lines.append("keys: Tab completes, Ctrl-R searches history, → takes the grey suggestion, "
                 "Ctrl-C clears the line, Ctrl-D leaves")
    return lines


def fight_help(session: "Session") -> list[str]:
    """The fight words, as the rule set's fight module documents them (its docstring's indented lines)."""
    return session.fighting.help()


def notation_help(session: "Session") -> list[str]:
    """The rule set's own lines (`Vocabulary.help`), or what its value tells when it has none."""
    rules = session.runner.rules
    if rules.vocabulary is not None:
        return [*rules.vocabulary.help, *EVERY_RULE_SET]
    return [f"{rules.name}: {rules.summary}", "statements start with: " + ", ".join(sorted(rules.keywords)),
            "generic dice work in every rule set: roll 2d6+1, 4d6kh3, d%", *EVERY_RULE_SET]


EVERY_RULE_SET = (  # what every rule set answers besides its own statements (crux-notation(7))
    "in every rule set: generic dice (2d6+3, 4d6kh3, 3d6!, d%, roll 2d6), 1d20+5 vs 15 (a target),",
    "  1d20+3 vs 1d20+5 (opposed), {1d8, 1d10}kh1, max(1d20, 1d20), 4d6s, 1d20 + DEX (the sheet's modifier),",
    "  table NAME (tables/NAME.toml), odds A; B (side by side), odds --cumulative or --at-least K before A",
)


@command("load", "FILE")
def load(session: "Session", call: Invocation) -> list[str]:
    """Load a character sheet: its ratings and attack count, and rolls write Grit, HP and Wounds back.

    The sheet's rule set becomes the active one, as with `crux --sheet FILE`.
    """
    if not call.args:
        raise call.error("which sheet? give its file name", hint=f"{PREFIX}load hero.toml")
    try:
        hero = session.load_sheet(os.path.expanduser(call.args))
    except CruxError as error:
        if is_fight_file(os.path.expanduser(call.args), session):  # the other kind of file crux writes: say so
            raise call.error(f"{call.args} is a saved fight, not a character sheet",
                             hint=f"`load {call.args}` (no slash) resumes the fight") from None
        raise call.error(error.message, hint=error.hint) from None
    return [f"{hero.name} loaded from {call.args} ({session.runner.rules_name} rules)"]


def is_fight_file(path: str, session: "Session") -> bool:
    """Does `path` hold a fight, as the active rule set's fights read one (else the default rule set's)?"""
    from crux_cli.state.encounter import load_fight

    try:
        load_fight(path, session.runner.rules.fight_rules())
    except (CruxError, OSError):
        return False
    return True


@command("rules", "[NAME]")
def rules(session: "Session", call: Invocation) -> list[str]:
    """Switch to another rule set, or list them (the active one is marked)."""
    if not call.args:
        return [f"{'*' if name == session.runner.rules_name else ' '} {name:10} {summary}"
                for name, summary in rulesets.summaries()]
    try:
        session.runner.use_rules(call.args.lower())
    except CruxError as error:
        raise call.error(error.message, call.args, error.hint) from None
    return [f"rules: {session.runner.rules_name}"]


@command("seed", "[N|off]")
def seed(session: "Session", call: Invocation) -> list[str]:
    """Seed the dice so the rolls that follow repeat exactly; `off` goes back to fresh dice."""
    if not call.args:
        return [f"seed: {session.runner.seed}" if session.runner.seed is not None else "no seed: the dice are fresh"]
    if call.args.lower() == "off":
        value = None
    else:
        try:
            value = int(call.args)
        except ValueError:
            raise call.error(f"'{call.args}' is not a whole number", call.args, f"{PREFIX}seed 42") from None
    session.runner.seed = value
    session.runner.source = seeded(value)
    return [f"seed: {value}" if value is not None else "no seed: the dice are fresh"]


@command("pager", "[on|off]")
def pager(session: "Session", call: Invocation) -> list[str]:
    """Page output taller than the terminal through $PAGER or less (on), or print it all (off).

    The config file's `pager` sets how a session starts.
    """
    choice = call.args.strip().lower()
    if choice not in ("", "on", "off"):
        raise call.error(f"'{call.args}' is neither on nor off", call.args, f"{PREFIX}pager off")
    if choice:
        session.paging = (session.paging if session.paging is not False else True) if choice == "on" else False
    return ["pager: off" if session.paging is False else "pager: on (output taller than the terminal is paged)"]


@command("alias", "[NAME = STATEMENT]")
def alias(session: "Session", call: Invocation) -> list[str]:
    """Name a statement: after `/alias blast = roll 8d6`, typing `blast +2` rolls `roll 8d6 +2`.

    `/alias` lists the aliases; `/alias NAME =` with nothing after it forgets one.
    They are kept for the next session beside the history.
    """
    if not call.args:
        return [f"{name} = {body}" for name, body in sorted(session.aliases.items())] or ["no aliases yet"]
    name, equals, body = (part.strip() for part in call.args.partition("="))
    if not equals:
        raise call.error("an alias is NAME = STATEMENT", hint=f"{PREFIX}alias blast = roll 8d6")
    key = name.lower()
    if not key.isidentifier():
        raise call.error(f"'{name}' cannot be an alias name: use one word of letters", name or "=")
    clash = alias_clash(session, key)
    if clash is not None:
        raise call.error(f"'{name}' is already {clash}", name, "pick another name")
    if not body:
        session.aliases.pop(key, None)
        said = f"alias {name} forgotten"
    else:
        session.aliases[key] = session.expand_statement(body)  # an alias of an alias is spelled out now
        said = f"{key} = {session.aliases[key]}"
    warning = session.keep_alias(key, session.aliases.get(key))
    return [said, warning] if warning else [said]


def alias_clash(session: "Session", key: str) -> str | None:
    """What an alias called `key` would hide ("a statement word", ...), or None: /alias and the config's
    aliases are checked alike."""
    if key in session.runner.rules.keywords or key in GLOBAL_STATEMENTS:
        return "a statement word"
    taken = find(key)
    if key in session.fight_words(fighting=True) or taken is not None:
        return "a fight word" if taken is None else f"a session command ({PREFIX}{taken.name})"
    return None


@command("history", "[N]")
def history(session: "Session", call: Invocation) -> list[str]:
    """Show the last N rolls of this session, a fight's included (10 when N is not given)."""
    try:
        count = int(call.args) if call.args else 10
    except ValueError:
        raise call.error(f"'{call.args}' is not a number of rolls", call.args) from None
    recent = list(session.recent)[-count:] if count > 0 else []
    if not recent:
        return ["no rolls yet"]
    first = len(session.recent) - len(recent) + 1
    return [f"{number:3}  {session.render(answer)}" for number, answer in enumerate(recent, first)]


@command("countdown", "[add Cd8 [LABEL] | clear [LABEL]]", aliases=("cd",))
def countdown(session: "Session", call: Invocation) -> list[str]:
    """Roll every countdown die together (once a round), or add and clear them.

    A 1 shrinks the die a size (d8 → d6); a 1 on a Cd4 ends it.
    """
    from crux_cli.repl.countdown import Countdown, parse_die, tick

    action, _, rest = call.args.partition(" ")
    action, rest = action.lower(), rest.strip()
    if action == "add":
        die, _, label = rest.partition(" ")
        try:
            added = Countdown(parse_die(die), label.strip())
        except CruxError as error:
            raise call.error(error.message, die or None, error.hint) from None
        session.countdowns.append(added)
        return [f"countdown added: {added}"]
    if action == "clear":
        kept = [c for c in session.countdowns if rest and c.label != rest]
        cleared = len(session.countdowns) - len(kept)
        session.countdowns = kept
        return [f"{cleared} countdown{'s' if cleared != 1 else ''} cleared"]
    if action:
        raise call.error(f"/countdown does not take '{action}'", action,
                         f"{PREFIX}countdown add Cd8 torch, {PREFIX}countdown clear, or {PREFIX}countdown alone")
    if not session.countdowns:
        return [f"no countdowns: {PREFIX}countdown add Cd8 torch"]
    roller = Roller(session.runner.source)
    ticks = [tick(c, roller) for c in session.countdowns]
    session.countdowns = [t.after for t in ticks if t.after is not None]
    return [session.palette.paint(str(t), BAD if t.after is None else "dim" if t.face != 1 else MIXED)
            for t in ticks]


@command("undo")
def undo(session: "Session", call: Invocation) -> list[str]:
    """Take back the last change: a sheet statement, a roll that spent or earned Grit, a fight word.

    The sheets and the fight go back together; repeat to go further back. `undo` alone works too.
    A sheet changed since by another crux (or by hand) is left as it is, and crux says what changed.
    """
    return session.undo()


@command("redo")
def redo(session: "Session", call: Invocation) -> list[str]:
    """Make again the last change `undo` took back (until a new change is made)."""
    return session.undo(redo=True)


@command("log", "[all] [fight] [N]")
def log(session: "Session", call: Invocation) -> list[str]:
    """Show the rolls and changes of this session from the journal (`all`: every session's).

    `fight` keeps a fight's words and rolls; N shows the last N (20 when not given). `crux log` does it
    from the shell, with --json, --since, --sheet and --fight.
    """
    from crux_cli.render.log import log_lines
    from crux_cli.running.replay import with_answers
    from crux_cli.state.history import select_entries

    words = call.args.lower().split()
    unknown = [w for w in words if w not in ("all", "fight") and not w.isdigit()]
    if unknown:
        raise call.error(f"/log does not take '{unknown[0]}'", unknown[0], f"{PREFIX}log, {PREFIX}log all 50, "
                         f"{PREFIX}log fight")
    journal = session.journal
    if journal is None or journal.mode == "off":
        return ["this session keeps no journal"]
    count = next((int(w) for w in words if w.isdigit()), 20)
    journal.flush()
    store = journal.connected()
    if store is None or not count:
        return ["nothing in the journal matches"]
    chosen = select_entries(store, fight="fight" in words, session=None if "all" in words else journal.session,
                            last=count)
    return log_lines(with_answers(chosen), session.palette) or ["nothing in the journal matches"]


@command("serve", "[stop | numbers on|off | privacy public|gm]")
def serve(session: "Session", call: Invocation) -> list[str]:
    """Share this session at a table, fight included: prints a player link and a GM link (man crux-table).

    Players open the player link in a browser or with `crux join LINK`; the table makes every roll. Served on
    127.0.0.1 with a free port (`crux serve --host --port --cert --key` chooses). `/serve` again shows the
    links; `stop` ends serving; `numbers on` shows enemies' HP to players as numbers, not words; `privacy gm`
    shares the lines typed here with the GM's page only.
    """
    words = call.args.lower().split()
    sharing = session.sharing
    if not words:
        if sharing is None:
            from crux_cli.repl.serving import Sharing

            session.sharing = sharing = Sharing(session, TableAsked())
            sharing.hub.note("the GM shares the session")
        return sharing.links()
    if sharing is None:
        raise call.error("this session is not served", words[0], f"{PREFIX}serve alone serves it")
    return sharing.setting(words, call)


@command("quit", aliases=("exit", "q"))
def leave(session: "Session", call: Invocation) -> list[str]:
    """Leave the session (Ctrl-D does too)."""
    session.done = True
    return []
