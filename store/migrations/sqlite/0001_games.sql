-- Games, their seats and the append-only event log.
-- Times are Unix milliseconds (UTC); NULL means "none".

CREATE TABLE games (
	id               INTEGER PRIMARY KEY,
	guild_id         TEXT    NOT NULL,
	channel_id       TEXT    NOT NULL,
	host_id          TEXT    NOT NULL DEFAULT '',
	status           TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
	options          TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
	state            BLOB,                -- the engine's serialization, opaque here
	version          INTEGER NOT NULL CHECK (version >= 1),
	last_seq         INTEGER NOT NULL DEFAULT 0,  -- seq of the newest event
	lobby_message_id TEXT    NOT NULL DEFAULT '',
	turn_message_id  TEXT    NOT NULL DEFAULT '',
	locale           TEXT    NOT NULL DEFAULT '',
	deadline         INTEGER,             -- the current turn's deadline
	remind_at        INTEGER,             -- when the reminder is due
	reminder_sent    INTEGER NOT NULL DEFAULT 0,
	wake_at          INTEGER,             -- earliest pending timer of any kind
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL,
	finished_at      INTEGER              -- when it finished or was cancelled
);

-- One open game per channel.
CREATE UNIQUE INDEX games_open_channel ON games (guild_id, channel_id)
	WHERE status IN ('lobby', 'running');

-- The scheduler's range scan: games whose next timer is due.
CREATE INDEX games_wake ON games (wake_at) WHERE wake_at IS NOT NULL;

-- A guild's history list, newest first.
CREATE INDEX games_guild_finished ON games (guild_id, finished_at) WHERE status = 'finished';

CREATE TABLE seats (
	game_id  INTEGER NOT NULL REFERENCES games (id),
	seat     INTEGER NOT NULL CHECK (seat >= 0),  -- joining order
	color    TEXT    NOT NULL,
	user_id  TEXT    NOT NULL DEFAULT '',
	name     TEXT    NOT NULL DEFAULT '',
	computer TEXT    NOT NULL DEFAULT '',         -- '' for a human, else the level
	timeouts INTEGER NOT NULL DEFAULT 0,          -- consecutive
	has_left INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, color)
) WITHOUT ROWID;

CREATE TABLE events (
	game_id INTEGER NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 1),
	at      INTEGER NOT NULL,
	kind    TEXT    NOT NULL,
	user_id TEXT    NOT NULL DEFAULT '',
	color   TEXT    NOT NULL DEFAULT '',
	data    TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- The log is append-only and numbered 1, 2, 3, … without gaps.
CREATE TRIGGER events_in_order BEFORE INSERT ON events
	WHEN NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = NEW.game_id)
BEGIN
	SELECT RAISE(ABORT, 'events: seq out of order');
END;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
	SELECT RAISE(ABORT, 'events: append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events: append-only');
END;
