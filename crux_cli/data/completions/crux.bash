# bash completion for crux                                    -*- shell-script -*-
#
# Generated from the click command by `python tools/gen_completions.py --update`; do not edit.
# Install: crux --completion bash > ~/.local/share/bash-completion/completions/crux
# (or source this file from ~/.bashrc). Tab runs no Python: everything is below.

# The options, subcommands and argument of one command path.
_crux_command() {
    options="" valued=" " subcommands="" argument="" argument_words="" fallback=""
    case $1 in
        "crux")
            options="--seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal --completion --version -h --help"
            valued=" --seed --rules --color --sheet --repeat --completion "
            subcommands="log odds repl sheet"
            argument="statement" argument_words="" fallback="_statement" ;;
        "crux _statement")
            options="--seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal -h --help"
            valued=" --seed --rules --color --sheet --repeat "
            subcommands=""
            argument="statement" argument_words="" fallback="" ;;
        "crux log")
            options="--json --since --sheet --fight --session -n --last --stats --color --no-color -h --help"
            valued=" --since --sheet --session -n --last --color "
            subcommands=""
            argument="" argument_words="" fallback="" ;;
        "crux odds")
            options="--json --rules --color --no-color --sheet --no-sheet --at-least --cumulative -h --help"
            valued=" --rules --color --sheet --at-least "
            subcommands=""
            argument="statement" argument_words="" fallback="" ;;
        "crux repl")
            options="--seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal -h --help"
            valued=" --seed --rules --color --sheet --repeat "
            subcommands=""
            argument="" argument_words="" fallback="" ;;
        "crux sheet")
            options="-h --help"
            valued="  "
            subcommands="check new redo undo"
            argument="" argument_words="" fallback="" ;;
        "crux sheet check")
            options="-h --help"
            valued="  "
            subcommands=""
            argument="files" argument_words="" fallback="" ;;
        "crux sheet new")
            options="--name --attr --adv --dis --attack --attack-attr --hp --hit-dice --hit-die --wound-cap --ask --no-ask -h --help"
            valued=" --name --attr --adv --dis --attack --attack-attr --hp --hit-dice --hit-die --wound-cap "
            subcommands=""
            argument="files" argument_words="" fallback="" ;;
        "crux sheet redo")
            options="-h --help"
            valued="  "
            subcommands=""
            argument="files" argument_words="" fallback="" ;;
        "crux sheet undo")
            options="-h --help"
            valued="  "
            subcommands=""
            argument="files" argument_words="" fallback="" ;;
    esac
}

# What the value of option $2 of command path $1 completes to: `words LIST`, `files`, or nothing.
_crux_option_values() {
    case "$1 $2" in
        "crux --rules") echo words "crux stepdice d20check challenge list" ;;
        "crux --color") echo words "auto always never" ;;
        "crux --sheet") echo files ;;
        "crux --completion") echo words "bash zsh fish" ;;
        "crux _statement --rules") echo words "crux stepdice d20check challenge list" ;;
        "crux _statement --color") echo words "auto always never" ;;
        "crux _statement --sheet") echo files ;;
        "crux log --color") echo words "auto always never" ;;
        "crux odds --rules") echo words "crux stepdice d20check challenge list" ;;
        "crux odds --color") echo words "auto always never" ;;
        "crux odds --sheet") echo files ;;
        "crux repl --rules") echo words "crux stepdice d20check challenge list" ;;
        "crux repl --color") echo words "auto always never" ;;
        "crux repl --sheet") echo files ;;
        "crux sheet new --adv") echo words "STR DEX INT WIL" ;;
        "crux sheet new --dis") echo words "STR DEX INT WIL" ;;
        "crux sheet new --attack-attr") echo words "STR DEX INT WIL" ;;
    esac
}

# The first words of the statements of rule set $1.
_crux_statement_words() {
    case $1 in
        crux) echo "atk attack cond condition conditions damage DEX dexterity dmg heal init initiative INT intelligence rest roll save show STR strength table test WIL will wound" ;;
        stepdice) echo "atk attack death roll save step table" ;;
        d20check) echo "check damage dmg roll table" ;;
        challenge) echo "action fortune resist resistance roll table" ;;
    esac
}

# Add the words of $1 that start with $2, ignoring case (crux keywords are case-insensitive).
_crux_add_words() {
    local word prefix=${2,,}
    for word in $1; do
        [[ ${word,,} == "$prefix"* ]] && COMPREPLY+=("$word")
    done
}

_crux_add_files() {
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY+=($(compgen -f -- "$1"))
}

_crux() {
    local cur=${COMP_WORDS[COMP_CWORD]} path=crux positionals=0 i word pending=""
    local rules=${CRUX_RULES:-crux}
    local options valued subcommands argument argument_words fallback
    COMPREPLY=()
    _crux_command "$path"
    # read the words before the cursor: which command, which rule set, how many arguments
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $pending ]]; then
            [[ $word == "=" ]] && continue
            [[ $pending == --rules ]] && rules=$word
            pending=""
            continue
        fi
        if [[ $word == --*=* ]]; then  # one word when COMP_WORDBREAKS lacks '='
            [[ ${word%%=*} == --rules ]] && rules=${word#*=}
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
        option=${cur%%=*} value_prefix=${cur%%=*}= cur=${cur#*=}
    fi
    if [[ -n $option ]]; then
        local completion
        completion=$(_crux_option_values "$path" "$option")
        case $completion in
            words*) _crux_add_words "${completion#words }" "$cur" ;;
            files) _crux_add_files "$cur" ;;
        esac
        [[ -n $value_prefix ]] && COMPREPLY=("${COMPREPLY[@]/#/$value_prefix}")
        return 0
    fi
    if [[ $cur == -* && $cur != -[0-9bB]* ]]; then
        _crux_add_words "$options" "$cur"
        return 0
    fi
    ((positionals > 0)) && [[ $argument != files ]] && return 0
    _crux_add_words "$subcommands" "$cur"
    case $argument in
        statement) _crux_add_words "$(_crux_statement_words "$rules")" "$cur" ;;
        choice) _crux_add_words "$argument_words" "$cur" ;;
        files) _crux_add_files "$cur" ;;
    esac
    return 0
}

complete -F _crux crux
