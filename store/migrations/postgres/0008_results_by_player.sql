-- SQLite reads a period's results player by player through a new index (see
-- migrations/sqlite/0006_results_by_player.sql). PostgreSQL groups them by
-- hash, straight from results_period (see leaderboardSource), which stays:
-- nothing changes here.
SELECT 1;
