"""The shell completion scripts for bash, zsh and fish, generated from the real click command.

`crux --completion SHELL` prints one, generated when asked (this module is imported only then);
`python tools/gen_completions.py --update` writes the same text to completions/, the folder pip
installs under share/ (pyproject.toml), and tests/test_completion.py fails when that differs.

What a script completes is read from the click command: options, which take a value and of what
type, subcommands, arguments. The words that depend on the rule sets (their names, the first words
of their statements) are not written in: at the first Tab that needs them, the script asks
`crux --completion-words rules` or `crux --completion-words statements:NAME` and keeps the answer
for the rest of the shell's life. So a new rule set, built in or a plug-in, needs no new script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from crux_cli import rulesets
from crux_cli.cli.params import COMPLETION_SHELLS, STATEMENT_COMMAND, RuleSetName, WordType

SHELLS = COMPLETION_SHELLS
STATEMENT_ARGUMENTS = ("statement", "statements", "expression", "expr")
GENERATED_BY = "python tools/gen_completions.py --update"  # what writes completions/ from this module
ASKED = "--completion-words"  # the hidden option a script asks crux its rule sets' words with


@dataclass(frozen=True, slots=True)
class Option:
    names: tuple[str, ...]  # every spelling: --json, -h, --help
    help: str
    values: str  # what its value completes to: "" (a flag), "none", "files", "choice", or "asked" (crux is asked)
    choices: tuple[str, ...] = ()  # the words of a choice; what crux is asked for ("rules")


@dataclass(frozen=True, slots=True)
class Command:
    """One command path (`crux`, `crux odds`, `crux sheet new`) as the scripts see it."""

    path: tuple[str, ...]
    options: tuple[Option, ...]
    subcommands: tuple[str, ...]
    argument: str  # "statement", "files", "choice" or "" (nothing to complete)
    choices: tuple[str, ...] = ()
    fallback: str = ""  # the hidden command that takes a first word which is not a subcommand

    @property
    def key(self) -> str:
        return " ".join(self.path)


# -- reading the click command -------------------------------------------------------------------

def option_of(param: click.Option) -> Option:
    names = tuple(sorted(param.opts + param.secondary_opts, key=lambda n: (n.startswith("--"), n)))
    help_text = " ".join((param.help or "").split())
    if param.is_flag or param.count:
        return Option(names, help_text, "")
    if isinstance(param.type, RuleSetName):  # plug-ins and new rule sets come after the script is written
        return Option(names, help_text, "asked", ("rules",))
    words = words_of_type(param.type)
    if words is not None:
        return Option(names, help_text, "choice", words)
    if isinstance(param.type, click.Path | click.File):
        return Option(names, help_text, "files")
    return Option(names, help_text, "none")


def words_of_type(kind: click.ParamType[Any]) -> tuple[str, ...] | None:
    """The words a value of this type completes to, or None when it is not a set of words."""
    if isinstance(kind, click.Choice):
        return tuple(map(str, kind.choices))
    if isinstance(kind, WordType):
        return kind.words()
    return None


def argument_of(command: click.Command) -> tuple[str, tuple[str, ...]]:
    for param in command.params:
        if not isinstance(param, click.Argument):
            continue
        if param.name in STATEMENT_ARGUMENTS:
            return "statement", ()
        words = words_of_type(param.type)
        if words is not None:
            return "choice", words
        if isinstance(param.type, click.Path | click.File):
            return "files", ()
    return "", ()


def walk(command: click.Command, path: tuple[str, ...], parent: click.Context | None = None) -> list[Command]:
    """`command` and everything under it, the hidden statement command included."""
    ctx = click.Context(command, info_name=path[-1], parent=parent, **command.context_settings)
    params = command.get_params(ctx)  # with --help, which click adds per context
    options = tuple(option_of(p) for p in params if isinstance(p, click.Option) and not p.hidden)
    argument, choices = argument_of(command)
    subcommands: tuple[str, ...] = ()
    fallback = ""
    found: list[Command] = []
    if isinstance(command, click.Group):
        # list_commands/get_command, not .commands: they also see subcommands loaded lazily
        found_children = {name: command.get_command(ctx, name) for name in command.list_commands(ctx)}
        children = {name: sub for name, sub in found_children.items() if sub is not None}
        subcommands = tuple(sorted(n for n, c in children.items() if not c.hidden))
        if STATEMENT_COMMAND in children:
            fallback, argument = STATEMENT_COMMAND, "statement"
        for name, sub in sorted(children.items()):
            found += walk(sub, (*path, name), ctx)
    return [Command(path, options, subcommands, argument, choices, fallback), *found]


def commands(root: click.Command) -> list[Command]:
    """Every command of `root` (the `crux` command of crux_cli.cli, which prints the scripts: it hands itself
    in, so this module never imports it)."""
    return walk(root, ("crux",))


def statement_words() -> dict[str, tuple[str, ...]]:
    """The first words of every built-in rule set's statements, as a script is told them."""
    return {name: words_of(name) for name in rulesets.BUILT_IN}


