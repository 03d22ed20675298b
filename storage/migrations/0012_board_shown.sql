-- What each game's board shows: the seq of the next action when it was last written to
-- Discord (written a moment after the board, a batch at a time). After a crash, a live game
-- whose log is ahead of it has its board redrawn before the bot takes a press again. NULL:
-- not known (games from before this migration), redrawn too.
ALTER TABLE games ADD COLUMN shown_seq INTEGER;
