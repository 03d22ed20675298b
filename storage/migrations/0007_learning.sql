-- Every round teaches: the answer form, and a record of every answer.
-- The server's default answer form for new Regnekrig games (RULES §2.2), a teacher's setting.
ALTER TABLE guild_settings ADD COLUMN answer_form TEXT NOT NULL DEFAULT 'number'
    CHECK (answer_form IN ('number', 'expression'));

-- Per pupil, game and operation: the kinds of mistake (the engine's reason codes with their
-- counts, a JSON object) and every answer's time in ms (a JSON array, for the median).
ALTER TABLE result_operations ADD COLUMN mistakes TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(mistakes) AND json_type(mistakes) = 'object');
ALTER TABLE result_operations ADD COLUMN times TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(times) AND json_type(times) = 'array');
