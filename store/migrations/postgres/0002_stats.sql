-- Statistics: as migrations/sqlite, in PostgreSQL's types. Counts are
-- INTEGER, so that their sums are BIGINT (a sum of BIGINT is NUMERIC).

CREATE TABLE results (
	game_id       BIGINT  NOT NULL REFERENCES games (id),
	color         TEXT    NOT NULL,
	guild_id      TEXT    NOT NULL,
	player        TEXT    NOT NULL,   -- Discord user ID, or 'ai:LEVEL'
	name          TEXT    NOT NULL DEFAULT '',
	is_computer   BOOLEAN NOT NULL,
	won           BOOLEAN NOT NULL,
	forfeit       BOOLEAN NOT NULL,   -- won because everyone else left
	captures      INTEGER NOT NULL,   -- made
	captured      INTEGER NOT NULL,   -- suffered
	barricades    INTEGER NOT NULL,   -- moved
	turns         INTEGER NOT NULL,   -- turns this seat played
	game_turns    INTEGER NOT NULL,   -- length of the game in turns
	finished_at   BIGINT  NOT NULL,
	rating_before DOUBLE PRECISION NOT NULL,
	rating_after  DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (game_id, color)
);

-- Leaderboard over a period: covers the aggregation (an index-only scan).
CREATE INDEX results_period ON results (guild_id, finished_at, player, won, captures, barricades);

-- One player's games in order: rating history.
CREATE INDEX results_player ON results (guild_id, player, finished_at, game_id);

CREATE TABLE players (
	guild_id    TEXT    NOT NULL,
	player      TEXT    NOT NULL,
	name        TEXT    NOT NULL DEFAULT '',  -- as of the last game
	is_computer BOOLEAN NOT NULL,
	rating      DOUBLE PRECISION NOT NULL,
	games       INTEGER NOT NULL,
	wins        INTEGER NOT NULL,
	captures    INTEGER NOT NULL,
	captured    INTEGER NOT NULL,
	barricades  INTEGER NOT NULL,
	win_turns   INTEGER NOT NULL,             -- sum of own turns over won games
	fastest_win INTEGER,                      -- fewest own turns to a win
	streak      INTEGER NOT NULL,             -- > 0 wins in a row, < 0 losses
	last_played BIGINT  NOT NULL,
	PRIMARY KEY (guild_id, player)
);

CREATE INDEX players_rank ON players (guild_id, rating DESC, wins DESC, player);

CREATE TABLE player_colors (
	guild_id TEXT    NOT NULL,
	player   TEXT    NOT NULL,
	color    TEXT    NOT NULL,
	games    INTEGER NOT NULL,
	PRIMARY KEY (guild_id, player, color)
);
