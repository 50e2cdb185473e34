-- The event notification moves from a row trigger on `events` to a conditional row trigger on
-- `sessions`: every stored event bumps its session's `event_count` in the same statement, and a
-- trigger's `WHEN` is evaluated before anything is queued, so a run nobody follows from another
-- instance no longer pays a PL/pgSQL call and an extra lookup of its session for each event (the
-- event path had become slower than before notifications; see README, "Performance").
--
-- Same message as before, `NOTIFY scrape_agent_events, '<seq> <session id>'`, with the session's
-- new `event_count` as the seq: seqs run 1, 2, 3… and every stored event adds one to the count
-- in the statement that stores it, so the count is the highest seq stored (a close that stores
-- two events at once names the second). Delivered at commit, as before. SQLite: nothing (one
-- instance; its followers are woken in memory).

DROP TRIGGER events_notify ON events;
DROP FUNCTION notify_event_stored();

CREATE FUNCTION notify_events_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('scrape_agent_events', NEW.event_count::text || ' ' || NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_notify AFTER UPDATE OF event_count ON sessions
    FOR EACH ROW
    WHEN (NEW.event_count > OLD.event_count AND NEW.watched_at > now() - interval '10 seconds')
    EXECUTE FUNCTION notify_events_stored();
