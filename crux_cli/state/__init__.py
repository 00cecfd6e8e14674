"""State that outlives one roll: character sheets, encounters, history.

Everything here writes atomically under a lock; nothing else in crux writes files.
"""

from types import ModuleType

_STORE: list[ModuleType] = []  # state.store, once something has asked for it (`store_module`)


def store_module() -> ModuleType:
    """state.store (sheets and their locks), imported at first use and kept: a roll without a sheet never loads
    it, and a batch on a sheet asks for it at every line, where an `import` statement is a look-up each time."""
    if not _STORE:
        from crux_cli.state import store

        _STORE.append(store)
    return _STORE[0]
