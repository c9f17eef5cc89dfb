-- Claims of due timers: the process that handles a game's due timer holds it
-- until timer_until, so that several processes on one database do not all
-- work on the same game (the version check would let one of them win anyway).

ALTER TABLE games ADD COLUMN timer_owner TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN timer_until INTEGER;
