package gitsource

import (
	"net/url"
	"strings"
)

// DefaultMaxSize is the size cap of one git skill block's files.
const DefaultMaxSize = 50_000_000

// Check returns why a skill's git URL is refused, or "" when it is
// accepted: only https:// remotes without credentials in the URL.
func Check(raw string) string {
	if strings.HasPrefix(raw, "git@") {
		return "SSH remotes (" + raw + ") are not supported: use the https:// URL of the repository."
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "\"" + raw + "\" is not a URL: use the https:// URL of the repository."
	}
	if u.Scheme != "https" {
		return "Only https:// repositories are supported (got " + u.Scheme + "://): plain http can be tampered with, and file:// and ssh:// are not used for skills."
	}
	if u.User != nil {
		return "The URL carries credentials. Remove them and use auth = secret(\"env:NAME\") for a private repository."
	}
	if u.Host == "" {
		return "The URL has no host."
	}
	return ""
}
