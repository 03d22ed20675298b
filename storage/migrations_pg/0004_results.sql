-- PostgreSQL's twin of storage/migrations/0004_results.sql: the same tables, columns and indexes
-- (ids BIGINT: Discord snowflakes need 64 bits; JSON kept as checked TEXT, as SQLite keeps it).
-- Results, ratings, seasons, the leaderboard's running totals and the teacher's settings.
-- Every table that names a pupil is listed in PRIVACY.md (a test checks it) and is covered
-- by the export (my-data) and the deletion (forget-me). *_at columns are epoch milliseconds.

-- A class's competition runs in seasons; the teacher starts a new one (the old board stays
-- queryable). Season 1 starts with the server's first recorded result.
CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    season     BIGINT  NOT NULL CHECK (season >= 1),
    started_at BIGINT  NOT NULL,
    ended_at   BIGINT,                      -- NULL for the current season
    PRIMARY KEY (guild_id, season)
);

-- One row per finished game played in a server. No foreign key to games: the move log is
-- deleted after 30 days (PRIVACY.md), the result stays. A voided result keeps this row (so
-- recording it again stays a no-op) and loses its players, operations and rating changes.
CREATE TABLE results (
    game_id     BIGINT  PRIMARY KEY,         -- games.id
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    level       BIGINT  NOT NULL,
    deck        TEXT    NOT NULL,
    mode        TEXT    NOT NULL,
    sides       BIGINT  NOT NULL,
    teams       BIGINT  NOT NULL CHECK (teams IN (0, 1)),
    computer    BIGINT  NOT NULL CHECK (computer IN (0, 1)),
    winner      BIGINT,                     -- the winning side; NULL: a draw or unfinished
    reason      TEXT    NOT NULL CHECK (reason IN ('all_cards', 'time_up', 'max_rounds',
                                                   'stalemate', 'stopped', 'abandoned')),
    rounds      BIGINT  NOT NULL,
    started_at  BIGINT  NOT NULL,
    ended_at    BIGINT  NOT NULL,
    duration_ms BIGINT  NOT NULL,
    season      BIGINT  NOT NULL,
    day         BIGINT  NOT NULL,            -- YYYYMMDD in Europe/Oslo (the pair cap's day)
    week        BIGINT  NOT NULL,            -- ISO year * 100 + ISO week, Europe/Oslo
    rated       BIGINT  NOT NULL CHECK (rated IN (0, 1)),
    unrated     TEXT,                        -- why not: computer, ended_early, pair_cap, …
    recorded_at BIGINT  NOT NULL,
    voided_at   BIGINT 
);

CREATE INDEX results_by_guild ON results (guild_id, ended_at);
CREATE INDEX results_by_end ON results (ended_at);
-- The per-pair daily cap counts a pair's rated games of one day.
CREATE INDEX results_rated_by_day ON results (guild_id, game, day) WHERE rated = 1;

-- One row per seat. user_id is NULL for the computer and for a player who asked to be
-- forgotten (kind 'anonymous', display_name NULL): the others keep their own results.
CREATE TABLE result_players (
    game_id      BIGINT  NOT NULL REFERENCES results (game_id) ON DELETE CASCADE,
    seat         BIGINT  NOT NULL,
    side         BIGINT  NOT NULL,
    team         BIGINT,                    -- the side, when the side is a team of several
    kind         TEXT    NOT NULL CHECK (kind IN ('user', 'computer', 'anonymous')),
    user_id      BIGINT,
    computer     TEXT,
    display_name TEXT,                       -- the name at game time
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw', 'none')),
    cards_end    BIGINT,
    rounds_won   BIGINT  NOT NULL DEFAULT 0,
    wars_won     BIGINT  NOT NULL DEFAULT 0,
    exact_hits   BIGINT  NOT NULL DEFAULT 0,
    answers      BIGINT  NOT NULL DEFAULT 0, -- answers given (timeouts are `missed`)
    correct      BIGINT  NOT NULL DEFAULT 0,
    best         BIGINT  NOT NULL DEFAULT 0,
    missed       BIGINT  NOT NULL DEFAULT 0,
    answer_ms    BIGINT  NOT NULL DEFAULT 0, -- total answer time; mean = answer_ms / answers
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'user') = (user_id IS NOT NULL))
);

CREATE INDEX result_players_by_user ON result_players (user_id, game_id)
    WHERE user_id IS NOT NULL;

-- Answers per operation: add, multiply, divide, subtract (levels 1–4); target, square, root
-- (levels 5–7).
CREATE TABLE result_operations (
    game_id   BIGINT  NOT NULL,
    seat      BIGINT  NOT NULL,
    op        TEXT    NOT NULL,
    answers   BIGINT  NOT NULL,
    correct   BIGINT  NOT NULL,
    best      BIGINT  NOT NULL,
    answer_ms BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat, op),
    FOREIGN KEY (game_id, seat) REFERENCES result_players (game_id, seat) ON DELETE CASCADE
);

