-- Same version as the PostgreSQL migration that makes every stored event `NOTIFY` the followers
-- of its run on other instances. A SQLite file has one instance, whose followers are woken in
-- memory, so there is nothing to do here; the version is kept so both backends stay in step.
SELECT 1;
