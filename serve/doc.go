// Package serve is the running program: Main starts the bot from its
// Config (TOML, then the environment, then Validate) with a database, a
// Discord session per gateway shard or the interactions endpoint, the HTTP
// listener (/healthz, /readyz, /metrics, the Activity) and, on PostgreSQL,
// the global limit's budget shared with the other replicas; Close drains
// and stops it. The malefiz command runs it, and end-to-end tests start it
// in-process against a fake Discord.
package serve
