-- Discord's global rate limit shared by the replicas: as
-- migrations/sqlite/0014_rate_budgets.sql, in PostgreSQL's types.

CREATE TABLE rate_budgets (
	key        TEXT             PRIMARY KEY,
	tokens     DOUBLE PRECISION NOT NULL,
	granted    INTEGER          NOT NULL DEFAULT 0,
	updated_at BIGINT           NOT NULL
);
