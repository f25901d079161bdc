package oauth

import (
	"time"
)

// What a service's login is, as auth status and plan report it.
const (
	LoggedIn      = "logged in"
	LoginRequired = "login required"
)

// A Status is one OAuth service's login as the store has it; reading it
// never contacts a server.
type Status struct {
	Service      string     `json:"service"`
	Issuer       string     `json:"issuer"`
	Registration string     `json:"registration"`
	Scopes       []string   `json:"scopes"`
	Expires      *time.Time `json:"expires"`
	Status       string     `json:"status"`
	// Why says why a login is required: no login yet, a refused refresh
	// token, an expired token with nothing to refresh it.
	Why string `json:"-"`
	// Refreshable reports whether the record holds a refresh token.
	Refreshable bool `json:"-"`
}

// Status returns the login of the service name reaching url.
func (s *Store) Status(name, url string) (Status, error) {
	st := Status{Service: name, Scopes: []string{}, Status: LoginRequired, Why: "no login yet"}
	rec, err := s.Find(url)
	if err != nil || rec == nil {
		return st, err
	}
	st.Issuer, st.Registration = rec.Issuer, rec.Registration.Kind
	if rec.Scopes != nil {
		st.Scopes = rec.Scopes
	}
	if t := rec.Token; t != nil {
		st.Refreshable = t.RefreshToken != ""
		if !t.ExpiresAt.IsZero() {
			e := t.ExpiresAt.UTC()
			st.Expires = &e
		}
	}
	switch {
	case rec.LoginRequired != "":
		st.Why = rec.LoginRequired
	case rec.Token == nil:
		st.Why = "logged out"
	case !rec.usable(s.now()):
		st.Why = "the token expired and there is no refresh token"
	default:
		st.Status, st.Why = LoggedIn, ""
	}
	return st, nil
}

// ExpiresWithin reports whether a login that works now ends within d with
// nothing to renew it: a token without a refresh token. A refreshable
// token is renewed as it expires and never counts.
func (st Status) ExpiresWithin(now time.Time, d time.Duration) bool {
	return st.Status == LoggedIn && !st.Refreshable && st.Expires != nil && st.Expires.Before(now.Add(d))
}
