-- Fair games: a forfeit is a result like any other ending by the rules (RULES §1.5),
-- and a teacher may turn the bot's turn pings off.
--
-- SQLite cannot change a CHECK in place: the results table is rebuilt with 'forfeit' added
-- to its reasons (the documented twelve-step procedure; `migrate` runs every migration with
-- foreign keys off and checks them before it commits, so the rows that reference a result
-- are neither deleted nor left dangling).
CREATE TABLE results_0006 (
    game_id     INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    level       INTEGER NOT NULL,
    deck        TEXT    NOT NULL,
    mode        TEXT    NOT NULL,
    sides       INTEGER NOT NULL,
    teams       INTEGER NOT NULL CHECK (teams IN (0, 1)),
    computer    INTEGER NOT NULL CHECK (computer IN (0, 1)),
    winner      INTEGER,                     -- the winning side; NULL: a draw or unfinished
    reason      TEXT    NOT NULL CHECK (reason IN ('all_cards', 'time_up', 'max_rounds',
                                                   'stalemate', 'forfeit', 'stopped',
                                                   'abandoned')),
    rounds      INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    day         INTEGER NOT NULL,            -- YYYYMMDD in Europe/Oslo (the pair cap's day)
    week        INTEGER NOT NULL,            -- ISO year * 100 + ISO week, Europe/Oslo
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    unrated     TEXT,                        -- why not: computer, ended_early, pair_cap, …
    recorded_at INTEGER NOT NULL,
    voided_at   INTEGER
) STRICT;

INSERT INTO results_0006 SELECT * FROM results;
DROP TABLE results;
ALTER TABLE results_0006 RENAME TO results;

CREATE INDEX results_by_guild ON results (guild_id, ended_at);
CREATE INDEX results_by_end ON results (ended_at);
CREATE INDEX results_rated_by_day ON results (guild_id, game, day) WHERE rated = 1;

-- 1: the bot mentions the player a game waits for (only them, at most once per decision).
ALTER TABLE guild_settings ADD COLUMN pings INTEGER NOT NULL DEFAULT 1 CHECK (pings IN (0, 1));
