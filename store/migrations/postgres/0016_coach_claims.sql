-- The coach's claims: as migrations/sqlite/0016_coach_claims.sql.

ALTER TABLE coaching ADD COLUMN pending       BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE coaching ADD COLUMN finished      BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE coaching ADD COLUMN pending_since BIGINT;
ALTER TABLE coaching ADD COLUMN claim_owner   TEXT    NOT NULL DEFAULT '';
ALTER TABLE coaching ADD COLUMN claim_until   BIGINT  NOT NULL DEFAULT 0;
ALTER TABLE grades   ADD COLUMN skipped       BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX coaching_work ON coaching (final, finished DESC, pending_since);
