"""The interactive session (`crux repl`, or `crux` alone on a terminal): glue around the Runner.

One module per concern, pgcli-style: `suggest` (what fits at the cursor, pure),
`completer`, `lexer`, `toolbar`, `style`, `key_bindings` (prompt-toolkit glue
built by small factories), `commands` (the `/` session commands and their
registry), `session` (the state of an evening: runner, aliases, rolls,
countdowns), `history` (the private history file) and `app` (the loop).

Only `app` and the glue modules import prompt-toolkit, and the CLI imports this
package only when a session starts, so the one-shot command stays light.
"""
