"""The core every other package builds on: errors, limits, records, the random source,
the shared vocabulary, the line splitter, grammar helpers and output styles.

Nothing here imports another crux package.
"""
