-- Deadlines that must survive a restart: answer time, the game's time limit, idle expiry.
-- One timer per (game, kind); setting it again moves it. due_at is epoch milliseconds.

CREATE TABLE timers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    due_at  INTEGER NOT NULL,
    payload TEXT    NOT NULL DEFAULT 'null' CHECK (json_valid(payload)),
    PRIMARY KEY (game_id, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX timers_by_due ON timers (due_at);
