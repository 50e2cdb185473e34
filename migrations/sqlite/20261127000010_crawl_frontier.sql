-- A crawl's frontier past its in-memory bound (`crawl.max_frontier`): the URLs waiting to be read
-- wait here, so a site with millions of links costs the run a bounded amount of memory. Rows are
-- taken (deleted) in `seq` order as the run reads them, and go with their session. The PostgreSQL
-- migration of the same version has the same table and meaning.

CREATE TABLE crawl_frontier (
    session_id TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    -- The URL in its normal form: one row per page.
    url        TEXT    NOT NULL,
    -- The order the crawl admitted it in (read first in, first out).
    seq        INTEGER NOT NULL,
    -- Links from the nearest seed, the page it was found on, and how (`sitemap`, `link`).
    depth      INTEGER NOT NULL,
    found_on   TEXT,
    found_by   TEXT    NOT NULL,
    PRIMARY KEY (session_id, url)
);
CREATE INDEX crawl_frontier_order ON crawl_frontier (session_id, seq);
