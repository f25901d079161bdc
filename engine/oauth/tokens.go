package oauth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// refreshAhead is how long before its expiry a token is refreshed, so a
// request never leaves with a token that dies on the way.
const refreshAhead = time.Minute

// ErrLoginRequired says a service's tokens are gone or refused: only
// `chronicle auth login SERVICE` helps. It wraps mcp-go's ErrNoToken, so
// mcp-go's client asks for authorization instead of retrying.
var ErrLoginRequired = fmt.Errorf("login required: %w", transport.ErrNoToken)

// Tokens is mcp-go's TokenStore for one record, kept on disk: every read
// reads the file (another process may have refreshed it), and a token due
// for a refresh is refreshed here, under the record's file lock, so mcp-go's
// handler never sends a refresh token another process has spent.
type Tokens struct {
	store *Store
	// template is what a first SaveToken (a login) writes around the
	// token: the record's issuer, resource, registration and scopes.
	template Record
	handler  *transport.OAuthHandler
	// login makes SaveToken write the template around the token, whatever
	// the file held: a login replaces the registration too.
	login bool
}

var _ transport.TokenStore = (*Tokens)(nil)

// TokensFor returns the token store of rec (its file may not exist yet).
// Bind the handler that refreshes before the first GetToken.
func (s *Store) TokensFor(rec Record) *Tokens {
	return &Tokens{store: s, template: rec}
}

// Bind gives t the handler it refreshes tokens through: mcp-go's, made with
// t as its TokenStore.
func (t *Tokens) Bind(h *transport.OAuthHandler) { t.handler = h }

func (t *Tokens) path() string { return t.store.path(t.template.Issuer, t.template.Resource) }

// GetToken returns the record's token, refreshed first when it expires
// within a minute. A record that is missing, refused or holds no usable
// token answers ErrLoginRequired (an ErrNoToken).
func (t *Tokens) GetToken(ctx context.Context) (*transport.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, err := t.store.load(t.path())
	if err != nil {
		return nil, err
	}
	if rec == nil || rec.LoginRequired != "" || rec.Token == nil {
		return nil, ErrLoginRequired
	}
	if !t.due(rec.Token) {
		return rec.Token, nil
	}
	if rec.Token.RefreshToken == "" {
		return nil, ErrLoginRequired
	}
	return t.refresh(ctx)
}

// due reports whether tok expires within refreshAhead.
func (t *Tokens) due(tok *transport.Token) bool {
	return tok.AccessToken == "" || (!tok.ExpiresAt.IsZero() && !t.store.now().Add(refreshAhead).Before(tok.ExpiresAt))
}

// refresh refreshes the record's token holding its file lock. The record
// is read again under the lock: a process that held it before may have
// refreshed already, and its new token is used rather than spending the
// refresh token a second time. A refresh token the authorization server
// refuses (invalid_grant) is deleted and the record marked login required:
// retrying it would fail forever.
func (t *Tokens) refresh(ctx context.Context) (*transport.Token, error) {
	if t.handler == nil {
		return nil, errors.New("oauth: no handler bound to refresh the token")
	}
	l, err := t.store.lock(ctx, t.template.Issuer, t.template.Resource)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	rec, err := t.store.load(t.path())
	if err != nil {
		return nil, err
	}
	if rec == nil || rec.LoginRequired != "" || rec.Token == nil || rec.Token.RefreshToken == "" {
		return nil, ErrLoginRequired
	}
	if !t.due(rec.Token) {
		return rec.Token, nil
	}
	if md, err := t.handler.GetServerMetadata(ctx); err == nil && !sameURL(md.Issuer, rec.Issuer) {
		// The server names another authorization server now: the
		// registration and tokens of the old one mean nothing there, and
		// its refresh token must not be sent to the new one.
		rec.Token, rec.Registration = nil, Registration{}
		rec.LoginRequired = fmt.Sprintf("the server's authorization server is now %s, not %s", md.Issuer, rec.Issuer)
		if err := t.store.save(rec); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s", ErrLoginRequired, rec.LoginRequired)
	}
	// RefreshToken saves the new token (SaveToken, below) before it
	// returns: a rotated refresh token is on disk before anyone uses it.
	tok, err := t.handler.RefreshToken(ctx, rec.Token.RefreshToken)
	if err == nil {
		return tok, nil
	}
	var oe transport.OAuthError
	if errors.As(err, &oe) && oe.ErrorCode == "invalid_grant" {
		rec.Token.RefreshToken = ""
		rec.Token.AccessToken = ""
		rec.LoginRequired = "the authorization server refused the refresh token (invalid_grant)"
		if serr := t.store.save(rec); serr != nil {
			return nil, serr
		}
		return nil, fmt.Errorf("%w: %s", ErrLoginRequired, rec.LoginRequired)
	}
	return nil, err
}

// SaveToken writes tok into the record, replacing the one before and
// clearing a "login required". mcp-go calls it after a code exchange (a
// login, holding the lock) and a refresh (under refresh's lock).
func (t *Tokens) SaveToken(ctx context.Context, tok *transport.Token) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rec, err := t.store.load(t.path())
	if err != nil {
		return err
	}
	if rec == nil || t.login {
		r := t.template
		rec = &r
	}
	if tok.ExpiresAt.IsZero() && tok.ExpiresIn > 0 {
		tok.ExpiresAt = t.store.now().Add(time.Duration(tok.ExpiresIn) * time.Second)
	}
	saved := *tok
	rec.Token, rec.LoginRequired = &saved, ""
	return t.store.save(rec)
}
