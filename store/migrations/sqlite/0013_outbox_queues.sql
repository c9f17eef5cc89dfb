-- Queues of their own in a game's outbox (issue 30): an effect with a
-- queue ('card': the edits of the game's scoreboard card) is not delivered
-- in the game's main order (queue ''). A new one replaces those of its
-- game and queue not yet claimed (done, result 'superseded'); it waits for
-- the game's older main effects, never the reverse; two claims of one
-- (game, queue) are the DB's QueueGap apart, which claimed_at measures.

ALTER TABLE outbox ADD COLUMN queue TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN claimed_at INTEGER;  -- last claimed; NULL when never

-- The head of each (game, queue), the game's older main effects a queued
-- one waits for, and a queue's last claim.
DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (game_id, queue, id) WHERE done_at IS NULL;
CREATE INDEX outbox_queue_claims ON outbox (game_id, queue, claimed_at) WHERE queue <> '';
