-- PostgreSQL's twin of storage/migrations/0002_timers.sql: the same tables, columns and indexes
-- (ids BIGINT: Discord snowflakes need 64 bits; JSON kept as checked TEXT, as SQLite keeps it).
-- Deadlines that must survive a restart: answer time, the game's time limit, idle expiry.
-- One timer per (game, kind); setting it again moves it. due_at is epoch milliseconds.

CREATE TABLE timers (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    due_at  BIGINT  NOT NULL,
    payload TEXT    NOT NULL DEFAULT 'null' CHECK ((payload::json IS NOT NULL)),
    PRIMARY KEY (game_id, kind)
);

CREATE INDEX timers_by_due ON timers (due_at);
