-- The teacher's class presets, per-pupil accommodations and the effort leaderboard's index.
-- accommodations names a pupil: it is listed in PRIVACY.md, exported by my-data and deleted
-- by forget-me (a test checks all three).

-- Defaults for /mattekrig start, per channel (channel_id) or for the whole server
-- (channel_id 0). options is a JSON object of start options (game, level, deck, mode,
-- answer_form, answer_seconds, war_size, minutes, computer); locked = 1: pupils choose only
-- their opponents.
CREATE TABLE class_presets (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    options    TEXT    NOT NULL,
    locked     INTEGER NOT NULL CHECK (locked IN (0, 1)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) STRICT, WITHOUT ROWID;

-- A pupil's answer time, as a percentage of the table's (200: twice as long); 0: no answer
-- timer at all. Set by a manager; shown to nobody else.
CREATE TABLE accommodations (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    answer_percent INTEGER NOT NULL CHECK (answer_percent BETWEEN 0 AND 1000),
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

-- Which leaderboard members see by default and may share (the teacher's choice).
ALTER TABLE guild_settings ADD COLUMN public_board TEXT NOT NULL DEFAULT 'rating';

-- The effort leaderboard: answers given, most first.
CREATE INDEX board_by_answers ON board_totals
    (guild_id, scope, game, level, answers DESC, games DESC, user_id);

-- A class session: a timed class round (/mattekrig admin session). Every game started in the
-- server while it runs ends when it ends (time up, RULES §1.5); then its summary is posted in
-- channel_id, in lang, and summarized_at is set.
CREATE TABLE class_sessions (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    lang          TEXT    NOT NULL,
    started_at    INTEGER NOT NULL,
    ends_at       INTEGER NOT NULL CHECK (ends_at > started_at),
    summarized_at INTEGER
) STRICT;

CREATE INDEX class_sessions_open ON class_sessions (guild_id, ends_at) WHERE summarized_at IS NULL;

-- An assignment: "rounds answers at level in game, at least best_percent % of them the best
-- move", between created_at and due_at. Progress is counted from the results tables, so no
-- row here names a pupil.
CREATE TABLE assignments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    level        INTEGER NOT NULL CHECK (level BETWEEN 1 AND 7),
    rounds       INTEGER NOT NULL CHECK (rounds >= 1),
    best_percent INTEGER NOT NULL CHECK (best_percent BETWEEN 0 AND 100),
    created_at   INTEGER NOT NULL,
    due_at       INTEGER NOT NULL CHECK (due_at > created_at)
) STRICT;

CREATE INDEX assignments_by_guild ON assignments (guild_id, due_at);
