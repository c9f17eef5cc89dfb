-- Per-guild settings; a guild without a row uses the defaults in Go.

CREATE TABLE guild_settings (
	guild_id     TEXT    PRIMARY KEY,
	turn_timeout INTEGER NOT NULL CHECK (turn_timeout > 0),  -- milliseconds
	reminders    INTEGER NOT NULL
) WITHOUT ROWID;
