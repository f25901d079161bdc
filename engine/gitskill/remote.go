package gitskill

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/gitsource"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

// CheckURL returns an error unless raw is an https:// URL without
// credentials: plain http can be tampered with, and file://, ssh:// and
// git@ remotes are not used by chronicle.
func CheckURL(raw string) error {
	if why := gitsource.Check(raw); why != "" {
		return fmt.Errorf("refusing git remote: %s", why)
	}
	return nil
}

// Auth returns the go-git authentication for a resolved token, or nil when
// the token is empty.
func Auth(token string) transport.AuthMethod {
	if token == "" {
		return nil
	}
	return &http.BasicAuth{Username: "x-access-token", Password: token}
}

// AuthHint says how a git skill is given a token for a private repository.
const AuthHint = `auth = secret("env:NAME") in the skill block`

// RemoteError wraps a go-git error about url, turning the transport's
// authentication failures into a message the user can act on. withToken
// says whether a token was sent; authHint says how the caller's user gives
// one (AuthHint for a skill block, gitsync.TokenHint for sync).
func RemoteError(url string, withToken bool, authHint string, err error) error {
	if err == nil {
		return nil
	}
	err = trimmed{err}
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired) && withToken,
		errors.Is(err, transport.ErrAuthorizationFailed) && withToken:
		return fmt.Errorf("%s: the token was refused: check that it is current and can read the repository: %w", url, err)
	case errors.Is(err, transport.ErrAuthenticationRequired),
		errors.Is(err, transport.ErrAuthorizationFailed):
		return fmt.Errorf("%s: the repository needs authentication: give a token that can read it (%s): %w", url, authHint, err)
	case errors.Is(err, transport.ErrRepositoryNotFound) && !withToken:
		return fmt.Errorf("%s: repository not found; check the URL (a private repository needs a token: %s): %w", url, authHint, err)
	}
	return fmt.Errorf("%s: %w", url, err)
}

// trimmed drops the trailing newline that go-git keeps from a server's
// error body, and the colon left dangling when that body is empty
// ("repository not found: ").
type trimmed struct{ error }

func (e trimmed) Error() string {
	return strings.TrimSuffix(strings.TrimSpace(e.error.Error()), ":")
}
func (e trimmed) Unwrap() error { return e.error }
