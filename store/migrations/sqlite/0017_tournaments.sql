-- Server tournaments (issue 40): a tournament of a channel, its entrants,
-- its rounds and their tables, each table's entrants in seat order and the
-- game opened for it. A tournament game carries its tournament, round and
-- table, so that a finished game can be traced back; a table's game is set
-- once, when the game is created. A result keeps its seat's place at the
-- end (1 the winner, then by distance to the goal), which a tournament
-- scores by. wake_at is when the tournament next needs its round opener
-- (the start time, tables to open, a round over or past its deadline),
-- kept by the store; replicas claim a due tournament as they claim a due
-- game. The outbox holds a tournament's effects (its card) beside the
-- games': a row is a game's or a tournament's.

CREATE TABLE tournaments (
	id            INTEGER PRIMARY KEY,
	guild_id      TEXT    NOT NULL,
	channel_id    TEXT    NOT NULL,
	host_id       TEXT    NOT NULL DEFAULT '',
	name          TEXT    NOT NULL,
	status        TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
	format        TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'knockout')),
	table_size    INTEGER NOT NULL CHECK (table_size BETWEEN 2 AND 4),
	rounds        INTEGER NOT NULL CHECK (rounds >= 0),  -- 0: as many as the format needs
	turn_timeout  INTEGER NOT NULL,                      -- ms; 0: the guild's
	start_at      INTEGER,                               -- NULL: the host starts it
	rated         INTEGER NOT NULL,
	rules         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),  -- house rules
	computers     INTEGER NOT NULL,
	forfeit_limit INTEGER NOT NULL CHECK (forfeit_limit >= 0),  -- 0: never withdrawn
	max_entrants  INTEGER NOT NULL CHECK (max_entrants >= 2),
	locale        TEXT    NOT NULL DEFAULT '',
	message_id    TEXT    NOT NULL DEFAULT '',  -- the card: sign-up, then standings
	version       INTEGER NOT NULL CHECK (version >= 1),
	wake_at       INTEGER,                      -- due for the round opener; NULL: never
	claim_owner   TEXT    NOT NULL DEFAULT '',
	claim_until   INTEGER,
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	finished_at   INTEGER
);

-- The open tournaments of a channel or guild; the round opener's scan.
CREATE INDEX tournaments_open ON tournaments (guild_id, channel_id) WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_wake ON tournaments (wake_at) WHERE wake_at IS NOT NULL;

CREATE TABLE tournament_entrants (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	user_id       TEXT    NOT NULL,             -- or a computer's ID
	name          TEXT    NOT NULL DEFAULT '',
	computer      TEXT    NOT NULL DEFAULT '',  -- '' for a person, else the level
	rating        REAL    NOT NULL,             -- at sign-up
	joined        INTEGER NOT NULL CHECK (joined >= 1),  -- sign-up order
	joined_at     INTEGER NOT NULL,
	withdrawn     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament_id, user_id),
	UNIQUE (tournament_id, joined)
) WITHOUT ROWID;

CREATE TABLE tournament_rounds (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	round         INTEGER NOT NULL CHECK (round >= 1),
	opened_at     INTEGER NOT NULL,
	deadline      INTEGER,  -- NULL: none
	finished_at   INTEGER,  -- NULL while played
	PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;

CREATE TABLE tournament_tables (
	tournament_id INTEGER NOT NULL,
	round         INTEGER NOT NULL,
	tbl           INTEGER NOT NULL CHECK (tbl >= 1),
	game_id       INTEGER REFERENCES games (id),  -- NULL until opened, and for a bye
	PRIMARY KEY (tournament_id, round, tbl),
	FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
) WITHOUT ROWID;

-- A game plays one table.
CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables (game_id) WHERE game_id IS NOT NULL;

CREATE TABLE tournament_seats (
	tournament_id INTEGER NOT NULL,
	round         INTEGER NOT NULL,
	tbl           INTEGER NOT NULL,
	seat          INTEGER NOT NULL CHECK (seat >= 0),  -- the table's order
	user_id       TEXT    NOT NULL,
	PRIMARY KEY (tournament_id, round, tbl, seat),
	UNIQUE (tournament_id, round, user_id),  -- nobody at two tables of a round
	FOREIGN KEY (tournament_id, round, tbl) REFERENCES tournament_tables (tournament_id, round, tbl),
	FOREIGN KEY (tournament_id, user_id) REFERENCES tournament_entrants (tournament_id, user_id)
) WITHOUT ROWID;

ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN tournament_round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN tournament_table INTEGER NOT NULL DEFAULT 0;

ALTER TABLE results ADD COLUMN place INTEGER NOT NULL DEFAULT 0;  -- 0: not recorded

-- The outbox again, with a row either a game's or a tournament's (SQLite
-- cannot drop a NOT NULL: the table is made anew and its rows copied).
CREATE TABLE outbox_new (
	id            INTEGER PRIMARY KEY,
	game_id       INTEGER REFERENCES games (id),
	tournament_id INTEGER REFERENCES tournaments (id),
	queue         TEXT    NOT NULL DEFAULT '',
	kind          TEXT    NOT NULL,
	payload       BLOB    NOT NULL,
	created_at    INTEGER NOT NULL,
	next_at       INTEGER NOT NULL,
	attempts      INTEGER NOT NULL DEFAULT 0,
	lease_owner   TEXT    NOT NULL DEFAULT '',
	lease_until   INTEGER,
	claimed_at    INTEGER,
	done_at       INTEGER,
	failed        INTEGER NOT NULL DEFAULT 0,
	result        TEXT    NOT NULL DEFAULT '',
	CHECK ((game_id IS NULL) <> (tournament_id IS NULL))
);
INSERT INTO outbox_new (id, game_id, queue, kind, payload, created_at, next_at, attempts,
		lease_owner, lease_until, claimed_at, done_at, failed, result)
	SELECT id, game_id, queue, kind, payload, created_at, next_at, attempts,
		lease_owner, lease_until, claimed_at, done_at, failed, result
	FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;

CREATE INDEX outbox_pending ON outbox (game_id, queue, id) WHERE done_at IS NULL;
CREATE INDEX outbox_due ON outbox (next_at) WHERE done_at IS NULL;
CREATE INDEX outbox_queue_claims ON outbox (game_id, queue, claimed_at) WHERE queue <> '';
CREATE INDEX outbox_tournament_pending ON outbox (tournament_id, queue, id)
	WHERE done_at IS NULL AND tournament_id IS NOT NULL;
CREATE INDEX outbox_tournament_claims ON outbox (tournament_id, queue, claimed_at)
	WHERE queue <> '' AND tournament_id IS NOT NULL;
