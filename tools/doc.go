// Package tools is the malefiz command's offline tools, each a subcommand
// that reads its own flags: the rules (moves, perft), board pictures
// (render), computer players against each other (selfplay), the training
// of the win-chance estimator and of master's evaluation (train, tdtrain),
// and the tools around a stored database (backup, migrate-to, replay,
// analyse). None of them needs Discord.
package tools
