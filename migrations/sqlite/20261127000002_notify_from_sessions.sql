-- Same version as the PostgreSQL migration that moves the event notification onto `sessions`.
-- A SQLite file has one instance, whose followers are woken in memory: nothing to do here.
SELECT 1;
