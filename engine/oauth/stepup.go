package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// A ScopeError is a server's refusal of a request for want of a scope the
// login does not hold: a 403 whose Bearer challenge says
// error="insufficient_scope" (RFC 6750 §3.1), with the scope it wants.
type ScopeError struct {
	Service string
	Scopes  []string // the challenge's scope
	// Asked reports whether the login asked for every one of them already
	// (the authorization server did not grant them): a new login would
	// not help, so the record is not marked.
	Asked bool
}

func (e *ScopeError) Error() string {
	switch {
	case e.Asked && len(e.Scopes) == 0:
		return "the server refuses the token for want of a scope it does not name (insufficient_scope)"
	case e.Asked:
		return fmt.Sprintf("the server wants scope %q (insufficient_scope), which the login asked for but was not granted", strings.Join(e.Scopes, " "))
	}
	return fmt.Sprintf("login required: the server wants scope %q (insufficient_scope): run chronicle auth login %s to log in with it", strings.Join(e.Scopes, " "), e.Service)
}

// Unwrap makes a ScopeError that a new login would mend an
// ErrLoginRequired.
func (e *ScopeError) Unwrap() error {
	if e.Asked {
		return nil
	}
	return ErrLoginRequired
}

// StepUp returns next (http.DefaultTransport when nil) with the step-up
// of the MCP authorization spec: the HTTP transport of an MCP client of
// the record's server. A 403 insufficient_scope is answered with a
// ScopeError instead of the response (mcp-go v1.2.1 reads a 403 as any
// other status and drops the challenge), and, the first time, the record
// is marked "login required" with the scopes the server asked for kept in
// StepUp, so the next login (chronicle auth login, the console's button)
// asks for them too. Once marked, the record's token is no longer handed
// out (GetToken), so no request reaches the server to be refused again:
// the scope is asked for once, never in a loop. A challenge for scopes
// the login already asked for is not marked: a new login would get the
// same refusal.
func (t *Tokens) StepUp(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return stepUp{tokens: t, next: next}
}

type stepUp struct {
	tokens *Tokens
	next   http.RoundTripper
}

func (s stepUp) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusForbidden {
		return resp, err
	}
	challenge := resp.Header.Values("WWW-Authenticate")
	if challengeParam(challenge, "error") != "insufficient_scope" {
		return resp, nil
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return nil, s.tokens.stepUp(req.Context(), strings.Fields(challengeParam(challenge, "scope")))
}

// stepUp records that the server wants scopes the login does not hold,
// under the record's lock, and returns the ScopeError to answer.
func (t *Tokens) stepUp(ctx context.Context, scopes []string) error {
	e := &ScopeError{Service: t.template.Service, Scopes: scopes}
	l, err := t.store.lock(ctx, t.template.Issuer, t.template.Resource)
	if err != nil {
		return err
	}
	defer l.Release()
	rec, err := t.store.load(t.path())
	if err != nil || rec == nil {
		return e
	}
	e.Service = rec.Service
	if !slices.ContainsFunc(scopes, func(s string) bool { return !slices.Contains(rec.Scopes, s) }) {
		// Nothing new to ask for (no scope named counts as that).
		e.Asked = true
		return e
	}
	if rec.LoginRequired != "" {
		return e
	}
	rec.StepUp = scopes
	rec.LoginRequired = fmt.Sprintf("the server wants scope %q (insufficient_scope)", strings.Join(scopes, " "))
	if err := t.store.save(rec); err != nil {
		return err
	}
	return e
}

// withStepUp returns scopes with those a server asked for in a step-up
// (prior's StepUp) added, in order, each once.
func withStepUp(scopes []string, prior *Record) []string {
	if prior == nil || len(prior.StepUp) == 0 {
		return scopes
	}
	out := slices.Clone(scopes)
	for _, s := range prior.StepUp {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
