-- Claims of due timers: as migrations/sqlite/0009_timer_claims.sql, in
-- PostgreSQL's types.

ALTER TABLE games ADD COLUMN timer_owner TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN timer_until BIGINT;
