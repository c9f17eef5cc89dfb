// Package sandbox serves a web page that shows a fake Discord server the
// way Discord's dark theme does: the channel list (threads under their
// channel), the bot's messages with embeds, images, buttons and select
// menus, updated live over server-sent events, private replies marked
// "Only you can see this", and a box for the bot's registered slash
// commands. One person plays as any of the sandbox's users (a switcher at
// the bottom left) and can move the sandbox clock ahead to see timeouts.
//
// The page talks to the bot only through a *fakediscord.Fake: a command
// typed in the box becomes Fake.SlashCommand, a click Fake.Click. The
// caller runs the real bot against that fake and gives the sandbox a Clock
// (the bot's Now) and a function that runs the bot's due timers after a
// skip:
//
//	clock := sandbox.NewClock(time.Now)
//	srv, err := sandbox.New(sandbox.Config{Fake: fake, Users: sandbox.Users("Alice", "Bob"),
//		Clock: clock, Tick: runTimers})
//	http.ListenAndServe("127.0.0.1:8080", srv)
//
// The page is plain HTML, CSS and JavaScript embedded in the binary; it
// needs no build step and loads nothing from the network.
package sandbox
