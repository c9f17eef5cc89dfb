-- The coach keeps up (issue 42): the games waiting for the coach are kept
-- here rather than in one process's memory, so that replicas share the
-- grading by claims as they share the outbox and the timers. A commit with
-- moves to grade marks its game pending (since when, and whether the game
-- is finished: finished games are graded first); a coach claims one game
-- at a time for a lease, grades it and lets it go. A game that waited past
-- the coach's bound has its waiting rolls marked skipped (not graded), so
-- that under overload the verdict says what the coach could not grade
-- rather than the coach falling hours behind. Rows from before keep their
-- place: pending, so that the first coach after the upgrade takes them up.

ALTER TABLE coaching ADD COLUMN pending       INTEGER NOT NULL DEFAULT 1;
ALTER TABLE coaching ADD COLUMN finished      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coaching ADD COLUMN pending_since INTEGER;  -- ms; NULL while nothing waits
ALTER TABLE coaching ADD COLUMN claim_owner   TEXT    NOT NULL DEFAULT '';
ALTER TABLE coaching ADD COLUMN claim_until   INTEGER NOT NULL DEFAULT 0;  -- ms; 0: not claimed
ALTER TABLE grades   ADD COLUMN skipped       INTEGER NOT NULL DEFAULT 0;

CREATE INDEX coaching_work ON coaching (final, finished DESC, pending_since);
