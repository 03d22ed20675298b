-- PostgreSQL's twin of storage/migrations/0006_fair_games.sql: a forfeit is a result like
-- any other ending by the rules (RULES §1.5), and a teacher may turn the bot's turn pings off.
-- PostgreSQL changes a CHECK in place (SQLite rebuilds the table).
ALTER TABLE results DROP CONSTRAINT results_reason_check;
ALTER TABLE results ADD CONSTRAINT results_reason_check
    CHECK (reason IN ('all_cards', 'time_up', 'max_rounds', 'stalemate', 'forfeit', 'stopped',
                      'abandoned'));

-- 1: the bot mentions the player a game waits for (only them, at most once per decision).
ALTER TABLE guild_settings ADD COLUMN pings BIGINT NOT NULL DEFAULT 1 CHECK (pings IN (0, 1));
