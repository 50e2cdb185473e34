-- Webhook deliveries (`webhook` on a scrape request): a durable outbox. A row is written in the
-- same transaction as the event it announces (a run's `complete`, or a URL's `url_complete`
-- when the request asks for it), so a finished run always has its delivery, whichever instance
-- finished it. A background sender claims due rows, POSTs them (signed) and marks each
-- delivered once, or retries it with a growing wait, or gives up after `webhooks.max_attempts`.
-- Same table and meaning as the PostgreSQL migration of the same version.

CREATE TABLE webhook_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id      TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    -- `complete` or `url_complete`, and the URL's position for the latter (-1 for `complete`):
    -- one delivery per announced event, whatever retries or takeovers happen.
    event           TEXT    NOT NULL,
    url_index       INTEGER NOT NULL,
    -- The receiver's URL, and the JSON body exactly as sent (signed as it is).
    target          TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    -- `pending`, `delivered` (a 2xx answer) or `failed` (gave up).
    state           TEXT    NOT NULL DEFAULT 'pending',
    -- POSTs made so far.
    attempts        INTEGER NOT NULL DEFAULT 0,
    -- Claims so far: the fence of the claimer's writes (a claim that expired cannot mark the
    -- row any more once another instance claimed it).
    claims          INTEGER NOT NULL DEFAULT 0,
    -- When the row may be claimed next (seconds since 1970 on the database's clock): the next
    -- retry, or the end of a claim's lease while it is being sent.
    next_attempt_at REAL    NOT NULL DEFAULT 0,
    -- The instance that claimed it last.
    claimed_by      TEXT,
    -- The last attempt's HTTP status (none when no answer came) and error.
    last_status     INTEGER,
    last_error      TEXT,
    created_at      TEXT    NOT NULL,
    delivered_at    TEXT,
    UNIQUE (session_id, event, url_index)
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (state, next_attempt_at);
