-- The user's Discord locale: as migrations/sqlite/0015_user_locale.sql.

ALTER TABLE user_settings ADD COLUMN locale TEXT NOT NULL DEFAULT '';
