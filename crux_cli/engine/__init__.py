"""The rule engine: pure functions over an injected random source. No printing, no files."""
