"""The state store's schema as numbered steps (state.db `Store.migrate` runs the ones a store lacks).

A later change of the schema is a step added at the end, never an edit of one before it: a store's
`PRAGMA user_version` says how many it has had (tests/test_state_migrations.py).
"""

from __future__ import annotations

# Each step: the SQL statements of one change of the schema, in order (`;` between them), run in one transaction.
# Step 1 is idempotent (IF NOT EXISTS, OR IGNORE): a store of crux's first layout dumped as SQL
# (tests/golden) has its tables and no user_version.
STEPS: tuple[str, ...] = (
    # 1: the journal (entries, sheet_entries), running fights, intents and meta, as crux first made them
    """
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    time TEXT NOT NULL,
    until TEXT NOT NULL,
    session TEXT NOT NULL,
    kind TEXT NOT NULL,
    who TEXT,
    statement TEXT,
    fight INTEGER NOT NULL DEFAULT 0,
    count INTEGER NOT NULL DEFAULT 1,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_until ON entries(until);
CREATE INDEX IF NOT EXISTS entries_session ON entries(session, seq);
CREATE INDEX IF NOT EXISTS entries_id ON entries(id);
CREATE INDEX IF NOT EXISTS entries_fight ON entries(seq) WHERE fight = 1;
CREATE INDEX IF NOT EXISTS entries_rolls ON entries(seq) WHERE kind = 'roll';
CREATE TABLE IF NOT EXISTS sheet_entries (
    path TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (path, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fights (
    session TEXT PRIMARY KEY,
    ledger TEXT NOT NULL,
    saved TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS intents (
    seq INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT OR IGNORE INTO meta VALUES ('rolls', '0');
""",
    # 2 (issue 34, the shared table): its log, one row per entry in the order every page shows them; its
    # tokens and holder are rows of `meta` (crux_cli/table/keeping.py)
    """
CREATE TABLE IF NOT EXISTS table_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    body TEXT NOT NULL
);
""",
    # 3 (issue 38): the runs of plain rolls newest first, for `crux log --stats`' outcomes (state.history)
    "CREATE INDEX IF NOT EXISTS entries_plain ON entries(seq) WHERE kind = 'roll' AND (who IS NULL OR count > 1)",
)
