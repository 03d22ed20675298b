-- A pupil's practice notes on Discord (RULES §2.6): an answer refused as rounded
-- (`not_exact`) or as a fraction not simplified (`not_simplified`) is typed again and never a
-- mistake, but the teacher's summary and report name it. Only a count per game, pupil and
-- note: never the text typed. No foreign key to games: the move log goes after 30 days, the
-- notes stay with the game's result (deleted with it, with the server or with the pupil).
CREATE TABLE practice_notes (
    game_id  BIGINT  NOT NULL,
    guild_id BIGINT  NOT NULL,
    user_id  BIGINT  NOT NULL,
    code     TEXT    NOT NULL CHECK (code IN ('not_exact', 'not_simplified')),
    n        BIGINT  NOT NULL CHECK (n >= 1),
    PRIMARY KEY (game_id, user_id, code)
);

CREATE INDEX practice_notes_by_user ON practice_notes (user_id);
CREATE INDEX practice_notes_by_guild ON practice_notes (guild_id);
