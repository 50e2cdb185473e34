-- Leases with epochs: a running session is held by one instance (`owner`) under an `epoch` that
-- grows with every claim, until `lease_until` (seconds since 1970 on the database's clock).
-- Every event write, answer write and the finish is conditional on `(id, epoch)` in the same
-- statement, so an instance that lost its lease can never write again. Same columns and meaning
-- as the PostgreSQL migration of the same version.

ALTER TABLE sessions ADD COLUMN epoch INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN lease_until REAL;
