-- Games are event-sourced: a game is its game name, config, seed and the ordered list of
-- accepted player actions with the engine events each produced.
-- All *_at columns are milliseconds since the Unix epoch, supplied by the caller.

CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    thread_id  INTEGER,                      -- set when the game is played in a thread
    message_id INTEGER,                      -- the board message, once posted
    game       TEXT    NOT NULL,
    config     TEXT    NOT NULL CHECK (json_valid(config)),
    seed       INTEGER NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'live'
               CHECK (status IN ('live', 'over', 'abandoned', 'stopped')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- At most one live game per channel, where a game's channel is its thread when it has one
-- (so a class can run many thread games off one channel).
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (coalesce(thread_id, channel_id)) WHERE status = 'live';

-- The live games to restore at start-up.
CREATE INDEX games_live ON games (id) WHERE status = 'live';

CREATE TABLE game_players (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    side         INTEGER NOT NULL CHECK (side >= 0),
    user_id      INTEGER,                    -- NULL for the computer
    computer     TEXT,                       -- the computer's strength, NULL for a user
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) <> (computer IS NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX game_players_by_user ON game_players (user_id) WHERE user_id IS NOT NULL;

-- The primary key turns a double click that slipped past the game lock into a clean conflict.
CREATE TABLE game_events (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    events     TEXT    NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
    user_id    INTEGER,                      -- who pressed; NULL for timers and the computer
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