def words_of(name: str) -> tuple[str, ...]:
    """The first words of the statements of the rule set `name`: its own, generic dice's and tables'."""
    from crux_cli.dice import handler as dice  # generic dice (`roll 4d6kh3`) are answered in every rule set
    from crux_cli.dice import tables  # and random tables (`table loot`)

    shown = {*rulesets.load(name).statement_words(), *dice.KEYWORDS, *tables.KEYWORDS}
    return tuple(sorted(shown, key=lambda w: (w.lower(), w)))


def asked(what: str) -> tuple[str, ...]:
    """What a script asks crux at Tab (`crux --completion-words WHAT`): `rules`, every rule set's name and
    `list`; `statements:NAME`, the first words of that rule set's statements (none for a name not known)."""
    if what == "rules":
        return (*rulesets.names(), "list")
    kind, _, name = what.partition(":")
    if kind == "statements" and rulesets.exists(name):
        return words_of(name)
    return ()


# -- bash ------------------------------------------------------------------------------------------

def shell_words(words: tuple[str, ...] | list[str]) -> str:
    return " ".join(words)


def bash_script(cmds: list[Command]) -> str:
    tables = []
    for cmd in cmds:
        valued = [n for o in cmd.options if o.values for n in o.names]
        tables.append(
            f'        "{cmd.key}")\n'
            f'            options="{shell_words([n for o in cmd.options for n in o.names])}"\n'
            f'            valued=" {shell_words(valued)} "\n'
            f'            subcommands="{shell_words(cmd.subcommands)}"\n'
            f'            argument="{cmd.argument}" argument_words="{shell_words(cmd.choices)}"'
            f' fallback="{cmd.fallback}" ;;')
    return BASH_TEMPLATE.format(commands="\n".join(tables), values=option_values_table(cmds), asked=ASKED)


