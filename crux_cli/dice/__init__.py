"""Generic dice (crux-notation(7) DICE EXPRESSIONS), answered in every rule set: grammar, syntax tree, roller,
exact odds and rendering. `handler` gives them the same shape as a rule set's statements.
"""
