-- PNGs taken by `browser.screenshot`, kept with their session and served at
-- GET /api/scrape/{id}/screenshots/{n}.png; deleted with the session. Same table and meaning as
-- the PostgreSQL migration of the same version.

CREATE TABLE screenshots (
    session_id TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    -- The run's screenshots are numbered from 1 in the order taken.
    n          INTEGER NOT NULL,
    -- The page it is of.
    url        TEXT    NOT NULL,
    png        BLOB   NOT NULL,
    PRIMARY KEY (session_id, n)
);
