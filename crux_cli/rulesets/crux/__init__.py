"""The Crux System (seed 001), the default rule set: grammar, syntax tree, compiler, engine,
odds and rendering, with what only Crux has: Grit, sheets, wounds and the encounter ledger.

`ruleset.RULESET` is the typed value the registry loads; this package imports nothing on its own.
"""
