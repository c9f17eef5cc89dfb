-- Statistics: one result row per seat of a finished game, and per-player
-- aggregates kept up to date in the transaction that finishes the game, so
-- that the all-time leaderboard reads a few hundred rows, not every result.

CREATE TABLE results (
	game_id       INTEGER NOT NULL REFERENCES games (id),
	color         TEXT    NOT NULL,
	guild_id      TEXT    NOT NULL,
	player        TEXT    NOT NULL,   -- Discord user ID, or 'ai:LEVEL'
	name          TEXT    NOT NULL DEFAULT '',
	is_computer   INTEGER NOT NULL,
	won           INTEGER NOT NULL,
	forfeit       INTEGER NOT NULL,   -- won because everyone else left
	captures      INTEGER NOT NULL,   -- made
	captured      INTEGER NOT NULL,   -- suffered
	barricades    INTEGER NOT NULL,   -- moved
	turns         INTEGER NOT NULL,   -- turns this seat played
	game_turns    INTEGER NOT NULL,   -- length of the game in turns
	finished_at   INTEGER NOT NULL,
	rating_before REAL    NOT NULL,
	rating_after  REAL    NOT NULL,
	PRIMARY KEY (game_id, color)
) WITHOUT ROWID;

-- Leaderboard over a period: covers the aggregation, no table lookups.
CREATE INDEX results_period ON results (guild_id, finished_at, player, won, captures, barricades);

-- One player's games in order: rating history.
CREATE INDEX results_player ON results (guild_id, player, finished_at);

CREATE TABLE players (
	guild_id    TEXT    NOT NULL,
	player      TEXT    NOT NULL,
	name        TEXT    NOT NULL DEFAULT '',  -- as of the last game
	is_computer INTEGER NOT NULL,
	rating      REAL    NOT NULL,
	games       INTEGER NOT NULL,
	wins        INTEGER NOT NULL,
	captures    INTEGER NOT NULL,
	captured    INTEGER NOT NULL,
	barricades  INTEGER NOT NULL,
	win_turns   INTEGER NOT NULL,             -- sum of own turns over won games
	fastest_win INTEGER,                      -- fewest own turns to a win
	streak      INTEGER NOT NULL,             -- > 0 wins in a row, < 0 losses
	last_played INTEGER NOT NULL,
	PRIMARY KEY (guild_id, player)
) WITHOUT ROWID;

CREATE INDEX players_rank ON players (guild_id, rating DESC, wins DESC, player);

CREATE TABLE player_colors (
	guild_id TEXT    NOT NULL,
	player   TEXT    NOT NULL,
	color    TEXT    NOT NULL,
	games    INTEGER NOT NULL,
	PRIMARY KEY (guild_id, player, color)
) WITHOUT ROWID;
