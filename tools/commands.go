package tools

import "github.com/malefiz-discord/malefiz/subcommand"

// The tools, as subcommands of the malefiz command.
var (
	// Moves prints the legal moves of a position for a roll.
	Moves = subcommand.Command{Summary: "print the legal moves of a position for a roll",
		Synopsis: "malefiz moves -roll N [-six-again] [-safe-row-2] POSITION", Run: movesCommand}
	// Perft counts the move sequences from a position.
	Perft = subcommand.Command{Summary: "count move sequences from a position (docs/rules.md's perft)",
		Synopsis: "malefiz perft [-depth N] [-divide] POSITION", Run: perftCommand}
	// Render writes a PNG of a position.
	Render = subcommand.Command{Summary: "write a PNG of a position",
		Synopsis: "malefiz render [-roll N] [-six-again] [-safe-row-2] [-size PX] -o FILE POSITION", Run: renderCommand}
	// Selfplay plays computer players against each other.
	Selfplay = subcommand.Command{Summary: "play computer players against each other and report win rates",
		Synopsis: "malefiz selfplay -players LEVEL,LEVEL[,...] [-games N] [-first I] [-seed S] [-duplicate] [-master FILE] [-six-again] [-safe-row-2] [-json] [-q]",
		Run:      selfplayCommand}
	// Train trains the win-chance estimator.
	Train = subcommand.Command{Summary: "train the win-chance estimator on self-play games and measure it",
		Synopsis: "malefiz train [-games N] [-seed S] [-levels L,L,...] [-unusual N] [-out FILE] [-calibrate N] [-calibrate-seed S] [-calibrate-levels L,L,...] [-rollouts N] [-rollout-every N] [-cache DIR] [-resamples N] [-chances-only] [-embedded] [-q]", Run: trainCommand}
	// TDTrain learns master's evaluation.
	TDTrain = subcommand.Command{Summary: "learn master's evaluation by temporal-difference learning over self-play games",
		Synopsis: "malefiz tdtrain [-games N] [-seed S] [-alpha A] [-lambda L] [-players N,N,...] [-checkpoint FILE] [-every N] [-snapshots DIR] [-measure N] [-out FILE] [-nn] [-decay D] [-average N] [-explore P] [-scale-games N] [-from FILE]",
		Run:      tdtrainCommand}
	// Chances prints each seat's chance to win from a position, as the
	// card shows it and as the coach's search finds it.
	Chances = subcommand.Command{Summary: "print each seat's chance to win from a position, as the turn card shows it and as the coach's search finds it",
		Synopsis: "malefiz chances [-json] [-six-again] [-safe-row-2] POSITION", Run: chancesCommand}
	// Heldout generates the held-out positions of the win-chance estimator.
	Heldout = subcommand.Command{Summary: "generate the held-out positions of the win-chance estimator with their rollout truth",
		Synopsis: "malefiz heldout [-seed S] [-n N] [-rollouts N] [-policy P] [-o FILE] [-check LEVEL] [-check-positions N] [-check-rollouts N] [-q] [-from FILE]",
		Run:      heldoutCommand}
	// Backup copies the live database into a SQLite file.
	Backup = subcommand.Command{Summary: "copy the live database safely into a SQLite file",
		Synopsis: "malefiz backup -o FILE [-db FILE|URL] [-config FILE]", Run: backupCommand}
	// MigrateTo copies a SQLite database into an empty PostgreSQL one.
	MigrateTo = subcommand.Command{Summary: "copy a SQLite database into an empty PostgreSQL database, and check",
		Synopsis: "malefiz migrate-to [-db FILE] URL", Run: migrateToCommand}
	// Replay writes an animated GIF of a stored game.
	Replay = subcommand.Command{Summary: "write an animated GIF of a stored game",
		Synopsis: "malefiz replay [-o FILE] [-width PX] [-db FILE] [-config FILE] GAME\n       malefiz replay [-o FILE] [-width PX] DATABASE GAME",
		Run:      replayCommand}
	// Analyse prints a stored game's turning points.
	Analyse = subcommand.Command{Summary: "print a stored game's turning points; -o writes the chart of the chances",
		Synopsis: "malefiz analyse [-o FILE] [-db FILE] [-config FILE] GAME\n       malefiz analyse [-o FILE] DATABASE GAME",
		Run:      analyseCommand}
)
