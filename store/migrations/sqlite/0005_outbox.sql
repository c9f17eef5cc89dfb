-- The outbox: what must reach Discord because of a change to a game, written
-- in the same transaction as the change and delivered after it, in order per
-- game. A row is pending until done_at is set (delivered, or given up with
-- failed = 1). A process claims a pending row by setting lease_owner and
-- lease_until; when the lease runs out without an answer, anyone may claim it
-- again.

CREATE TABLE outbox (
	id          INTEGER PRIMARY KEY,
	game_id     INTEGER NOT NULL REFERENCES games (id),
	kind        TEXT    NOT NULL,            -- what it does, for logs: post, edit, delete, ...
	payload     BLOB    NOT NULL,            -- the bot's description of the request, opaque here
	created_at  INTEGER NOT NULL,
	next_at     INTEGER NOT NULL,            -- not to be tried before
	attempts    INTEGER NOT NULL DEFAULT 0,
	lease_owner TEXT    NOT NULL DEFAULT '',
	lease_until INTEGER,                     -- claimed until; NULL when nobody holds it
	done_at     INTEGER,                     -- delivered or given up; NULL while pending
	failed      INTEGER NOT NULL DEFAULT 0,  -- given up: result says why
	result      TEXT    NOT NULL DEFAULT ''  -- what Discord answered, or the last error
);

-- The head of each game's queue, and the sender's scan of what is due.
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE done_at IS NULL;
CREATE INDEX outbox_due ON outbox (next_at) WHERE done_at IS NULL;
