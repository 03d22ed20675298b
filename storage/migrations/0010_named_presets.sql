-- The teacher's named presets ("brøk uke 12"), saved once and picked by name when a
-- class session opens or a channel's preset is set. No row names a pupil.

-- A named preset: the same start options and lock as class_presets, under a name. folded is the
-- name case-folded (one preset per name whatever its capitals); name is as the teacher wrote it.
CREATE TABLE named_presets (
    guild_id   INTEGER NOT NULL,
    folded     TEXT    NOT NULL,
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
    options    TEXT    NOT NULL CHECK (json_valid(options) AND json_type(options) = 'object'),
    locked     INTEGER NOT NULL CHECK (locked IN (0, 1)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, folded)
) STRICT, WITHOUT ROWID;

-- A class session opened with a named preset keeps a copy of it (name, options, locked as a
-- JSON object): every game started while it runs gets it, even if the preset is changed or
-- deleted meanwhile. NULL: the channel's preset, then the server's, as without a session.
ALTER TABLE class_sessions ADD COLUMN preset TEXT
    CHECK (preset IS NULL OR (json_valid(preset) AND json_type(preset) = 'object'));
