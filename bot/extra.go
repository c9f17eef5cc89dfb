package bot

// extraSubcommands are the statistics and settings subcommands.
func extraSubcommands() []subcommand { return nil }
