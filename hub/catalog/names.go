package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// MaxToolName is the longest tool or prompt name the hub exposes: clients
// reject longer names.
const MaxToolName = 64

// Separator joins a service's name and its tool's name.
const Separator = "__"

// ExposedName returns the name a service's tool (or prompt) gets in the
// hub: <service>__<name>, with every character outside [A-Za-z0-9_-]
// replaced by "_". A name that would be longer than 64 characters, or that
// had to be changed, keeps a readable prefix and ends in a short hash of the
// service and the original name, so the same input always gives the same
// name and two different tools never share one.
//
// A name that needs no change but ends the way a hashed one does ("_" and
// eight hex digits) is hashed too: otherwise a tool could be named exactly
// like another tool's shortened name.
func ExposedName(service, name string) string {
	full := sanitize(service) + Separator + sanitize(name)
	if len(full) <= MaxToolName && full == service+Separator+name && !hashedSuffix.MatchString(full) {
		return full
	}
	sum := sha256.Sum256([]byte(service + "\x00" + name))
	suffix := "_" + hex.EncodeToString(sum[:])[:8]
	if len(full)+len(suffix) > MaxToolName {
		full = full[:MaxToolName-len(suffix)]
	}
	return full + suffix
}

// hashedSuffix matches the end of a name ExposedName shortened or changed.
var hashedSuffix = regexp.MustCompile(`_[0-9a-f]{8}$`)

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
