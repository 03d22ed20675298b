-- A class that remembers: a class of the lesson's (`mattekrig class --class 7B`), its roster of
-- pupils (a first name or a pseudonym, each with a personal join card), and each pupil's
-- results round by round, kept across lessons for the teacher's progress pages.
-- All *_at columns are milliseconds since the Unix epoch, supplied by the caller.
--
-- What is kept of a pupil is the name the teacher typed and, per round answered, the level,
-- whether it was a best move and the kind of mistake (never the typed text). Rounds are kept
-- apart from the lesson they were played in (a lesson's own data goes after its retention);
-- they go after the class's retention (`keep_days`; NULL: to the end of the school year).

CREATE TABLE classes (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,            -- "7B", as the teacher names it
    owner      TEXT,                        -- a school server's teacher; NULL on a laptop
    keep_days  INTEGER CHECK (keep_days IS NULL OR keep_days >= 0),
    created_at INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX classes_by_name ON classes (coalesce(owner, ''), name);

CREATE TABLE class_pupils (
    id         INTEGER PRIMARY KEY,
    class_id   INTEGER NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,            -- a first name or a pseudonym
    card       TEXT    NOT NULL,            -- the personal code on the pupil's join card
    created_at INTEGER NOT NULL
) STRICT;

-- A card opens one pupil's seat; a replaced card's code is gone with it.
CREATE UNIQUE INDEX class_pupils_card ON class_pupils (card);
CREATE UNIQUE INDEX class_pupils_name ON class_pupils (class_id, name);

-- One row per round a pupil was asked (an answer or a miss).
CREATE TABLE class_rounds (
    class_id  INTEGER NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    pupil_id  INTEGER NOT NULL REFERENCES class_pupils (id) ON DELETE CASCADE,
    lesson_id INTEGER NOT NULL,             -- no reference: the lesson goes before its rounds
    lesson_at INTEGER NOT NULL,             -- when that lesson began
    game_id   TEXT    NOT NULL,
    seq       INTEGER NOT NULL,             -- the answer's place among the game's answers
    at        INTEGER NOT NULL,
    level     INTEGER NOT NULL CHECK (level BETWEEN 1 AND 7),
    answered  INTEGER NOT NULL CHECK (answered IN (0, 1)),
    best      INTEGER NOT NULL CHECK (best IN (0, 1)),
    kind      TEXT,                         -- the mistake's kind; NULL: no mistake
    PRIMARY KEY (pupil_id, lesson_id, game_id, seq)
) STRICT, WITHOUT ROWID;

CREATE INDEX class_rounds_by_class ON class_rounds (class_id, lesson_at);

-- Practice notes (a rounded decimal, a fraction not simplified): refused answers, counted.
CREATE TABLE class_notes (
    class_id  INTEGER NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    pupil_id  INTEGER NOT NULL REFERENCES class_pupils (id) ON DELETE CASCADE,
    lesson_id INTEGER NOT NULL,
    lesson_at INTEGER NOT NULL,
    game_id   TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    n         INTEGER NOT NULL CHECK (n >= 0),
    at        INTEGER NOT NULL,
    PRIMARY KEY (pupil_id, lesson_id, game_id, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX class_notes_by_class ON class_notes (class_id, lesson_at);