-- Elo ratings per server, game and scope: 'all' (never reset) and 's<season>'.
CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    scope      TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    rating     BIGINT  NOT NULL,
    games      BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, scope, game, user_id)
);

CREATE INDEX ratings_board ON ratings (guild_id, scope, game, rating DESC, games DESC, user_id);
CREATE INDEX ratings_by_user ON ratings (user_id);

-- What each rated game moved, per player and scope: `void` subtracts exactly this.
CREATE TABLE rating_changes (
    game_id  BIGINT  NOT NULL REFERENCES results (game_id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL,
    scope    TEXT    NOT NULL,
    guild_id BIGINT  NOT NULL,
    game     TEXT    NOT NULL,
    before   BIGINT  NOT NULL,
    delta    BIGINT  NOT NULL,
    at       BIGINT  NOT NULL,
    PRIMARY KEY (game_id, user_id, scope)
);

CREATE INDEX rating_changes_by_user ON rating_changes (user_id, guild_id, game, scope, at);

-- The leaderboard's running totals, kept up to date by every recorded (or voided) result, so
-- a board is one index range scan however many results there are. scope: 'all',
-- 's<season>' or 'w<ISO year and week>'; game '*' = every game; level 0 = every level.
CREATE TABLE board_totals (
    guild_id BIGINT  NOT NULL,
    scope    TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    level    BIGINT  NOT NULL,
    user_id  BIGINT  NOT NULL,
    games    BIGINT  NOT NULL DEFAULT 0,
    wins     BIGINT  NOT NULL DEFAULT 0,
    draws    BIGINT  NOT NULL DEFAULT 0,
    answers  BIGINT  NOT NULL DEFAULT 0,
    correct  BIGINT  NOT NULL DEFAULT 0,
    last_at  BIGINT  NOT NULL,
    -- Ranked only from 5 games / 10 answers (BOARD_MIN_GAMES / BOARD_MIN_ANSWERS in code).
    win_rate DOUBLE PRECISION GENERATED ALWAYS AS
        (CASE WHEN games >= 5 THEN CAST(wins AS DOUBLE PRECISION) / games END) STORED,
    accuracy DOUBLE PRECISION GENERATED ALWAYS AS
        (CASE WHEN answers >= 10 THEN CAST(correct AS DOUBLE PRECISION) / answers END) STORED,
    PRIMARY KEY (guild_id, scope, game, level, user_id)
);

CREATE INDEX board_by_wins ON board_totals (guild_id, scope, game, level, wins DESC, games, user_id);
CREATE INDEX board_by_win_rate ON board_totals
    (guild_id, scope, game, level, win_rate DESC, games DESC, user_id) WHERE win_rate IS NOT NULL;
CREATE INDEX board_by_accuracy ON board_totals
    (guild_id, scope, game, level, accuracy DESC, answers DESC, user_id) WHERE accuracy IS NOT NULL;
CREATE INDEX board_by_user ON board_totals (user_id);
CREATE INDEX board_weeks ON board_totals (scope) WHERE scope LIKE 'w%';

-- The name a player had when they last played in the server (refreshed on every game).
CREATE TABLE player_names (
    guild_id     BIGINT  NOT NULL,
    user_id      BIGINT  NOT NULL,
    display_name TEXT    NOT NULL,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX player_names_by_user ON player_names (user_id);

-- Members known to have left the server (the bot has no member-list intent: the Discord layer
-- marks them when a look-up says "unknown member"); kept off the board until they play again.
CREATE TABLE departed_members (
    guild_id BIGINT  NOT NULL,
    user_id  BIGINT  NOT NULL,
    at       BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX departed_members_by_user ON departed_members (user_id);

-- The teacher's settings for the server.
CREATE TABLE guild_settings (
    guild_id   BIGINT  PRIMARY KEY,
    board      TEXT    NOT NULL DEFAULT 'visible' CHECK (board IN ('visible', 'hidden', 'own_rank')),
    channels   TEXT    NOT NULL DEFAULT '[]'
               CHECK ((channels::json IS NOT NULL) AND json_typeof(channels::json) = 'array'),
    language   TEXT,                         -- NULL: the server's own locale
    threads    BIGINT  NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),
    updated_at BIGINT  NOT NULL
);

-- Retention and privacy look-ups on the older tables.
CREATE INDEX games_finished ON games (updated_at) WHERE status <> 'live';
CREATE INDEX game_events_by_user ON game_events (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX invitations_closed ON invitations (updated_at) WHERE status <> 'open';
