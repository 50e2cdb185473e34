-- Takeover: a run whose lease expired is claimed again and resumed. `attempts` counts the claims
-- of a run (its creation is the first); a run claimed more than `runs.max_attempts` times is
-- closed with the error `too_many_attempts` instead of resumed. Same column and meaning as the
-- PostgreSQL migration of the same version.

ALTER TABLE sessions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
