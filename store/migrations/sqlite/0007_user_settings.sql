-- Per-user settings (issue 14): direct messages on your turn and at the end
-- of your games, and whether Discord refused the last one (the user is told
-- the next time they act). A user without a row has them off.

CREATE TABLE user_settings (
	user_id    TEXT    PRIMARY KEY,
	dm         INTEGER NOT NULL DEFAULT 0,
	dm_refused INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
