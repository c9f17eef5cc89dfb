-- Each player in their own language (issue 39): the user's Discord locale
-- ("de", "pt-BR"), as their last interaction or the Activity's sign-in
-- gave it, so that their direct messages, written when no interaction of
-- theirs is at hand, are in their language; '' when not known yet (the
-- server's language then).

ALTER TABLE user_settings ADD COLUMN locale TEXT NOT NULL DEFAULT '';
