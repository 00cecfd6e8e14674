"""The user's lasting preferences: `$XDG_CONFIG_HOME/crux/config.toml` (or `$CRUX_CONFIG`).

Keys are named like the command-line options (`rules`, `sheet`); the rest are the
session's habits (theme and colours, edit mode, pager, toolbar) and aliases, which
the one-shot command honours too. The file is read only when it exists, so a roll
without one pays for a `stat`, and with tomllib only when it is more than plain TOML
(state.plain_toml). A file crux cannot use is reported with its path, line and reason,
and crux goes on with the defaults: a typo never stops a game. The REPL writes the
commented defaults on first use (`write_defaults`), never over a file.
"""

from __future__ import annotations

import contextlib
import os
import re
import reprlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from crux_cli import rulesets
from crux_cli.core.record import Record
from crux_cli.core.style import THEMES, TOKENS, sgr
from crux_cli.state.files import read_regular, user_folder

EDIT_MODES = ("emacs", "vi")
TOOLBAR_PARTS = ("rules", "hero", "seed", "fight", "countdowns", "help")
ALIAS_NAME = r"[A-Za-z_][A-Za-z0-9_]*"  # compiled (and cached by re) when a config file names an alias

DEFAULTS_TEXT = """\
# crux configuration: lasting preferences (written once by crux; edit freely).
# The command line wins over this file: `crux --rules stepdice …` whatever `rules` says.
# A line crux cannot use is reported with its line number, and crux starts with the defaults.

# The rule set used when no --rules, CRUX_RULES or sheet names one: crux, stepdice, d20check, challenge.
# rules = "crux"

# A character sheet to play with when no --sheet or CRUX_SHEET is given.
# sheet = "~/games/wren.toml"

# Colours: a theme (default, mono, bright), and overrides per token in [colors] below.
# theme = "default"

# Editing keys at the prompt: "emacs" or "vi" (F4 switches while you type).
# edit-mode = "emacs"

# Output taller than the terminal (odds tables, /help) goes through a pager:
# true uses $PAGER, else `less -R`; a command such as "less -RS"; false prints it all.
# pager = true

# The journal of rolls and changes (crux log, undo): "on", "changes" (only what changed a sheet or a
# fight) or "off" (a run leaves no trace; --no-journal and CRUX_JOURNAL=off do the same for one run).
# journal = "on"
# How many plain rolls the journal keeps, oldest dropped first (changes are kept for undo).
# journal-keep = 1000000

# What the bottom toolbar shows, in order: rules, hero, seed, fight, countdowns, help.
# toolbar = ["rules", "hero", "seed", "fight", "countdowns", "help"]

# Colours of single tokens, as prompt-toolkit styles ("ansigreen bold", "#ff8700 underline", "bg:ansiblue").
# Tokens: good, mixed, bad, crit (outcomes: success, partial, failure, hit, miss…), dim, bold, error,
# hint, caret, prompt, attribute, dice, bonus, penalty (+2b, -1B), keyword, number, label, comment, alias,
# command, suggestion, bad-word.
[colors]
# good = "ansigreen bold"

# Aliases work at the prompt and on the command line: `crux smite goblin` rolls `atk 2d8+3 heavy goblin`.
[aliases]
# smite = "atk 2d8+3 heavy"
# sneak = "DEX +1b"
"""


NOTHING: Mapping[str, str] = MappingProxyType({})  # read-only, so one empty mapping serves every Config


class Config(Record):  # a Record, not a dataclass: every command reads the config, and start-up is measured
    """What the file says, each value checked; `Config()` is the defaults."""

    path: str | None = None
    rules: str | None = None
    sheet: str | None = None
    theme: str = "default"
    colors: Mapping[str, str] = NOTHING
    edit_mode: str = "emacs"
    pager: bool | str = True
    toolbar: tuple[str, ...] = TOOLBAR_PARTS
    aliases: Mapping[str, str] = NOTHING
    journal: str = "on"  # on, changes or off
    journal_keep: int = 1_000_000  # plain rolls kept
    problem: str | None = None  # why the file was not used (crux then runs with the defaults)


