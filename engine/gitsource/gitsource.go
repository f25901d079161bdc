package gitsource

import (
	"net/url"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
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
		return "\"" + withoutUserinfo(raw) + "\" is not a URL: use the https:// URL of the repository."
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
	for name := range u.Query() {
		if secret.LooksSecret(name) || strings.EqualFold(name, "key") || strings.EqualFold(name, "auth") {
			return "The URL carries a credential in its query (" + name + "). Remove it and use auth = secret(\"env:NAME\") (or sync --token-env) for a private repository."
		}
	}
	return ""
}

// withoutUserinfo hides what stands between a URL's "://" and its host, a
// password perhaps, in text a URL that does not parse is quoted in.
func withoutUserinfo(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		return raw[:i+3] + "******@" + rest[at+1:]
	}
	return raw
}
