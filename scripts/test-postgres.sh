#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, in a temporary directory.
#
#   scripts/test-postgres.sh go test ./store
#       starts a server, runs the command with MALEFIZ_TEST_POSTGRES_URL set,
#       stops the server and deletes its files; exits with the command's status.
#   eval "$(scripts/test-postgres.sh)"
#       starts a server and prints the export line (and how to stop it); the
#       server runs until you stop it.
#
# It needs PostgreSQL's server programs (Debian: apt-get install postgresql);
# with PG_INSTALL=1 and as root it installs them when they are missing. The
# server never runs as root (PostgreSQL refuses): as root it runs as the
# postgres user (or PG_USER). It listens on 127.0.0.1 on a free port, trusts
# local connections, and keeps fsync on, so that timings are honest.
set -euo pipefail

bindir() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && { echo "$d"; return 0; }
	done
	d=$(command -v pg_ctl 2>/dev/null) && { dirname "$(readlink -f "$d")"; return 0; }
	return 1
}

if ! BIN=$(bindir); then
	if [ "${PG_INSTALL:-}" = 1 ] && [ "$(id -u)" = 0 ]; then
		echo "installing postgresql from the Debian packages" >&2
		apt-get update -q >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
		BIN=$(bindir)
	else
		echo "test-postgres.sh: PostgreSQL's initdb and pg_ctl are missing: apt-get install postgresql (or PG_INSTALL=1 as root)" >&2
		exit 1
	fi
fi

# The user the server runs as, and a wrapper to run commands as that user.
as_server() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	PG_USER=${PG_USER:-postgres}
	if ! id "$PG_USER" >/dev/null 2>&1; then
		useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
	fi
	as_server() { runuser -u "$PG_USER" -- "$@"; }
fi

# A free port: the first from 54320 on that nothing answers on.
free_port() {
	local p
	for p in $(seq 54320 54999); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

DIR=$(mktemp -d "${TMPDIR:-/tmp}/malefiz-pg.XXXXXX")
chmod 755 "$DIR"
if [ "$(id -u)" = 0 ]; then chown "$PG_USER" "$DIR"; fi
as_server "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 ||
	{ cat "$DIR/initdb.log" >&2; exit 1; }

# Another script may take the same free port at the same moment: try again.
for attempt in 1 2 3 4 5; do
	PORT=$(free_port)
	if as_server "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c max_connections=200 -c shared_buffers=64MB" \
		start >/dev/null; then
		break
	fi
	[ "$attempt" = 5 ] && { cat "$DIR/server.log" >&2; exit 1; }
done

URL="postgres://postgres@127.0.0.1:$PORT/postgres?sslmode=disable"
stop() { as_server "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }

if [ $# -gt 0 ]; then
	trap stop EXIT
	trap 'exit 130' INT TERM # and so through stop
	echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') at $URL" >&2
	status=0
	MALEFIZ_TEST_POSTGRES_URL=$URL "$@" || status=$?
	exit $status
fi
echo "export MALEFIZ_TEST_POSTGRES_URL='$URL'"
echo "# stop it with: $( [ "$(id -u)" = 0 ] && echo "runuser -u $PG_USER -- " )$BIN/pg_ctl -D $DIR/data stop && rm -rf $DIR"
