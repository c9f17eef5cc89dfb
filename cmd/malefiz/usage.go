package main

import (
	"fmt"
	"io"
)

// usage prints the commands, for malefiz -h and malefiz help.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: malefiz [command] [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Malefiz for Discord: the bot, a local sandbox to try it, and tools around its rules.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-11s %s\n", name, commands[name].Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'malefiz COMMAND -h' for a command's flags. Try it without Discord:")
	fmt.Fprintln(w, "  malefiz sandbox     then open http://127.0.0.1:8080")
}
