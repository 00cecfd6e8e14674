"""Compilers: a syntax tree plus what the sheet says becomes a rule-engine request."""
