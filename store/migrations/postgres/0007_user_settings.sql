-- Per-user settings: as migrations/sqlite/0007_user_settings.sql.

CREATE TABLE user_settings (
	user_id    TEXT    PRIMARY KEY,
	dm         BOOLEAN NOT NULL DEFAULT false,
	dm_refused BOOLEAN NOT NULL DEFAULT false
);
