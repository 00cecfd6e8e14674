"""The d20check rule set: grammar, compiler, engine, odds and rendering; `ruleset.RULESET` is its value."""
