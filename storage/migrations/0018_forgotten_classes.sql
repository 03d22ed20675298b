-- The lessons' deletions are remembered as the bot's forgets are, so that a backup of the
-- lessons restored later deletes them again: a class deleted ('class'), a pupil of a class
-- forgotten ('pupil'), a lesson deleted ('lesson'), each as a keyed fingerprint of its id and
-- the time it was made (storage/fingerprints.py). SQLite cannot change a CHECK: the table is
-- made again with the wider one, its rows and their order kept.
CREATE TABLE forgotten_new (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL
                CHECK (kind IN ('user', 'member', 'guild', 'class', 'pupil', 'lesson')),
    fingerprint TEXT    NOT NULL,
    at          INTEGER NOT NULL
) STRICT;

INSERT INTO forgotten_new (id, kind, fingerprint, at)
    SELECT id, kind, fingerprint, at FROM forgotten;

DROP TABLE forgotten;

ALTER TABLE forgotten_new RENAME TO forgotten;
