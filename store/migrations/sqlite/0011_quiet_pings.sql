-- Quiet pings (issue 21): when each seat's player last acted in the game
-- (Unix milliseconds; 0 for never), so that a turn message for a player
-- who acted in the last minutes is sent @silent; and the users who want a
-- ping every turn all the same (/malefiz notify ping:always).

ALTER TABLE seats ADD COLUMN acted_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_settings ADD COLUMN ping_always INTEGER NOT NULL DEFAULT 0;
