-- Queues of their own in a game's outbox: as
-- migrations/sqlite/0013_outbox_queues.sql, in PostgreSQL's types.

ALTER TABLE outbox ADD COLUMN queue TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN claimed_at BIGINT;  -- last claimed; NULL when never

DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (game_id, queue, id) WHERE done_at IS NULL;
CREATE INDEX outbox_queue_claims ON outbox (game_id, queue, claimed_at) WHERE queue <> '';
