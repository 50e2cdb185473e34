-- Sessions and their events (PostgreSQL). Same tables, columns and meaning as the SQLite
-- migration of the same version.

CREATE TABLE sessions (
    -- Insertion order: listing is newest first and pages on this, so ties are impossible.
    n                BIGSERIAL        PRIMARY KEY,
    id               TEXT             NOT NULL UNIQUE,
    status           TEXT             NOT NULL,
    -- The accepted request, as JSON text.
    request          TEXT             NOT NULL,
    detached         BOOLEAN          NOT NULL DEFAULT FALSE,
    created_at       TIMESTAMPTZ      NOT NULL,
    updated_at       TIMESTAMPTZ      NOT NULL,
    finished_at      TIMESTAMPTZ,
    -- The `complete` payload, as JSON text, once finished. TEXT rather than JSONB: JSONB
    -- reorders keys, and clients get back exactly what the run emitted.
    result           TEXT,
    total_reward     DOUBLE PRECISION NOT NULL DEFAULT 0,
    event_count      BIGINT           NOT NULL DEFAULT 0,
    step_count       BIGINT           NOT NULL DEFAULT 0,
    -- Set by DELETE on any instance; the instance running the session polls it.
    cancel_requested BOOLEAN          NOT NULL DEFAULT FALSE,
    -- Which server process runs it, and when that process last said it was alive.
    owner            TEXT,
    heartbeat_at     TIMESTAMPTZ,
    -- Last time a subscriber on another instance said it follows the session (it then does
    -- not count as abandoned).
    watched_at       TIMESTAMPTZ
);

CREATE INDEX sessions_status_n ON sessions (status, n);
CREATE INDEX sessions_created_at ON sessions (created_at);

CREATE TABLE events (
    session_id TEXT        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        BIGINT      NOT NULL,
    type       TEXT        NOT NULL,
    -- The event's `data`, as JSON text (kept verbatim so a replay is byte-identical).
    payload    TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (session_id, seq)
);
