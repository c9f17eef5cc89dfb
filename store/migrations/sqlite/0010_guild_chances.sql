-- Servers choose whether the scoreboard card shows each seat's chance to
-- win (issue 20); on unless turned off.

ALTER TABLE guild_settings ADD COLUMN chances INTEGER NOT NULL DEFAULT 1;
