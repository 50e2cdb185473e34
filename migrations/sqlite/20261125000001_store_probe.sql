-- One row that `/readyz` updates in a transaction: proof that the store takes a write now (a
-- full disk or a read-only file still answers reads). The PostgreSQL migration of the same
-- version has the same table and meaning.

CREATE TABLE store_probe (
    id         INTEGER PRIMARY KEY,
    -- When a probe last committed, and which server process wrote it.
    checked_at TEXT    NOT NULL,
    instance   TEXT
);

INSERT INTO store_probe (id, checked_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
