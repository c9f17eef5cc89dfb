-- Whether the card shows the chances to win: as
-- migrations/sqlite/0010_guild_chances.sql, in PostgreSQL's types.

ALTER TABLE guild_settings ADD COLUMN chances BOOLEAN NOT NULL DEFAULT true;
