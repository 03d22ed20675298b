-- Challenges (named players must accept) and lobbies (anyone may join) before a game starts,
-- kept so their buttons still work after a restart. One table, so their ids never collide.
-- *_at columns are epoch milliseconds.

CREATE TABLE invitations (
    id         INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('challenge', 'lobby')),
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    host_id    INTEGER NOT NULL,
    options    TEXT    NOT NULL CHECK (json_valid(options)),
    status     TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'started', 'declined', 'withdrawn', 'cancelled',
                                 'expired')),
    game_id    INTEGER REFERENCES games (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

CREATE INDEX invitations_open_by_host ON invitations (host_id) WHERE status = 'open';
CREATE INDEX invitations_open_by_expiry ON invitations (expires_at) WHERE status = 'open';

CREATE TABLE invitation_members (
    invitation_id INTEGER NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    state         TEXT    NOT NULL CHECK (state IN ('invited', 'accepted', 'declined', 'joined')),
    PRIMARY KEY (invitation_id, user_id)
) STRICT, WITHOUT ROWID;

-- "Open challenges and lobbies this user is in": by member, then filtered on status.
CREATE INDEX invitation_members_by_user ON invitation_members (user_id, invitation_id);
