-- PostgreSQL's twin of storage/migrations/0017_school_teachers.sql: a school server's
-- teachers, their one-time sign-in links and their sessions (tokens kept as SHA-256 only).

CREATE TABLE school_teachers (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL,
    oidc_issuer  TEXT,
    oidc_subject TEXT,
    created_at   BIGINT  NOT NULL,
    signed_in_at BIGINT,
    removed_at   BIGINT,
    CHECK ((oidc_issuer IS NULL) = (oidc_subject IS NULL))
);

CREATE UNIQUE INDEX school_teachers_name ON school_teachers (name) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX school_teachers_account ON school_teachers (oidc_issuer, oidc_subject)
    WHERE removed_at IS NULL AND oidc_subject IS NOT NULL;

CREATE TABLE school_links (
    token_hash TEXT    PRIMARY KEY,
    teacher_id TEXT    NOT NULL REFERENCES school_teachers (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    spent_at   BIGINT
);

CREATE INDEX school_links_by_teacher ON school_links (teacher_id);
CREATE INDEX school_links_expiry ON school_links (expires_at);

CREATE TABLE school_sessions (
    token_hash TEXT    PRIMARY KEY,
    teacher_id TEXT    NOT NULL REFERENCES school_teachers (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL
);

CREATE INDEX school_sessions_by_teacher ON school_sessions (teacher_id);
CREATE INDEX school_sessions_expiry ON school_sessions (expires_at);
