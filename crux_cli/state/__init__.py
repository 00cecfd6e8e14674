"""State that outlives one roll: character sheets, encounters, history.

Everything here writes atomically under a lock; nothing else in crux writes files.
"""
