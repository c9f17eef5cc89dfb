-- Games played in a thread of their own (issue 14): a lobby created with
-- threads on (threaded = 1) shares its channel with other games; the thread
-- started from its lobby message, once made, is thread_id. The reminder's
-- message is kept so that it can be removed once its turn is played. Servers
-- choose whether games get threads and how the die is rolled.

ALTER TABLE games ADD COLUMN threaded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN thread_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN reminder_message_id TEXT NOT NULL DEFAULT '';

-- One open game per channel, among the games that play in the channel.
DROP INDEX games_open_channel;
CREATE UNIQUE INDEX games_open_channel ON games (guild_id, channel_id)
	WHERE status IN ('lobby', 'running') AND threaded = 0;

-- The open games of a channel or of a thread.
CREATE INDEX games_open_place ON games (guild_id, channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id <> '';

ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN roll TEXT NOT NULL DEFAULT 'auto';
