-- PostgreSQL's twin of storage/migrations/0005_challenge_cooldown.sql: the same tables, columns and indexes
-- (ids BIGINT: Discord snowflakes need 64 bits; JSON kept as checked TEXT, as SQLite keeps it).
-- The challenge cooldown is read from storage (so it survives a restart): a host's latest
-- challenge, of any status, is one index probe.
CREATE INDEX invitations_by_host ON invitations (host_id, kind, created_at);