BASH_TEMPLATE = r"""# bash completion for crux                                    -*- shell-script -*-
#
# Generated from the click command by `crux --completion bash`; do not edit.
# Install: crux --completion bash > ~/.local/share/bash-completion/completions/crux
# (or source this file from ~/.bashrc). Tab runs no Python, but for the words of the rule sets
# (their names, their statements), which crux is asked once per shell.

# The options, subcommands and argument of one command path.
_crux_command() {{
    options="" valued=" " subcommands="" argument="" argument_words="" fallback=""
    case $1 in
{commands}
    esac
}}

# What the value of option $2 of command path $1 completes to: `words LIST`, `asked WHAT`, `files`, or nothing.
_crux_option_values() {{
    case "$1 $2" in
{values}
    esac
}}

# The words crux gives for $1 (`rules`, or `statements:NAME`) into _crux_asked[$1], asked once per shell.
declare -gA _crux_asked 2>/dev/null
_crux_ask() {{
    [[ -n ${{_crux_asked[$1]+set}} ]] && return
    _crux_asked[$1]=$(command crux {asked} "$1" 2>/dev/null)
}}

# Add the words of $1 that start with $2, ignoring case (crux keywords are case-insensitive).
_crux_add_words() {{
    local word prefix=${{2,,}}
    for word in $1; do
        [[ ${{word,,}} == "$prefix"* ]] && COMPREPLY+=("$word")
    done
}}

_crux_add_files() {{
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY+=($(compgen -f -- "$1"))
}}

_crux() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} path=crux positionals=0 i word pending=""
    local rules=${{CRUX_RULES:-crux}}
    local options valued subcommands argument argument_words fallback
    COMPREPLY=()
    _crux_command "$path"
    # read the words before the cursor: which command, which rule set, how many arguments
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        if [[ -n $pending ]]; then
            [[ $word == "=" ]] && continue
            [[ $pending == --rules ]] && rules=$word
            pending=""
            continue
        fi
        if [[ $word == --*=* ]]; then  # one word when COMP_WORDBREAKS lacks '='
            [[ ${{word%%=*}} == --rules ]] && rules=${{word#*=}}
            continue
        fi
        if [[ $word == --* || ( $positionals == 0 && $word == -h ) ]]; then
            [[ $valued == *" $word "* ]] && pending=$word
            continue
        fi
        if ((positionals == 0)) && [[ " $subcommands " == *" $word "* ]]; then
            path="$path $word"
            _crux_command "$path"
            continue
        fi
        if ((positionals == 0)) && [[ -n $fallback ]]; then
            path="$path $fallback"
            _crux_command "$path"
        fi
        ((positionals++))
    done
    # the value of an option (`--rules <TAB>`, also `--rules=<TAB>`)
    local option=$pending
    [[ $cur == "=" ]] && cur=""
    local value_prefix=""
    if [[ -z $option && $cur == --*=* ]]; then
        option=${{cur%%=*}} value_prefix=${{cur%%=*}}= cur=${{cur#*=}}
    fi
    if [[ -n $option ]]; then
        local completion
        completion=$(_crux_option_values "$path" "$option")
        case $completion in
            words*) _crux_add_words "${{completion#words }}" "$cur" ;;
            asked*) _crux_ask "${{completion#asked }}"
                _crux_add_words "${{_crux_asked[${{completion#asked }}]}}" "$cur" ;;
            files) _crux_add_files "$cur" ;;
        esac
        [[ -n $value_prefix ]] && COMPREPLY=("${{COMPREPLY[@]/#/$value_prefix}}")
        return 0
    fi
    if [[ $cur == -* && $cur != -[0-9bB]* ]]; then
        _crux_add_words "$options" "$cur"
        return 0
    fi
    ((positionals > 0)) && [[ $argument != files ]] && return 0
    _crux_add_words "$subcommands" "$cur"
    case $argument in
        statement) _crux_ask "statements:$rules"; _crux_add_words "${{_crux_asked[statements:$rules]}}" "$cur" ;;
        choice) _crux_add_words "$argument_words" "$cur" ;;
        files) _crux_add_files "$cur" ;;
    esac
    return 0
}}

complete -F _crux crux
"""


# -- zsh -------------------------------------------------------------------------------------------

def single_quoted(text: str) -> str:
    """`text` as one single-quoted word for sh, bash and zsh."""
    return "'" + text.replace("'", "'\\''") + "'"


def zsh_script(cmds: list[Command]) -> str:
    tables = []
    for cmd in cmds:
        described = [single_quoted(f"{n}:{o.help}") for o in cmd.options for n in o.names]
        valued = [n for o in cmd.options if o.values for n in o.names]
        tables.append(
            f'        "{cmd.key}")\n'
            f"            options=(\n                " + "\n                ".join(described) + ")\n"
            f"            valued=({shell_words(valued)})\n"
            f"            subcommands=({shell_words(cmd.subcommands)})\n"
            f"            argument={cmd.argument or single_quoted('')} argument_words=({shell_words(cmd.choices)})"
            f" fallback={cmd.fallback or single_quoted('')} ;;")
    return ZSH_TEMPLATE.format(commands="\n".join(tables), values=option_values_table(cmds), asked=ASKED)


def option_values_table(cmds: list[Command]) -> str:
    """`case` branches (bash and zsh) from `"PATH --option"` to `words LIST`, `asked WHAT` or `files`."""
    values = []
    for cmd in cmds:
        for option in cmd.options:
            if option.values == "choice":
                kind = f'words "{shell_words(option.choices)}"'
            elif option.values == "asked":
                kind = f'asked "{shell_words(option.choices)}"'
            elif option.values == "files":
                kind = "files"
            else:
                continue
            pattern = "|".join(f'"{cmd.key} {n}"' for n in option.names)
            values.append(f"        {pattern}) echo {kind} ;;")
    return "\n".join(values)


