-- PostgreSQL's twin of storage/migrations/0012_board_shown.sql: the seq of the next
-- action when each game's board was last written to Discord (NULL: not known).
ALTER TABLE games ADD COLUMN shown_seq BIGINT;
