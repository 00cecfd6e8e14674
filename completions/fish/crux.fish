# fish completion for crux
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
        case 'crux'
            set -g __crux_options --seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal --completion -V --version -h --help
            set -g __crux_helps 'Seed the dice: the same seed repeats a run exactly.' 'One JSON object per statement (JSON Lines), for scripts.' 'Rule set to use (default crux); \'--rules list\' names them all.' 'Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns it off), always (through a pipe too) or never.' 'No colour, even on a terminal (--color=never; NO_COLOR works too).' 'A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds and conditions are kept on it (CRUX_SHEET works too).' 'No character sheet, whatever the config file or CRUX_SHEET names.' 'Answer each statement N times (like \'6x 4d6kh3\' for dice).' 'Leave no trace of this run in the journal (CRUX_JOURNAL=off works too).' 'Print the Tab-completion script for SHELL (bash, zsh or fish) and exit.' 'Show the version and exit.' 'Show the version and exit.' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --seed --rules --color --sheet --repeat --completion
            set -g __crux_subcommands join log odds repl serve sheet
            set -g __crux_argument statement
            set -g __crux_argument_words
            set -g __crux_fallback _statement
        case 'crux _statement'
            set -g __crux_options --seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal -h --help
            set -g __crux_helps 'Seed the dice: the same seed repeats a run exactly.' 'One JSON object per statement (JSON Lines), for scripts.' 'Rule set to use (default crux); \'--rules list\' names them all.' 'Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns it off), always (through a pipe too) or never.' 'No colour, even on a terminal (--color=never; NO_COLOR works too).' 'A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds and conditions are kept on it (CRUX_SHEET works too).' 'No character sheet, whatever the config file or CRUX_SHEET names.' 'Answer each statement N times (like \'6x 4d6kh3\' for dice).' 'Leave no trace of this run in the journal (CRUX_JOURNAL=off works too).' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --seed --rules --color --sheet --repeat
            set -g __crux_subcommands
            set -g __crux_argument statement
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux join'
            set -g __crux_options --hero --no-color -h --help
            set -g __crux_helps 'The hero you roll as (also: /hero NAME once joined).' 'No colour, even on a terminal.' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --hero
            set -g __crux_subcommands
            set -g __crux_argument ''
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux log'
            set -g __crux_options --json --since --sheet --fight --session -n --last --stats --export --verify --color --no-color --set-aside -h --help
            set -g __crux_helps 'The journal\'s own JSON lines, one per roll or change.' 'From a time on: 30m, 2h, 3d ago, or a date like 2026-11-23 20:00.' 'Only what touched this sheet.' 'Only the words and rolls of fights.' 'Only one session (\'last\' for the latest).' 'Only the last N entries.' 'Only the last N entries.' 'Count the faces rolled against fair dice and each plain statement\'s outcomes against its odds.' 'The session\'s verifiable record (--session, else the last): commitment, entries, reveal.' 'Check a record made by --export: its chain, its seeds and every die (crux-verify(7)).' 'Colour: auto (on a terminal), always (through a pipe too), never.' 'No colour, even on a terminal (--color=never).' 'Keep a damaged store under another name (crux.db.damaged-TIME) and start a new one.' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --since --sheet --session -n --last --verify --color
            set -g __crux_subcommands
            set -g __crux_argument ''
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux odds'
            set -g __crux_options --json --rules --color --no-color --sheet --no-sheet --at-least --cumulative -h --help
            set -g __crux_helps 'One JSON object per statement (JSON Lines), for scripts.' 'Rule set to use (default crux); \'--rules list\' names them all.' 'Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns it off), always (through a pipe too) or never.' 'No colour, even on a terminal (--color=never; NO_COLOR works too).' 'A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds and conditions are kept on it (CRUX_SHEET works too).' 'No character sheet, whatever the config file or CRUX_SHEET names.' 'Also the chance that the damage (or total) is K or more.' 'Also the chance of at least and at most each damage or total.' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --rules --color --sheet --at-least
            set -g __crux_subcommands
            set -g __crux_argument statement
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux repl'
            set -g __crux_options --seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal -h --help
            set -g __crux_helps 'Seed the dice: the same seed repeats a run exactly.' 'One JSON object per statement (JSON Lines), for scripts.' 'Rule set to use (default crux); \'--rules list\' names them all.' 'Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns it off), always (through a pipe too) or never.' 'No colour, even on a terminal (--color=never; NO_COLOR works too).' 'A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds and conditions are kept on it (CRUX_SHEET works too).' 'No character sheet, whatever the config file or CRUX_SHEET names.' 'Answer each statement N times (like \'6x 4d6kh3\' for dice).' 'Leave no trace of this run in the journal (CRUX_JOURNAL=off works too).' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --seed --rules --color --sheet --repeat
            set -g __crux_subcommands
            set -g __crux_argument ''
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux serve'
            set -g __crux_options --seed --json --rules --color --no-color --sheet --no-sheet --repeat --no-journal --host --port --cert --key -h --help
            set -g __crux_helps 'Seed the dice: the same seed repeats a run exactly.' 'One JSON object per statement (JSON Lines), for scripts.' 'Rule set to use (default crux); \'--rules list\' names them all.' 'Colour: auto (on a terminal; CLICOLOR_FORCE or FORCE_COLOR force it, NO_COLOR turns it off), always (through a pipe too) or never.' 'No colour, even on a terminal (--color=never; NO_COLOR works too).' 'A character sheet: its ratings, saves and attack apply, and Grit, HP, Wounds and conditions are kept on it (CRUX_SHEET works too).' 'No character sheet, whatever the config file or CRUX_SHEET names.' 'Answer each statement N times (like \'6x 4d6kh3\' for dice).' 'Leave no trace of this run in the journal (CRUX_JOURNAL=off works too).' 'The address to serve on; 0.0.0.0 serves every network (the links are then the only key).' 'The port (0, the default, picks a free one).' 'A TLS certificate (PEM): the links become https://.' 'The TLS certificate\'s private key (PEM).' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --seed --rules --color --sheet --repeat --host --port --cert --key
            set -g __crux_subcommands
            set -g __crux_argument ''
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux sheet'
            set -g __crux_options -h --help
            set -g __crux_helps 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued
            set -g __crux_subcommands check new redo undo
            set -g __crux_argument ''
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux sheet check'
            set -g __crux_options -h --help
            set -g __crux_helps 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued
            set -g __crux_subcommands
            set -g __crux_argument files
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux sheet new'
            set -g __crux_options --name --attr --adv --dis --attack --attack-attr --hp --hit-dice --hit-die --wound-cap --ask --no-ask -h --help
            set -g __crux_helps 'The hero\'s name (default: asked, or the file\'s name).' 'ATTR=MOD/RATING, e.g. STR=+2/1: modifier +2, Boon/Bane rating +1 (repeatable)' 'The advantaged save type (+1 Boon).' 'The disadvantaged save type (+1 Bane).' 'The attack die, e.g. d8 or 2d6 (default d6).' 'The attribute added to damage.' 'Maximum HP (default 10).' 'Hit Dice (default 1).' 'The Hit Die, e.g. d8 (default d8).' 'Wounds that mean death (default 6; lower for a grittier game).' 'Ask for what the flags leave out (default: on a terminal when no --name is given).' 'Ask for what the flags leave out (default: on a terminal when no --name is given).' 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued --name --attr --adv --dis --attack --attack-attr --hp --hit-dice --hit-die --wound-cap
            set -g __crux_subcommands
            set -g __crux_argument files
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux sheet redo'
            set -g __crux_options -h --help
            set -g __crux_helps 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued
            set -g __crux_subcommands
            set -g __crux_argument files
            set -g __crux_argument_words
            set -g __crux_fallback ''
        case 'crux sheet undo'
            set -g __crux_options -h --help
            set -g __crux_helps 'Show this message and exit.' 'Show this message and exit.'
            set -g __crux_valued
            set -g __crux_subcommands
            set -g __crux_argument files
            set -g __crux_argument_words
            set -g __crux_fallback ''
    end
