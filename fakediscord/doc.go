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
// An interaction carries the invoking user's locale and permissions
// (Invocation.Locale, Invocation.Permissions) and the guild's locale as
// guild_locale, which SetGuildLocale changes.
//
// Message edits follow Discord's rules: a field left out is kept,
// "content": null empties the content, "embeds": null removes the embeds,
// "components": null is ignored (send [] to remove buttons), and existing
// attachments are kept unless "attachments" lists the ones to keep; new
// files are added to them. An "attachments" entry names a file of the
// request by its index (files[n]) or an attachment the message keeps, and
// may give its alt text ("description", at most 1,024 characters); one
// that names neither is refused with 400 code 50035, ATTACHMENT_NOT_FOUND,
// as Discord refuses it.
//
// A message created with a "nonce" and "enforce_nonce": true returns the
// message the bot already created in that channel with the same nonce
// within the nonce window (WithNonceWindow) instead of creating another;
// Message.NonceHits counts those repeats.
//
// # Discord's limits
//
// The fake enforces Discord's rate limits unless told otherwise
// (https://discord.com/developers/docs/topics/rate-limits; sizes in
// limits.go, DefaultLimits): a bucket per route and top-level resource
// (channel, guild, webhook and token), with X-RateLimit-Limit, -Remaining,
// -Reset, -Reset-After and -Bucket on every answer; past a bucket a 429 of
// scope user with Discord's body, before anything is done. The global limit
// of 50 requests per second counts every request with the bot token except
// on the interaction routes (the callback and /webhooks/{app}/{token}...),
// and answers a 429 with X-RateLimit-Global and scope global. 401, 403 and
// 429 answers (not of scope shared) count as invalid requests; 10,000 of
// them within 10 minutes ban the token for an hour, every request answered
// with Cloudflare's 429 page. Edits of messages older than an hour past a
// cap answer 400 code 30046, DM channels opened too fast 400 code 40003.
// An interaction's token works for 15 minutes on the fake's clock
// (WithClock): after them its webhook routes (follow-ups, edits of
// @original and of follow-ups) answer 401 code 50027 "Invalid Webhook
// Token", while the bot token still edits a follow-up, the bot's own
// message (followup.go).
// WithLimits turns a limit down or off, WithoutLimits all of them,
// WithLimitClock sets the clock they run on, and LimitStats counts what
// they saw (requests by scope, 429s, invalid requests, their peak, the
// ban).
//
// # Components V2
//
// A message (created, edited, an interaction response, a follow-up or a
// webhook edit) with the flag IS_COMPONENTS_V2 (1<<15) holds Discord's
// layout components: containers (17) with an accent colour, sections (9)
// with a button or thumbnail accessory, text displays (10), thumbnails
// (11), media galleries (12), files (13), separators (14), and action rows
// anywhere a container child may be. The fake refuses with 400 code 50035
// "Invalid Form Body" what Discord refuses: content or embeds with the
// flag, more than 40 components counting nested ones, more than 4000
// characters in all text displays, an attachment://name that names no file
// of the message, a component where it may not be, an edit that removes
// the flag, and an edit that sets it on a message whose content and embeds
// it does not clear ("content": null or "", "embeds": []). Components
// without an id are numbered as Discord numbers them; answers carry each
// attachment://name resolved to the attachment's URL, as discordgo reads
// it. The model keeps the URLs as sent; Attachment.Referenced and
// Message.ShownAttachments say which files show (with the flag, only
// those a component references). Message.Text gives the text of any
// message (content, embeds and text displays) to search, Controls the
// buttons and menus wherever they sit, ComponentsOfType the rest. The
// mentions in text displays ping; Message.Notified and Traffic.Pings leave
// out messages sent with SUPPRESS_NOTIFICATIONS (@silent).
//
// # Threads and direct messages
//
// POST /channels/{channel}/messages/{message}/threads starts a public
// thread whose ID is the message's (160004 when the message already has
// one; Create Public Threads needed, 50013 without). A thread has its
// parent's permissions; posting in it needs Send Messages in Threads.
// PATCH /channels/{thread} renames, archives and locks (locking, and
// unarchiving a locked thread, need Manage Threads); an archived thread
// refuses new messages, edits, deletes, member changes and patches that
// do not unarchive it with 400 code 50083 "Thread is archived" (Discord
// itself unarchives a thread the bot posts in; the fake asks for the
// explicit unarchive, which works on both), and so do the webhook routes
// that edit or delete an interaction's message there. A click on a
// message in an archived thread is refused (ErrInvocation), as Discord's
// client greys out its buttons. Interaction responses and follow-ups are
// not checked against the archive state. Thread members are
// added and removed with PUT and DELETE
// /channels/{thread}/thread-members/{user} (or @me) and listed with GET;
// the bot is a member of the threads it starts, and a user mentioned in a
// thread message joins it (ThreadMembers). A thread archives itself
// after its auto_archive_duration without a message on the fake's clock
// (WithClock), with a THREAD_UPDATE; SetThreadArchived archives one at
// once, as a moderator would. An Invocation with Channel set to a thread
// carries the thread as channel_id, its parent's guild and a channel
// object of type 11 with parent_id.
//
// POST /users/@me/channels opens the DM channel with a user, the same one
// each time; DMMessages lists what the bot sent there, and SetDMsClosed
// makes sending to it fail with 403 code 50007 "Cannot send messages to
// this user". Channels lists guild channels, threads and DM channels.
//
// GET /guilds/{guild}/members/{user} answers the guild member object of a
// member (Guild.Members, AddMember; the bot is a member of its guilds),
// 404 code 10007 "Unknown Member" for a user who is not one (RemoveMember
// makes one leave), and 404 code 10004 "Unknown Guild" for a guild the
// bot is not in; like every bot route it needs the bot's token.
//
// # Interactions over HTTP
//
// With WithHTTPInteractions (or SetInteractionEndpoints) the fake
// delivers SlashCommand and Click to the bot's interactions endpoints in
// turn (or to Invocation.Endpoint) instead of the gateway, signed with
// the application's Ed25519 key (PublicKey) as Discord signs. The HTTP
// answer is the callback, JSON or multipart/form-data with payload_json
// and files, checked and applied as a REST callback is, within the
// callback deadline; deferred answers are finished through the webhook
// routes. With WithResponseDelay, the message an answer creates is made
// that long after the answer, as on Discord: @original answers 404 code
// 10015 "Unknown Webhook" until then. Each delivery is recorded as a Call with RouteHTTPInteraction.
// Ping sends a PING and wants a PONG; SendTampered sends a request whose
// signature a verifying endpoint must refuse (wrong key, changed body,
// old timestamp, missing headers) and returns the endpoint's status.
//
// # Shards
//
// WithShards sets the shard count and identify concurrency GET
// /gateway/bot answers. Each gateway connection identifies with its shard
// pair; READY and GUILD_CREATE carry the guilds of that shard
// ((guild_id >> 22) % shards, ShardOf; GuildIDOnShard makes guild IDs
// for a test), and a guild's interactions and events are dispatched on
// its shard's connection. A wrong shard count, an ID out of range or a
// shard already connected is closed with 4010, a shard with more guilds
// than WithGuildsPerShard allows with 4011. Identifies records each
// IDENTIFY with its time and close code.
package fakediscord
