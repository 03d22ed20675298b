-- The teachers of a school server (`mattekrig serve`) and how they sign in: a teacher is a
-- random opaque id (what `lessons.owner` and `classes.owner` hold) with the name the operator
-- gave, and once bound, the OpenID Connect issuer and subject of their account. A one-time
-- sign-in link and a signed-in browser's session are kept only as the SHA-256 of their token:
-- a copy of the database lets nobody in. Expired links and sessions are deleted.
-- All *_at columns are milliseconds since the Unix epoch, supplied by the caller.

CREATE TABLE school_teachers (
    id           TEXT    PRIMARY KEY,        -- random, opaque: lessons.owner, classes.owner
    name         TEXT    NOT NULL,           -- as the operator typed it
    oidc_issuer  TEXT,                       -- the provider the account is at, once bound
    oidc_subject TEXT,                       -- the account's opaque id there, once bound
    created_at   INTEGER NOT NULL,
    signed_in_at INTEGER,                    -- the last sign-in
    removed_at   INTEGER,                    -- removed: signs in no more; its lessons run out
    CHECK ((oidc_issuer IS NULL) = (oidc_subject IS NULL))
) STRICT;

-- A name, and an account, belong to one teacher at a time (a removed one's may be given anew).
CREATE UNIQUE INDEX school_teachers_name ON school_teachers (name) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX school_teachers_account ON school_teachers (oidc_issuer, oidc_subject)
    WHERE removed_at IS NULL AND oidc_subject IS NOT NULL;

CREATE TABLE school_links (
    token_hash TEXT    PRIMARY KEY,          -- SHA-256 of the link's token, never the token
    teacher_id TEXT    NOT NULL REFERENCES school_teachers (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    spent_at   INTEGER                       -- a link signs in once
) STRICT, WITHOUT ROWID;

CREATE INDEX school_links_by_teacher ON school_links (teacher_id);
CREATE INDEX school_links_expiry ON school_links (expires_at);

CREATE TABLE school_sessions (
    token_hash TEXT    PRIMARY KEY,          -- SHA-256 of the session cookie, never the cookie
    teacher_id TEXT    NOT NULL REFERENCES school_teachers (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX school_sessions_by_teacher ON school_sessions (teacher_id);
CREATE INDEX school_sessions_expiry ON school_sessions (expires_at);
