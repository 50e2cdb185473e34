-- Every stored event wakes the followers of its run on every instance sharing this database:
-- `NOTIFY scrape_agent_events, '<seq> <session id>'` (small: a session id is at most 64
-- characters). Delivered at commit, so a follower woken by it reads the event from the table.
-- PostgreSQL only; a SQLite file has one instance, whose followers are woken in memory.

CREATE FUNCTION notify_event_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('scrape_agent_events', NEW.seq::text || ' ' || NEW.session_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION notify_event_stored();
