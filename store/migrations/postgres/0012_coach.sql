-- The coach: as migrations/sqlite/0012_coach.sql, in PostgreSQL's types.

CREATE TABLE grades (
	game_id BIGINT  NOT NULL REFERENCES games (id),
	idx     INTEGER NOT NULL,
	color   TEXT    NOT NULL,
	turn    INTEGER NOT NULL,
	roll    INTEGER NOT NULL,
	move    TEXT    NOT NULL,
	best    TEXT    NOT NULL,
	options INTEGER NOT NULL,
	loss    DOUBLE PRECISION NOT NULL,
	chance  DOUBLE PRECISION NOT NULL,
	luck    DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (game_id, idx)
);

CREATE TABLE coaching (
	game_id BIGINT  PRIMARY KEY REFERENCES games (id),
	final   BOOLEAN NOT NULL DEFAULT false
);


ALTER TABLE results ADD COLUMN accuracy DOUBLE PRECISION;
ALTER TABLE guild_settings ADD COLUMN hints BOOLEAN NOT NULL DEFAULT false;