end

# What the value of option $2 of command path $1 completes to: `words LIST`, `asked WHAT`, `files`, or nothing.
function __crux_option_values --argument-names path option
    switch "$path $option"
        case 'crux --rules'
            echo asked rules
        case 'crux --color'
            echo words auto always never
        case 'crux --sheet'
            echo files
        case 'crux --completion'
            echo words bash zsh fish
        case 'crux _statement --rules'
            echo asked rules
        case 'crux _statement --color'
            echo words auto always never
        case 'crux _statement --sheet'
            echo files
        case 'crux log --verify'
            echo files
        case 'crux log --color'
            echo words auto always never
        case 'crux odds --rules'
            echo asked rules
        case 'crux odds --color'
            echo words auto always never
        case 'crux odds --sheet'
            echo files
        case 'crux repl --rules'
            echo asked rules
        case 'crux repl --color'
            echo words auto always never
        case 'crux repl --sheet'
            echo files
        case 'crux serve --rules'
            echo asked rules
        case 'crux serve --color'
            echo words auto always never
        case 'crux serve --sheet'
            echo files
        case 'crux serve --cert'
            echo files
        case 'crux serve --key'
            echo files
        case 'crux sheet new --adv'
            echo words STR DEX INT WIL
        case 'crux sheet new --dis'
            echo words STR DEX INT WIL
        case 'crux sheet new --attack-attr'
            echo words STR DEX INT WIL
    end
end

# The words crux gives for $1 (`rules`, or `statements:NAME`), one a line, asked once per shell.
function __crux_ask --argument-names what
    set -l kept __crux_asked_(string escape --style=var -- $what)
    set -q $kept; or set -g $kept (command crux --completion-words $what 2>/dev/null)
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
