"""The d20check rule set: grammar, engine, odds and rendering, joined in `ruleset.py` by one table from
statement type to its handlers (`core.ruleset.StatementTable`); `ruleset.RULESET` is its value."""
