-- One row that `/readyz` updates in a transaction: proof that the store takes a write now (a
-- full disk or a read-only database still answers reads). Same table and meaning as the SQLite
-- migration of the same version.

CREATE TABLE store_probe (
    id         INTEGER     PRIMARY KEY,
    -- When a probe last committed, and which server process wrote it.
    checked_at TIMESTAMPTZ NOT NULL,
    instance   TEXT
);

INSERT INTO store_probe (id, checked_at) VALUES (1, now());
