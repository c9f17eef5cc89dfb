package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync"
	"time"
)

// discordEpoch is the first millisecond of 2015 in Unix milliseconds, where
// Discord snowflakes count from.
const discordEpoch = 1420070400000

// snowflakes hands out increasing snowflake-like IDs, unique in the process
// so that IDs from fakes running in parallel never collide.
var snowflakes struct {
	mu   sync.Mutex
	last uint64
}

// newID returns a new snowflake: the current time in its upper bits, and
// always greater than the previous one. All IDs have 19 digits for the
// next decades, so they sort the same as strings and as numbers.
func newID() string {
	snowflakes.mu.Lock()
	defer snowflakes.mu.Unlock()
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= snowflakes.last {
		id = snowflakes.last + 1
	}
	snowflakes.last = id
	return strconv.FormatUint(id, 10)
}

// newToken returns a random token with the given prefix.
func newToken(prefix string) string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return prefix + hex.EncodeToString(b)
}
