-- PostgreSQL's twin of storage/migrations/0010_named_presets.sql: the teacher's named
-- presets, and the copy of one a class session was opened with (JSON kept as checked TEXT,
-- as SQLite keeps it).
CREATE TABLE named_presets (
    guild_id   BIGINT NOT NULL,
    folded     TEXT   NOT NULL,
    name       TEXT   NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
    options    TEXT   NOT NULL CHECK (json_typeof(options::json) = 'object'),
    locked     BIGINT NOT NULL CHECK (locked IN (0, 1)),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, folded)
);

ALTER TABLE class_sessions ADD COLUMN preset TEXT
    CHECK (preset IS NULL OR json_typeof(preset::json) = 'object');
