// Package fakediscord is a fake Discord for tests of a bot built on
// discordgo: an HTTP server on 127.0.0.1 that answers the REST routes such a
// bot uses and a gateway websocket that sends READY and the interactions a
// test asks for.
//
// The real *discordgo.Session talks to the fake: its Client gets a
// transport that sends discord.com requests to Fake.URL (see
// bot.NewAPITransport), and GET /api/v9/gateway answers with the fake's
// websocket URL.
//
//	fake := fakediscord.New(t)
//	// start the bot with token fake.Token() and api_url fake.URL()
//	resp, err := fake.SlashCommand(ctx, fakediscord.Invocation{User: "1", Name: "malefiz", Sub: "new"})
//	next, err := fake.Click(ctx, fakediscord.Invocation{User: "1", MessageID: resp.Message.ID, CustomID: "mf/join/1"})
//
// The fake records every REST call (Calls, WaitFor, Unexpected), keeps a
// model of the messages the bot created and edited (Message,
// ChannelMessages, LastMessage), can refuse the next requests the way
// Discord does (FailNext with RateLimited, UnknownMessage,
// MissingPermissions, ...) and checks what Discord checks: component and
// content limits, one callback per interaction within 3 seconds, the
// channel permissions of the bot (SetPermissions), privileged intents.
//
// Message edits follow Discord's rules: a field left out is kept,
// "content": null empties the content, "embeds": null removes the embeds,
// "components": null is ignored (send [] to remove buttons), and existing
// attachments are kept unless "attachments" lists the ones to keep; new
// files are added to them.
package fakediscord
