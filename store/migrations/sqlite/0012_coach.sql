-- The coach (issue 32): every roll of a human player graded against the
-- best move for it (engine/ai's Grade), written by the background grader
-- after the move's commit; coaching says which games the grader has
-- begun and whether their grading is final (the report is in the
-- outbox then); a result's accuracy is its player's, NULL for a computer
-- or a game not graded; servers choose whether players may ask for a hint.

CREATE TABLE grades (
	game_id INTEGER NOT NULL REFERENCES games (id),
	idx     INTEGER NOT NULL,  -- the roll's record in the game's history
	color   TEXT    NOT NULL,
	turn    INTEGER NOT NULL,
	roll    INTEGER NOT NULL,
	move    TEXT    NOT NULL,  -- '' for a pass
	best    TEXT    NOT NULL,
	options INTEGER NOT NULL,  -- distinct outcomes; graded when > 1
	loss    REAL    NOT NULL,  -- points of win chance
	chance  REAL    NOT NULL,
	luck    REAL    NOT NULL,
	PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE coaching (
	game_id INTEGER PRIMARY KEY REFERENCES games (id),
	final   INTEGER NOT NULL DEFAULT 0
);


ALTER TABLE results ADD COLUMN accuracy REAL;
ALTER TABLE guild_settings ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
