-- Quiet pings: as migrations/sqlite/0010_quiet_pings.sql.

ALTER TABLE seats ADD COLUMN acted_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE user_settings ADD COLUMN ping_always BOOLEAN NOT NULL DEFAULT false;
