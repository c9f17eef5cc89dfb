-- A period's leaderboard reads each player's results of the period through
-- this index, player by player, instead of sorting all the period's results
-- by player: results_period gives way to it.

CREATE INDEX results_player_period ON results (guild_id, player, finished_at, won, captures, barricades);

DROP INDEX results_period;
