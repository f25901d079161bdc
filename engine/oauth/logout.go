package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
)

// A LogoutResult says what a logout did.
type LogoutResult struct {
	// Found reports whether the service held a record at all.
	Found bool
	// Revoked reports whether the authorization server revoked the tokens;
	// NotRevoked says why not (no revocation endpoint, unreachable, an
	// error), when tokens were forgotten without it.
	Revoked    bool
	NotRevoked string
}

// Logout revokes svc's tokens where its authorization server offers
// revocation (RFC 7009), then forgets every record of svc's server. A
// failed revocation does not keep the tokens: the user asked to forget
// them, and the result says the server was not told.
func (s *Store) Logout(ctx context.Context, svc Resource, client *http.Client) (LogoutResult, error) {
	recs, err := s.Records(svc.URL)
	if err != nil || len(recs) == 0 {
		return LogoutResult{}, err
	}
	res := LogoutResult{Found: true}
	for _, rec := range recs {
		if rec.Token != nil && (rec.Token.AccessToken != "" || rec.Token.RefreshToken != "") {
			if why := s.revoke(ctx, svc, rec, client); why != "" {
				res.NotRevoked = why
			} else {
				res.Revoked = true
			}
		}
		if err := s.remove(rec); err != nil {
			return res, err
		}
	}
	if res.NotRevoked != "" {
		res.Revoked = false
	}
	return res, nil
}

// revoke asks rec's authorization server to revoke its refresh and access
// tokens; it returns why it could not, or "".
func (s *Store) revoke(ctx context.Context, svc Resource, rec *Record, client *http.Client) string {
	h := newHandler(svc, rec.Registration, rec.Discovery, rec.Registration.RedirectURI, nil, transport.NewMemoryTokenStore(), client)
	md, err := h.GetServerMetadata(ctx)
	if err != nil {
		return fmt.Sprintf("its authorization server could not be reached (%v)", err)
	}
	if md.RevocationEndpoint == "" {
		return "its authorization server offers no revocation"
	}
	if client == nil {
		client = http.DefaultClient
	}
	secret := rec.Registration.ClientSecret
	if rec.Registration.Kind == PreRegistered {
		secret = svc.ClientSecret
	}
	for _, tok := range []struct{ value, hint string }{{rec.Token.RefreshToken, "refresh_token"}, {rec.Token.AccessToken, "access_token"}} {
		if tok.value == "" {
			continue
		}
		form := url.Values{"token": {tok.value}, "token_type_hint": {tok.hint}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RevocationEndpoint, nil)
		if err != nil {
			return err.Error()
		}
		if secret != "" && rec.Registration.AuthMethod != "client_secret_post" {
			req.SetBasicAuth(url.QueryEscape(rec.Registration.ClientID), url.QueryEscape(secret))
		} else {
			form.Set("client_id", rec.Registration.ClientID)
			if secret != "" {
				form.Set("client_secret", secret)
			}
		}
		body := form.Encode()
		req.Body = io.NopCloser(strings.NewReader(body))
		req.ContentLength = int64(len(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Sprintf("the revocation request failed (%v)", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Sprintf("the revocation endpoint answered %s", resp.Status)
		}
	}
	return ""
}
