"""The notation: text → pyparsing grammar → immutable syntax tree (see grammar/crux.ebnf)."""
