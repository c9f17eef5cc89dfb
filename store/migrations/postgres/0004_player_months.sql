-- Per-player totals per calendar month (UTC), as migrations/sqlite.

CREATE TABLE player_months (
	guild_id   TEXT    NOT NULL,
	month      INTEGER NOT NULL,  -- year * 12 + month - 1
	player     TEXT    NOT NULL,
	games      INTEGER NOT NULL,
	wins       INTEGER NOT NULL,
	captures   INTEGER NOT NULL,
	barricades INTEGER NOT NULL,
	PRIMARY KEY (guild_id, month, player)
);

INSERT INTO player_months (guild_id, month, player, games, wins, captures, barricades)
SELECT guild_id,
	(extract(year FROM to_timestamp(finished_at / 1000.0) AT TIME ZONE 'UTC') * 12
		+ extract(month FROM to_timestamp(finished_at / 1000.0) AT TIME ZONE 'UTC') - 1)::integer,
	player, count(*), sum(CASE WHEN won THEN 1 ELSE 0 END), sum(captures), sum(barricades)
FROM results
GROUP BY 1, 2, 3;
