-- Per-player totals per calendar month (UTC), so that a leaderboard over a
-- long period adds up months, not every result; only the part of the period
-- before its first whole month reads results. Backfilled from results.

CREATE TABLE player_months (
	guild_id   TEXT    NOT NULL,
	month      INTEGER NOT NULL,  -- year * 12 + month - 1
	player     TEXT    NOT NULL,
	games      INTEGER NOT NULL,
	wins       INTEGER NOT NULL,
	captures   INTEGER NOT NULL,
	barricades INTEGER NOT NULL,
	PRIMARY KEY (guild_id, month, player)
) WITHOUT ROWID;

INSERT INTO player_months (guild_id, month, player, games, wins, captures, barricades)
SELECT guild_id,
	CAST(strftime('%Y', finished_at / 1000, 'unixepoch') AS INTEGER) * 12
		+ CAST(strftime('%m', finished_at / 1000, 'unixepoch') AS INTEGER) - 1,
	player, count(*), sum(won), sum(captures), sum(barricades)
FROM results
GROUP BY 1, 2, 3;
