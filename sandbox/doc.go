// Package sandbox serves a web page that shows a fake Discord server the
// way Discord's dark theme does: the channel list (threads under their
// channel), the bot's messages with embeds, images, buttons and select
// menus, updated live over server-sent events, private replies marked
// "Only you can see this", and a box for the bot's registered slash
// commands. One person plays as any of the sandbox's users (a switcher at
// the bottom left) and can move the sandbox clock ahead to see timeouts.
// Each user has a Discord language and the server its own (menus under the
// user and under the server's name, POST /api/locale): the interactions
// carry them as locale and guild_locale, the command box names the
// commands as Discord's client does in the user's language, and timestamps
// are written in it; a user marked Admin has Manage Server in the
// interactions' member permissions.
//
// A message with the flag IS_COMPONENTS_V2 is drawn from its layout
// components as Discord's client draws them: containers with their accent
// bar, sections beside a thumbnail or a button, text displays in Discord's
// markdown, media galleries, separators, files and action rows, and only
// the attachments a component references (attachment://NAME). The page
// reads Discord's JSON shape of the components, whatever the fake keeps
// of them. As in Discord's client, the buttons and menus of a message in
// an archived thread are disabled and a click on one is refused; an
// option outside the range its command registers is refused with the
// range. On a narrow screen (a phone, ~400 px) the channel list is a
// drawer opened with ☰.
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