ZSH_TEMPLATE = r"""#compdef crux
# zsh completion for crux
#
# Generated from the click command by `crux --completion zsh`; do not edit.
# Install: crux --completion zsh > ~/.zfunc/_crux, with `fpath=(~/.zfunc $fpath)` before
# `compinit` in ~/.zshrc (or source this file after compinit). Tab runs no Python, but for the
# words of the rule sets (their names, their statements), which crux is asked once per shell.

# The options ("--name:help"), subcommands and argument of one command path.
_crux_command() {{
    options=() valued=() subcommands=() argument='' argument_words=() fallback=''
    case $1 in
{commands}
    esac
}}

# What the value of option $2 of command path $1 completes to: `words LIST`, `asked WHAT`, `files`, or nothing.
_crux_option_values() {{
    case "$1 $2" in
{values}
    esac
}}

# The words crux gives for $1 (`rules`, or `statements:NAME`) into _crux_asked[$1], asked once per shell.
typeset -gA _crux_asked
_crux_ask() {{
    (( ${{+_crux_asked[$1]}} )) && return
    _crux_asked[$1]="$(command crux {asked} "$1" 2>/dev/null)"
}}

_crux() {{
    local cur=${{words[CURRENT]}} command_path=crux word pending='' argument fallback completion
    local rules=${{CRUX_RULES:-crux}}
    local -i i positionals=0  # (not `path`: in zsh that is $PATH, and crux is asked at Tab)
    local -a options valued subcommands argument_words
    _crux_command $command_path
    # read the words before the cursor: which command, which rule set, how many arguments
    for ((i = 2; i < CURRENT; i++)); do
        word=${{words[i]}}
        if [[ -n $pending ]]; then
            [[ $pending == --rules ]] && rules=$word
            pending=''
            continue
        fi
        if [[ $word == --*=* ]]; then
            [[ ${{word%%=*}} == --rules ]] && rules=${{word#*=}}
            continue
        fi
        if [[ $word == --* || ( $positionals == 0 && $word == -h ) ]]; then
            (( ${{valued[(Ie)$word]}} )) && pending=$word
            continue
        fi
        if (( positionals == 0 && ${{subcommands[(Ie)$word]}} )); then
            command_path="$command_path $word"
            _crux_command $command_path
            continue
        fi
        if (( positionals == 0 )) && [[ -n $fallback ]]; then
            command_path="$command_path $fallback"
            _crux_command $command_path
        fi
        (( positionals++ ))
    done
    local option=$pending
    if [[ -z $option && $cur == --*=* ]]; then
        option=${{cur%%=*}}
        compset -P '*='
    fi
    if [[ -n $option ]]; then
        completion=$(_crux_option_values $command_path $option)
        case $completion in
            words*) compadd -- ${{=completion#words }} ;;
            asked*) _crux_ask ${{completion#asked }}; compadd -- ${{(f)_crux_asked[${{completion#asked }}]}} ;;
            files) _files ;;
        esac
        return
    fi
    if [[ $cur == -* && $cur != -[0-9bB]* ]]; then
        _describe -t options option options
        return
    fi
    (( positionals > 0 )) && [[ $argument != files ]] && return 1
    (( $#subcommands )) && compadd -- $subcommands
    case $argument in
        statement) _crux_ask statements:$rules
            compadd -M 'm:{{a-zA-Z}}={{A-Za-z}}' -- ${{(f)_crux_asked[statements:$rules]}} ;;
        choice) compadd -- $argument_words ;;
        files) _files ;;
    esac
}}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _crux "$@"
else
    compdef _crux crux
fi
"""


# -- fish ------------------------------------------------------------------------------------------

def fish_quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish_script(cmds: list[Command]) -> str:
    tables, values = [], []
    for cmd in cmds:
        names = [n for o in cmd.options for n in o.names]
        helps = [fish_quoted(o.help) for o in cmd.options for _ in o.names]
        valued = [n for o in cmd.options if o.values for n in o.names]
        tables.append(
            f"        case {fish_quoted(cmd.key)}\n"
            f"            set -g __crux_options {shell_words(names)}\n"
            f"            set -g __crux_helps {shell_words(helps)}\n"
            f"            set -g __crux_valued {shell_words(valued)}\n"
            f"            set -g __crux_subcommands {shell_words(cmd.subcommands)}\n"
            f"            set -g __crux_argument {cmd.argument or single_quoted('')}\n"
            f"            set -g __crux_argument_words {shell_words(cmd.choices)}\n"
            f"            set -g __crux_fallback {cmd.fallback or single_quoted('')}")
        for option in cmd.options:
            if option.values == "choice":
                kind = f"echo words {shell_words(option.choices)}"
            elif option.values == "asked":
                kind = f"echo asked {shell_words(option.choices)}"
            elif option.values == "files":
                kind = "echo files"
            else:
                continue
            values.append(f"        case {' '.join(fish_quoted(cmd.key + ' ' + n) for n in option.names)}\n"
                          f"            {kind}")
    return FISH_TEMPLATE.format(commands="\n".join(tables), values="\n".join(values), asked=ASKED)


