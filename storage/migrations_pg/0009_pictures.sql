-- PostgreSQL's twin of storage/migrations/0009_pictures.sql: a server may turn the board's
-- card pictures off; on by default.
ALTER TABLE guild_settings ADD COLUMN pictures BIGINT NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));