class ConfigProblem(Exception):
    def __init__(self, reason: str, key: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key


def config_path(environ: Mapping[str, str] = os.environ) -> str:
    """$CRUX_CONFIG, else $XDG_CONFIG_HOME/crux/config.toml (~/.config when unset or relative, as XDG says).

    A plain string: pathlib costs every command 6 ms to import, and this is read on every command."""
    if environ.get("CRUX_CONFIG"):
        return os.path.expanduser(environ["CRUX_CONFIG"])
    return os.path.join(user_folder("CONFIG", environ), "config.toml")


def load_config(environ: Mapping[str, str] = os.environ) -> Config:
    """The user's config: the defaults when there is no file, or when it cannot be used (see `problem`)."""
    path = config_path(environ)
    try:
        raw = read_regular(path)
    except (FileNotFoundError, NotADirectoryError):
        return Config()
    except OSError as error:
        return Config(problem=f"{printable(path)}: {error.strerror}")
    text = raw.decode("utf-8", errors="replace")
    from crux_cli.state.plain_toml import loads

    data = loads(text)  # plain TOML, as crux writes it and most people edit it: no tomllib (6 ms) to import
    if data is None:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            return Config(problem=f"{printable(path)}{toml_line(str(error))}: {toml_reason(str(error))}")
        except RecursionError:  # 10,000 nested brackets: tomllib recurses once a level
            return Config(problem=f"{printable(path)}: nested too deeply to read")
        except ValueError:  # a number of more than 4,300 digits (Python's limit on int())
            return Config(problem=f"{printable(path)}: a number too long to read")
    try:
        return Config(path=path, **checked(data))
    except (RecursionError, ValueError):  # a value nested or long beyond what its report can show
        return Config(problem=f"{printable(path)}: a value too large or too deeply nested to use")
    except ConfigProblem as problem:
        line = key_line(text, problem.key) if problem.key else None
        return Config(problem=f"{printable(path)}{f':{line}' if line else ''}: {problem.reason}")


def printable(path: str) -> str:
    """The path as it can be printed: a byte that is not UTF-8 (a surrogate escape) shown as `\\xe9`."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def toml_line(message: str) -> str:
    match = re.search(r"line (\d+)", message)
    return f":{match.group(1)}" if match else ""


def toml_reason(message: str) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "not valid TOML"


def key_line(text: str, key: str, ignore_case: bool = False) -> int | None:
    """The line that sets `key` (its last part, for `colors.success`), for the report."""
    name = re.escape(key.rpartition(".")[2])
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*[\"']?{name}[\"']?\s*=", line, flags=re.I if ignore_case else 0):
            return number
    return None


def checked(data: dict[str, Any]) -> dict[str, Any]:
    """The file's values as `Config` fields; ConfigProblem names the first key that is wrong."""
    out: dict[str, Any] = dict(field(key, value) for key, value in data.items())
    if "rules" in out and not rulesets.exists(out["rules"]):
        raise ConfigProblem(unknown(out["rules"], "rule set", tuple(rulesets.names())), "rules")
    if "sheet" in out:
        out["sheet"] = os.path.expanduser(out["sheet"])
    return out


def field(key: str, value: Any) -> tuple[str, Any]:
    """One key of the file as a `Config` field and its value; ConfigProblem when the key or its value is wrong."""
    if key in ("rules", "sheet"):
        return key, string(key, value)
    if key == "theme":
        return "theme", one_of(key, string(key, value), tuple(THEMES))
    if key == "edit-mode":
        return "edit_mode", one_of(key, string(key, value), EDIT_MODES)
    if key == "pager":
        if not isinstance(value, bool | str):
            raise ConfigProblem("pager is true, false or a command such as \"less -R\"", key)
        return "pager", value
    if key == "journal":
        return "journal", one_of(key, string(key, value), ("on", "changes", "off"))
    if key == "journal-keep":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100_000_000:
            raise ConfigProblem("journal-keep is a whole number of rolls from 0 to 100000000", key)
        return "journal_keep", value
    if key == "toolbar":
        if not isinstance(value, list):
            raise ConfigProblem("toolbar is a list such as [\"rules\", \"hero\"]", key)
        return "toolbar", tuple(one_of(key, string(key, part), TOOLBAR_PARTS) for part in value)
    if key == "colors":
        return "colors", MappingProxyType({one_of(f"colors.{k}", k, TOKENS, "token"): style(f"colors.{k}", v)
                                           for k, v in table(key, value).items()})
    if key == "aliases":
        return "aliases", MappingProxyType({alias_name(k): string(f"aliases.{k}", v).strip()
                                            for k, v in table(key, value).items()})
    raise ConfigProblem(unknown(key, "key", ("rules", "sheet", "theme", "edit-mode", "pager", "toolbar",
                                             "journal", "journal-keep", "colors", "aliases")), key)


def string(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigProblem(f"{key} must be a string in quotes, not {reprlib.repr(value)}", key)
    return value


def style(key: str, value: Any) -> str:
    text = string(key, value)
    try:
        sgr(text)
    except ValueError as error:
        raise ConfigProblem(f"{key}: {error}", key) from None
    return text


def table(key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigProblem(f"{key} must be a table ([{key}] with name = \"value\" lines)", key)
    return value


def one_of(key: str, value: str, choices: tuple[str, ...], what: str = "") -> str:
    if value not in choices:
        raise ConfigProblem(unknown(value, what or f"value of {key}", choices), key)
    return value


def unknown(word: str, what: str, choices: tuple[str, ...]) -> str:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    tail = f"did you mean '{close[0]}'?" if close else "it may be one of: " + ", ".join(choices)
    return f"'{shortened(word)}' is not a {what}: {tail}"


def shortened(word: str, most: int = 40) -> str:
    """A word of the file as a report shows it: its ends, when it is long enough to bury the line."""
    return word if len(word) <= most else f"{word[:most - 15]}…{word[-10:]}"


def alias_name(name: str) -> str:
    if not re.fullmatch(ALIAS_NAME, name):
        raise ConfigProblem(f"'{shortened(name)}' cannot be an alias name: use one word of letters",
                            f"aliases.{name}")
    return name.lower()


def alias_problem(config: Config, name: str, clash: str) -> str:
    """The report of a config alias left out because its name is taken (`clash`: "a statement word"...),
    with the file's path and the alias's line, as other config problems are reported."""
    line, written = None, name
    if config.path is not None:
        with contextlib.suppress(OSError):  # gone or changed since: the report goes without its line
            text = read_regular(config.path).decode("utf-8", "replace")
            line = key_line(text, name, ignore_case=True)  # an alias's name is read in any case: `DEX` is `dex`
            if line is not None:
                written = text.splitlines()[line - 1].partition("=")[0].strip().strip("\"'") or name
    spelt = "" if written == name else f" (an alias's name is read in any case: '{written}' is '{name}')"
    return (f"the config file's alias '{written}' is not used: {printable(config.path or '')}"
            f"{f':{line}' if line else ''}: '{name}' is already {clash}{spelt} (pick another name)")


def shadowing(aliases: Mapping[str, str], words: frozenset[str] | set[str]) -> list[str]:
    """The aliases named like one of the statement `words`, which they would hide."""
    return [name for name in aliases if name in words]


def write_defaults(path: str | os.PathLike[str]) -> bool:
    """Write the commented defaults to `path` if nothing is there; True when written (never over a file)."""
    try:
        os.makedirs(os.path.dirname(os.fspath(path)) or ".", exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return False  # there already (ours or the user's), or not writable: nothing to do
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(DEFAULTS_TEXT)
    return True


def expand_aliases(line: str, aliases: Mapping[str, str]) -> str:
    """An alias at the start of each `;`-separated statement replaced by its statement.

    `smite goblin` → `atk 2d8+3 heavy goblin`; the `# comment` is kept.
    """
    if not aliases:
        return line
    text, marked, comment = line.partition("#")
    parts = [part.strip() for part in text.split(";")]
    expanded = [expand_statement(part, aliases) for part in parts]
    if expanded == parts:
        return line  # as typed, spaces and all
    return "; ".join(part for part in expanded if part) + (f" #{comment}" if marked else "")


def expand_statement(text: str, aliases: Mapping[str, str]) -> str:
    head, _, rest = text.partition(" ")
    body = aliases.get(head.lower())
    return text if body is None else f"{body} {rest}".strip()
