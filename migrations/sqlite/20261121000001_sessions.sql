-- Sessions and their events (SQLite). The PostgreSQL migration of the same version has the
-- same tables, columns and meaning; only the column types differ.

CREATE TABLE sessions (
    -- Insertion order: listing is newest first and pages on this, so ties are impossible.
    n                INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,
    status           TEXT    NOT NULL,
    -- The accepted request, as JSON text.
    request          TEXT    NOT NULL,
    detached         BOOLEAN NOT NULL DEFAULT FALSE,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT,
    -- The `complete` payload, as JSON text, once finished.
    result           TEXT,
    total_reward     REAL    NOT NULL DEFAULT 0,
    event_count      BIGINT  NOT NULL DEFAULT 0,
    step_count       BIGINT  NOT NULL DEFAULT 0,
    -- Set by DELETE on any instance; the instance running the session polls it.
    cancel_requested BOOLEAN NOT NULL DEFAULT FALSE,
    -- Which server process runs it, and when that process last said it was alive.
    owner            TEXT,
    heartbeat_at     TEXT,
    -- Last time a subscriber on another instance said it follows the session (it then does
    -- not count as abandoned).
    watched_at       TEXT
);

CREATE INDEX sessions_status_n ON sessions (status, n);
CREATE INDEX sessions_created_at ON sessions (created_at);

CREATE TABLE events (
    session_id TEXT   NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    type       TEXT   NOT NULL,
    -- The event's `data`, as JSON text (kept verbatim so a replay is byte-identical).
    payload    TEXT   NOT NULL,
    created_at TEXT   NOT NULL,
    PRIMARY KEY (session_id, seq)
);
