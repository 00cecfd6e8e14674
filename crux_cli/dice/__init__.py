"""Generic dice (NOTATION §2), answered in every rule set: grammar, syntax tree, roller,
exact odds and rendering. `handler` gives them the same shape as a rule set's statements.
"""
