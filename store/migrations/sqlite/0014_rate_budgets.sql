-- Discord's global rate limit shared by the replicas of one bot token
-- (issue 30): a token bucket per token, refilled and taken from in one
-- UPDATE (store/budget.go). Only PostgreSQL uses it: one SQLite process
-- keeps its bucket in memory; the table is here to keep the schemas
-- parallel.

CREATE TABLE rate_budgets (
	key        TEXT    PRIMARY KEY, -- SHA-256 of the bot token, hex
	tokens     REAL    NOT NULL,    -- requests left at updated_at
	granted    INTEGER NOT NULL DEFAULT 0, -- the last grant's requests
	updated_at INTEGER NOT NULL     -- the database's clock, unix µs
);
