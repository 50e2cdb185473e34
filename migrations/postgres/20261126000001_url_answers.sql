-- Each URL's answer, stored in the same transaction as its `url_complete` event, so a run whose
-- server dies keeps every answer it finished: the `complete` rebuilt after a crash is assembled
-- from these rows. Same table and meaning as the SQLite migration of the same version.

CREATE TABLE url_answers (
    session_id TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    -- The URL's position in the request, from 0, and the URL exactly as sent.
    url_index  INTEGER NOT NULL,
    url        TEXT    NOT NULL,
    -- The answer as JSON (`null` when the URL failed).
    answer     TEXT    NOT NULL,
    PRIMARY KEY (session_id, url_index)
);
