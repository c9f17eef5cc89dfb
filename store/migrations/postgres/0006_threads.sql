-- Games played in a thread of their own: as migrations/sqlite/0006_threads.sql,
-- in PostgreSQL's types.

ALTER TABLE games ADD COLUMN threaded BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN thread_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN reminder_message_id TEXT NOT NULL DEFAULT '';

-- One open game per channel, among the games that play in the channel.
DROP INDEX games_open_channel;
CREATE UNIQUE INDEX games_open_channel ON games (guild_id, channel_id)
	WHERE status IN ('lobby', 'running') AND NOT threaded;

-- The open games of a channel or of a thread.
CREATE INDEX games_open_place ON games (guild_id, channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id <> '';

ALTER TABLE guild_settings ADD COLUMN threads BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE guild_settings ADD COLUMN roll TEXT NOT NULL DEFAULT 'auto';
