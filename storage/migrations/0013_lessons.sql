-- A class lesson in the browser (`mattekrig class`), stored as it happens so that it survives
-- its server: the lesson, its seats, its games and each game's actions (a game is its
-- settings, its seed and its actions, replayed by the engine). Apart from the bot's games:
-- the bot restores every live game of `games` as its own.
-- All *_at columns are milliseconds since the Unix epoch, supplied by the caller.
--
-- Built on later: a class and its roster add a table of their own and a seat's pupil
-- (`lesson_seats`); a school server of many lessons finds a lesson by its open code
-- (`lessons_open_code`), a teacher's own lessons by `owner`, and holds each lesson it serves
-- by a session advisory lock on the lesson's id (nothing stored: it goes with its process).

CREATE TABLE lessons (
    id          INTEGER PRIMARY KEY,
    code        TEXT    NOT NULL,            -- the code pupils type to join
    teacher_key TEXT    NOT NULL,            -- SHA-256 of the teacher's secret, never the secret
    key_nonce   TEXT    NOT NULL,            -- the teacher's machine derives the secret from it
    owner       TEXT,                        -- a school server's teacher; NULL on a laptop
    setup       TEXT    NOT NULL CHECK (json_valid(setup)),   -- the class's game
    state       TEXT    NOT NULL CHECK (json_valid(state)),   -- goal, challenges, …
    paused_at   INTEGER,                     -- when the teacher paused; NULL: running
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    created_at  INTEGER NOT NULL,
    used_at     INTEGER NOT NULL,            -- its last change: a recent open lesson is resumed
    ended_at    INTEGER,
    keep_until  INTEGER,                     -- an ended lesson's data is deleted then
    CHECK ((status = 'open') = (ended_at IS NULL))
) STRICT;

-- A code opens one lesson at a time.
CREATE UNIQUE INDEX lessons_open_code ON lessons (code) WHERE status = 'open';
CREATE INDEX lessons_by_use ON lessons (status, used_at);
CREATE INDEX lessons_keep_until ON lessons (keep_until) WHERE keep_until IS NOT NULL;

CREATE TABLE lesson_seats (
    lesson_id INTEGER NOT NULL REFERENCES lessons (id) ON DELETE CASCADE,
    id        TEXT    NOT NULL,
    name      TEXT    NOT NULL,              -- the nickname the pupil typed
    device    TEXT    NOT NULL,              -- SHA-256 of the device's cookie, never the cookie
    joined    INTEGER NOT NULL CHECK (joined >= 1),
    game_id   TEXT,                          -- the game it plays (or last played)
    met       TEXT    NOT NULL CHECK (json_valid(met) AND json_type(met) = 'array'),
    removed   INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
    PRIMARY KEY (lesson_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE lesson_games (
    lesson_id  INTEGER NOT NULL REFERENCES lessons (id) ON DELETE CASCADE,
    id         TEXT    NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    settings   TEXT    NOT NULL CHECK (json_valid(settings)),
    seed       INTEGER NOT NULL,
    names      TEXT    NOT NULL CHECK (json_valid(names) AND json_type(names) = 'array'),
    seats      TEXT    NOT NULL CHECK (json_valid(seats) AND json_type(seats) = 'array'),
    clocks     TEXT    NOT NULL CHECK (json_valid(clocks)),  -- deadlines, wall-clock ms
    over       INTEGER NOT NULL DEFAULT 0 CHECK (over IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (lesson_id, id),
    UNIQUE (lesson_id, number)
) STRICT, WITHOUT ROWID;

-- The primary key turns an action stored twice into a clean conflict.
CREATE TABLE lesson_actions (
    lesson_id  INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    seat_id    TEXT,                         -- who pressed; NULL: the computer, a clock
    created_at INTEGER NOT NULL,
    PRIMARY KEY (lesson_id, game_id, seq),
    FOREIGN KEY (lesson_id, game_id) REFERENCES lesson_games (lesson_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
