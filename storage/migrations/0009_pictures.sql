-- A server may turn the board's card pictures off: boards are then text only, no
-- picture drawn or attached. On by default, as before this migration.
ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));
