-- A stored event wakes the followers of its run on other instances: `NOTIFY scrape_agent_events,
-- '<seq> <session id>'` (small: a session id is at most 64 characters), delivered at commit, so
-- a follower woken by it reads the event from the table. PostgreSQL only; a SQLite file has one
-- instance, whose followers are woken in memory.
--
-- Only runs someone follows from another instance notify: such a follower marks the session
-- `watched_at` every second while it waits, and reads the store again after its first mark.
-- A committing transaction that has notified holds PostgreSQL's global notify lock through its
-- WAL flush, which serialises concurrent commits (events/postgres/store_and_deliver_8_runs fell
-- from ≈ 2,800 to ≈ 590 events/s when every event notified); followers on the owner's own
-- instance are woken in memory and need none of it. The 10 s window outlasts several missed
-- marks and a few seconds of clock difference between an instance and the database.

CREATE FUNCTION notify_event_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM sessions
        WHERE id = NEW.session_id AND watched_at > now() - interval '10 seconds'
    ) THEN
        PERFORM pg_notify('scrape_agent_events', NEW.seq::text || ' ' || NEW.session_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION notify_event_stored();
