"""The running layer under both faces: settings, the runner factory, reading a statement,
running one-shot and batch input, and output to injected streams.

The CLI (click) and the REPL (prompt-toolkit) both build on this package; neither imports the other.
"""
