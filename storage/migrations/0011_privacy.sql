-- Data follows the school (PRIVACY.md): the servers the bot was removed from, and the deletions
-- a restored backup must apply again.

-- A server the bot was removed from (or that was deleted), and when: everything stored for it
-- is deleted LEFT_SERVER_DAYS later, unless the bot is added back first (the row goes then).
CREATE TABLE departed_guilds (
    guild_id INTEGER PRIMARY KEY,
    left_at  INTEGER NOT NULL
) STRICT;

-- Every forget-me (kind 'user'; 'member': a pupil in one server only) and forgotten server, as a
-- keyed one-way fingerprint of its id (never the id: forget-me leaves the pupil's id nowhere)
-- and its time. A restored backup applies again the
-- ones recorded after it was taken: the fingerprints of the ids it holds are compared.
CREATE TABLE forgotten (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('user', 'member', 'guild')),
    fingerprint TEXT    NOT NULL,
    at          INTEGER NOT NULL
) STRICT;

-- The fingerprints' key: random, made once, and carried by every backup of this database.
CREATE TABLE privacy_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB    NOT NULL CHECK (length(key) = 32)
) STRICT;
INSERT INTO privacy_key (id, key) VALUES (1, randomblob(32));