FISH_TEMPLATE = r"""# fish completion for crux
#
# Generated from the click command by `crux --completion fish`; do not edit.
# Install: crux --completion fish > ~/.config/fish/completions/crux.fish
# Tab runs no Python, but for the words of the rule sets (their names, their statements),
# which crux is asked once per shell.

# The options, their help, subcommands and argument of one command path.
function __crux_command --argument-names path
    set -g __crux_options
    set -g __crux_helps
    set -g __crux_valued
    set -g __crux_subcommands
    set -g __crux_argument ''
    set -g __crux_argument_words
    set -g __crux_fallback ''
    switch $path
{commands}
    end
end

# What the value of option $2 of command path $1 completes to: `words LIST`, `asked WHAT`, `files`, or nothing.
function __crux_option_values --argument-names path option
    switch "$path $option"
{values}
    end
end

# The words crux gives for $1 (`rules`, or `statements:NAME`), one a line, asked once per shell.
function __crux_ask --argument-names what
    set -l kept __crux_asked_(string escape --style=var -- $what)
    set -q $kept; or set -g $kept (command crux {asked} $what 2>/dev/null)
    printf '%s\n' $$kept
end

function __crux_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l path crux
    set -l positionals 0
    set -l pending ''
    set -l rules crux
    set -q CRUX_RULES; and set rules $CRUX_RULES
    __crux_command $path
    # read the words before the cursor: which command, which rule set, how many arguments
    for word in $tokens[2..-1]
        if test -n "$pending"
            test "$pending" = --rules; and set rules $word
            set pending ''
            continue
        end
        if string match -q -- '--*=*' $word
            string match -q -- '--rules=*' $word; and set rules (string replace -- '--rules=' '' $word)
            continue
        end
        if string match -q -- '--*' $word; or begin; test $positionals -eq 0; and test "$word" = -h; end
            contains -- $word $__crux_valued; and set pending $word
            continue
        end
        if test $positionals -eq 0; and contains -- $word $__crux_subcommands
            set path "$path $word"
            __crux_command $path
            continue
        end
        if test $positionals -eq 0; and test -n "$__crux_fallback"
            set path "$path $__crux_fallback"
            __crux_command $path
        end
        set positionals (math $positionals + 1)
    end
    set -l option $pending
    set -l prefix ''
    if test -z "$option"; and string match -q -- '--*=*' $cur
        set option (string split -m1 = -- $cur)[1]
        set prefix "$option="
        set cur (string split -m1 = -- $cur)[2]
    end
    if test -n "$option"
        set -l completion (string split ' ' -- (__crux_option_values $path $option))
        switch "$completion[1]"
            case words
                printf '%s
' $prefix$completion[2..-1]
            case asked
                printf '%s
' $prefix(__crux_ask $completion[2])
            case files
                __fish_complete_path $cur | string replace -r '^' -- $prefix
        end
        return
    end
    if string match -q -- '-*' $cur; and not string match -qr -- '^-[0-9bB]' $cur
        for i in (seq (count $__crux_options))
            printf '%s	%s
' $__crux_options[$i] $__crux_helps[$i]
        end
        return
    end
    test $positionals -gt 0; and test "$__crux_argument" != files; and return
    for word in $__crux_subcommands
        printf '%s	command
' $word
    end
    switch "$__crux_argument"
        case statement
            printf '%s	statement
' (__crux_ask statements:$rules)
        case choice
            printf '%s
' $__crux_argument_words
        case files
            __fish_complete_path $cur
    end
end

complete -c crux -f -a '(__crux_complete)'
"""


SCRIPT_MAKERS = {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}


def script(shell: str, root: click.Command) -> str:
    """The completion script for `shell`, generated now from the click command `root` (`crux`)."""
    if shell not in SCRIPT_MAKERS:
        raise ValueError(f"no completion script for {shell!r}; the shells are {', '.join(SHELLS)}")
    text = SCRIPT_MAKERS[shell](commands(root))
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


